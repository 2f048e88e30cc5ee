//! The storage-write family: `browser.storage.set` and
//! `browser.storage.clear` for the web storage of the controlled tab's
//! origin. The host changes it through the browser and reads it back
//! after every change (a change that does not show is an error). A
//! component of its own, so that `storage-write` is denied apart from
//! `storage-read`.

wit_bindgen::generate!({
    world: "storage-write-family",
    path: "../../tools-wit",
    with: { "browser-pilot:tools/types@0.1.0": bp_sdk::types },
});

use bp_sdk::storage::{area, input, key, output, result, MAX_KEY, MAX_VALUE};
use bp_sdk::{invalid, Args, CallContext, Component, ToolError, ToolSpec};
use browser_pilot::tools::storage_write;
use serde_json::{json, Value};

struct StorageWrite;

fn specs() -> Vec<ToolSpec> {
    let key = json!({"type": "string", "minLength": 1, "maxLength": MAX_KEY});
    let value = json!({"type": "string", "maxLength": MAX_VALUE, "x-browser-pilot-sensitivity": ["page_content"]});
    vec![
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

impl Component for StorageWrite {
    fn specs() -> Vec<ToolSpec> {
        specs()
    }

    fn call(_ctx: &CallContext, name: &str, mut args: Args) -> Result<Value, ToolError> {
        args.allow(&["targetId"]);
        let area = area(&mut args)?;
        match name {
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

bp_sdk::export_component!(StorageWrite);
