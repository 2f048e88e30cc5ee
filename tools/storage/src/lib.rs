//! The storage family: `browser.storage.get`, the web storage
//! (`localStorage` or `sessionStorage`) of the controlled tab's origin,
//! read through the browser (never page script); keys and values are page
//! data, bounded by the host. Changes are the `storage-write` component's,
//! so that the two capabilities are denied apart.

wit_bindgen::generate!({
    world: "storage-family",
    path: "../../tools-wit",
    with: { "browser-pilot:tools/types@0.1.0": bp_sdk::types },
});

use bp_sdk::storage::{area, input, key, output, result, MAX_KEY};
use bp_sdk::{invalid, Args, CallContext, Component, ToolError, ToolSpec};
use browser_pilot::tools::storage_read;
use serde_json::{json, Value};

struct Storage;

fn specs() -> Vec<ToolSpec> {
    let key = json!({"type": "string", "minLength": 1, "maxLength": MAX_KEY});
    vec![ToolSpec::read(
        "browser.storage.get",
        "Read the controlled tab's web storage for the origin it shows: one key, or every key (at most 500, values cut to 8192 characters, with the total count). Read through the browser, not page script.",
        &["storage-read"],
    )
    .schemas(input(&[("key", key)], &[]), output())
    .sensitivity(&[], &["page_content"])]
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
            other => Err(invalid(format!("unknown tool `{other}`"))),
        }
    }
}

bp_sdk::export_component!(Storage);
