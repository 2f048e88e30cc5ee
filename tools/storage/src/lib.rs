//! The storage family: `browser.storage.get|set|clear` for the web
//! storage (`localStorage` or `sessionStorage`) of the controlled tab's
//! origin. The host reads through the browser (never page script) and
//! reads back after every change; keys and values are page data, bounded
//! by the host. The component checks the request.

wit_bindgen::generate!({
    world: "storage-family",
    path: "../../tools-wit",
    with: { "browser-pilot:tools/types@0.1.0": bp_sdk::types },
});

use bp_sdk::spec::{target_id_schema, with_common};
use bp_sdk::{invalid, Args, CallContext, Component, ToolError, ToolSpec};
use browser_pilot::tools::storage_read::{self, StorageArea, StorageContents};
use browser_pilot::tools::storage_write;
use serde_json::{json, Map, Value};

/// The longest key, in characters.
const MAX_KEY: usize = 1024;
/// The longest value a set takes, in characters.
const MAX_VALUE: usize = 1 << 20;

struct Storage;

fn area_schema() -> Value {
    json!({"enum": ["local", "session"], "description": "localStorage or sessionStorage (default local)."})
}

fn output() -> Value {
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

fn input(extra: &[(&str, Value)], required: &[&str]) -> Value {
    let mut props = Map::new();
    props.insert("targetId".into(), target_id_schema());
    props.insert("area".into(), area_schema());
    for (k, v) in extra {
        props.insert((*k).into(), v.clone());
    }
    json!({"type": "object", "additionalProperties": false, "required": required, "properties": props})
}

fn specs() -> Vec<ToolSpec> {
    let key = json!({"type": "string", "minLength": 1, "maxLength": MAX_KEY});
    let value = json!({"type": "string", "maxLength": MAX_VALUE, "x-browser-pilot-sensitivity": ["page_content"]});
    vec![
        ToolSpec::read(
            "browser.storage.get",
            "Read the controlled tab's web storage for the origin it shows: one key, or every key (at most 500, values cut to 8192 characters, with the total count). Read through the browser, not page script.",
            &["storage-read"],
        )
        .schemas(input(&[("key", key.clone())], &[]), output())
        .sensitivity(&[], &["page_content"]),
        ToolSpec::mutating(
            "browser.storage.set",
            "Set a key of the controlled tab's web storage (its current origin) and read it back.",
            &["storage-write"],
        )
        .schemas(input(&[("key", key.clone()), ("value", value)], &["key", "value"]), output())
        .sensitivity(&["page_content"], &["page_content"]),
        ToolSpec::mutating(
            "browser.storage.clear",
            "Remove a key, or every key, of the controlled tab's web storage (its current origin) and read the storage back.",
            &["storage-write"],
        )
        .destructive()
        .schemas(input(&[("key", key)], &[]), output())
        .sensitivity(&[], &["page_content"]),
    ]
}

fn area(args: &mut Args) -> Result<StorageArea, ToolError> {
    match args.opt_str("area")?.as_deref() {
        None | Some("local") => Ok(StorageArea::Local),
        Some("session") => Ok(StorageArea::Session),
        Some(other) => Err(invalid(format!(
            "`area` must be local or session, not `{other}`"
        ))),
    }
}

fn key(args: &mut Args, required: bool) -> Result<Option<String>, ToolError> {
    let k = args.opt_str("key")?;
    match &k {
        None if required => Err(invalid("`key` is required")),
        Some(k) if k.is_empty() || k.chars().count() > MAX_KEY => {
            Err(invalid(format!("`key` must be 1 to {MAX_KEY} characters")))
        }
        _ => Ok(k),
    }
}

fn result(area: StorageArea, c: StorageContents) -> Value {
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

impl Component for Storage {
    fn specs() -> Vec<ToolSpec> {
        specs()
    }

    fn call(_ctx: &CallContext, name: &str, mut args: Args) -> Result<Value, ToolError> {
        args.allow(&["targetId"]);
        let area = area(&mut args)?;
        match name {
            "browser.storage.get" => {
                let key = key(&mut args, false)?;
                args.finish()?;
                Ok(result(area, storage_read::get_items(area, key.as_deref())?))
            }
            "browser.storage.set" => {
                let key = key(&mut args, true)?.unwrap_or_default();
                let value = args.str("value")?;
                args.finish()?;
                if value.chars().count() > MAX_VALUE {
                    return Err(invalid(format!(
                        "`value` is longer than {MAX_VALUE} characters"
                    )));
                }
                Ok(result(area, storage_write::set_item(area, &key, &value)?))
            }
            "browser.storage.clear" => {
                let key = key(&mut args, false)?;
                args.finish()?;
                Ok(result(area, storage_write::clear(area, key.as_deref())?))
            }
            other => Err(invalid(format!("unknown tool `{other}`"))),
        }
    }
}

bp_sdk::export_component!(Storage);
