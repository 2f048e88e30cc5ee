//! `browser.read`: the visible text of the page or of one observed element.

use crate::browser_pilot::tools::page_read;
use bp_sdk::spec::{target_id_schema, with_common};
use bp_sdk::{invalid, Args, ToolError, ToolSpec};
use serde_json::{json, Map, Value};

const DEFAULT_CHARS: u32 = 20_000;
const MAX_CHARS: u32 = 1_000_000;

pub fn spec() -> ToolSpec {
    let mut props = Map::new();
    props.insert(
        "text".into(),
        json!({"type": "string", "x-browser-pilot-sensitivity": ["browser_data"]}),
    );
    props.insert("truncated".into(), json!({"type": "boolean"}));
    ToolSpec::read(
        "browser.read",
        "Read the visible text of the target, or of one element by observation ref.",
        &["page-read"],
    )
    .schemas(
        json!({
            "type": "object",
            "additionalProperties": false,
            "properties": {
                "targetId": target_id_schema(),
                "observationId": {"type": "string"},
                "ref": {"type": "integer", "minimum": 1},
                "maxChars": {"type": "integer", "minimum": 1, "maximum": MAX_CHARS, "default": DEFAULT_CHARS}
            }
        }),
        json!({"type": "object", "required": ["text", "truncated"], "properties": Value::Object(with_common(props))}),
    )
    .sensitivity(&[], &["browser_data"])
}

pub fn read(mut args: Args) -> Result<Value, ToolError> {
    args.allow(&["targetId"]);
    let observation = args.opt_str("observationId")?;
    let reference = args.opt_ref("ref")?;
    let max_chars = args
        .opt_u32("maxChars", 1, MAX_CHARS)?
        .unwrap_or(DEFAULT_CHARS);
    args.finish()?;
    let node = match (observation, reference) {
        (None, None) => None,
        (Some(obs), Some(r)) => Some(page_read::resolve_ref(&obs, r)?),
        (None, Some(_)) => return Err(invalid("`ref` needs `observationId`")),
        (Some(_), None) => return Err(invalid("`observationId` needs `ref`")),
    };
    let text = page_read::text(node, max_chars)?;
    Ok(json!({"text": text.text, "truncated": text.truncated}))
}
