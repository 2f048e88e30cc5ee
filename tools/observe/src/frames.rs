//! `browser.frames.list`: the target's frames with opaque IDs.

use crate::browser_pilot::tools::page_read;
use bp_sdk::spec::{target_id_schema, with_common};
use bp_sdk::{Args, ToolError, ToolSpec};
use serde_json::{json, Map, Value};

pub fn spec() -> ToolSpec {
    let mut props = Map::new();
    props.insert(
        "frames".into(),
        json!({"type": "array", "items": {"type": "object", "required": ["frameId", "url", "selected"], "properties": {
            "frameId": {"type": "string"}, "url": {"type": "string"}, "name": {"type": "string"},
            "parentFrameId": {"type": "string"}, "selected": {"type": "boolean"}}}}),
    );
    ToolSpec::read(
        "browser.frames.list",
        "List the target's frames (cross-origin ones too), main frame first, marking the selected one.",
        &["page-read"],
    )
    .schemas(
        json!({"type": "object", "additionalProperties": false, "properties": {"targetId": target_id_schema()}}),
        json!({"type": "object", "required": ["frames"], "properties": Value::Object(with_common(props))}),
    )
    .sensitivity(&[], &["browser_data"])
}

pub fn list(mut args: Args) -> Result<Value, ToolError> {
    args.allow(&["targetId"]);
    args.finish()?;
    let frames: Vec<Value> = page_read::frames()?
        .into_iter()
        .map(|f| {
            let mut v = json!({"frameId": f.frame_id, "url": f.url, "selected": f.selected});
            if let Some(n) = f.name {
                v["name"] = json!(n);
            }
            if let Some(p) = f.parent_frame_id {
                v["parentFrameId"] = json!(p);
            }
            v
        })
        .collect();
    Ok(json!({"frames": frames}))
}
