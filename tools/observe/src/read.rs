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
    props.insert(
        "hiddenText".into(),
        json!({"type": "object", "required": ["count", "reasons"],
            "description": "Text a person cannot see: left out unless includeHidden. Reasons count passages (display_none, visibility_hidden, transparent, clipped, tiny, offscreen) and removed invisible characters (invisible_chars).",
            "properties": {"count": {"type": "integer", "minimum": 0},
                "reasons": {"type": "object", "additionalProperties": {"type": "integer", "minimum": 0}}}}),
    );
    ToolSpec::read(
        "browser.read",
        "Read what a person sees of the target, or of one element by observation ref: its visible text and the values its form fields show (never a password's). Hidden text is left out and counted in hiddenText; invisible characters are removed.",
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
                "maxChars": {"type": "integer", "minimum": 1, "maximum": MAX_CHARS, "default": DEFAULT_CHARS},
                "includeHidden": {"type": "boolean", "default": false,
                    "description": "Also return text a person cannot see (off screen, transparent, clipped, tiny, hidden by style)."}
            }
        }),
        json!({"type": "object", "required": ["text", "truncated", "hiddenText"], "properties": Value::Object(with_common(props))}),
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
    let include_hidden = args.opt_bool("includeHidden")?.unwrap_or(false);
    args.finish()?;
    let node = match (observation, reference) {
        (None, None) => None,
        (Some(obs), Some(r)) => Some(page_read::resolve_ref(&obs, r)?),
        (None, Some(_)) => return Err(invalid("`ref` needs `observationId`")),
        (Some(_), None) => return Err(invalid("`observationId` needs `ref`")),
    };
    let text = page_read::text(node, max_chars, include_hidden)?;
    let reasons: Map<String, Value> = text
        .hidden
        .iter()
        .map(|h| (h.reason.clone(), json!(h.count)))
        .collect();
    let count: u64 = text.hidden.iter().map(|h| u64::from(h.count)).sum();
    Ok(json!({
        "text": text.text,
        "truncated": text.truncated,
        "hiddenText": {"count": count, "reasons": reasons},
    }))
}
