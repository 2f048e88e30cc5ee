//! What the two web storage components share (`storage` reads,
//! `storage-write` changes): the bounds, the argument checks, the schemas
//! and the result object. The records are the shared WIT `types`.

use crate::spec::{target_id_schema, with_common};
use crate::types::{StorageArea, StorageContents};
use crate::{invalid, Args, ToolError};
use serde_json::{json, Map, Value};

/// The longest key, in characters.
pub const MAX_KEY: usize = 1024;
/// The longest value a set takes, in characters.
pub const MAX_VALUE: usize = 1 << 20;

/// JSON Schema of the `area` argument.
pub fn area_schema() -> Value {
    json!({"enum": ["local", "session"], "description": "localStorage or sessionStorage (default local)."})
}

/// The output schema of every storage tool.
pub fn output() -> Value {
    let mut out = Map::new();
    out.insert("area".into(), json!({"enum": ["local", "session"]}));
    out.insert(
        "items".into(),
        json!({"type": "array", "items": {"type": "object", "properties": {
            "key": {"type": "string", "x-browser-pilot-sensitivity": ["page_content"]},
            "value": {"type": "string", "x-browser-pilot-sensitivity": ["page_content"]},
            "valueCut": {"type": "boolean"}}}}),
    );
    out.insert("total".into(), json!({"type": "integer"}));
    out.insert("truncated".into(), json!({"type": "boolean"}));
    json!({"type": "object", "required": ["area", "items", "total"], "properties": Value::Object(with_common(out))})
}

/// An input schema: `targetId`, `area` and `extra`, `required` of them required.
pub fn input(extra: &[(&str, Value)], required: &[&str]) -> Value {
    let mut props = Map::new();
    props.insert("targetId".into(), target_id_schema());
    props.insert("area".into(), area_schema());
    for (k, v) in extra {
        props.insert((*k).into(), v.clone());
    }
    json!({"type": "object", "additionalProperties": false, "required": required, "properties": props})
}

pub fn area(args: &mut Args) -> Result<StorageArea, ToolError> {
    match args.opt_str("area")?.as_deref() {
        None | Some("local") => Ok(StorageArea::Local),
        Some("session") => Ok(StorageArea::Session),
        Some(other) => Err(invalid(format!(
            "`area` must be local or session, not `{other}`"
        ))),
    }
}

pub fn key(args: &mut Args, required: bool) -> Result<Option<String>, ToolError> {
    let k = args.opt_str("key")?;
    match &k {
        None if required => Err(invalid("`key` is required")),
        Some(k) if k.is_empty() || k.chars().count() > MAX_KEY => {
            Err(invalid(format!("`key` must be 1 to {MAX_KEY} characters")))
        }
        _ => Ok(k),
    }
}

pub fn result(area: StorageArea, c: StorageContents) -> Value {
    let items: Vec<Value> = c
        .items
        .iter()
        .map(|i| json!({"key": i.key, "value": i.value, "valueCut": i.value_cut}))
        .collect();
    let truncated = (items.len() as u32) < c.total && items.len() >= 500;
    json!({
        "area": if matches!(area, StorageArea::Local) { "local" } else { "session" },
        "origin": c.origin,
        "items": items,
        "total": c.total,
        "truncated": truncated,
    })
}
