//! The tabs family: `browser.tabs.open` and `browser.tabs.close`. Tabs are
//! opened into the calling workspace's ManagedTabSet; bulk closing never
//! reaches beyond it.

wit_bindgen::generate!({
    world: "tabs",
    path: "../../tools-wit",
    with: { "browser-pilot:tools/types@0.1.0": bp_sdk::types },
});

use bp_sdk::{invalid, Args, CallContext, Component, ToolError, ToolSpec};
use browser_pilot::tools::tabs_manage;
use serde_json::{json, Value};

/// Longest URL accepted.
const MAX_URL: usize = 8192;

struct Tabs;

fn closed_schema() -> Value {
    json!({"type": "object", "properties": {"closed": {"type": "array", "items": {"type": "string"}}}})
}

impl Component for Tabs {
    fn specs() -> Vec<ToolSpec> {
        vec![
            ToolSpec::mutating(
                "browser.tabs.open",
                "Open a tab in this workspace's ManagedTabSet, controlled by the calling lease; optionally load a URL.",
                &["tabs-manage"],
            )
            .open_world()
            .cooperative()
            .schemas(
                json!({"type": "object", "additionalProperties": false, "properties": {
                    "url": {"type": "string", "maxLength": MAX_URL, "description": "http(s), file, about or data URL to load"}}}),
                json!({"type": "object", "properties": {"targetId": {"type": "string"}, "url": {"type": "string"},
                    "origin": {"enum": ["managed"]}, "title": {"type": "string"}, "status": {"type": ["integer", "null"]}}}),
            ),
            ToolSpec::mutating(
                "browser.tabs.close",
                "Close one target (`targetId`, a user tab too) or, with `all: true`, every tab of this workspace's ManagedTabSet (never user tabs).",
                &["tabs-manage"],
            )
            .destructive()
            .schemas(
                json!({"type": "object", "additionalProperties": false, "properties": {
                    "targetId": {"type": "string"}, "all": {"type": "boolean"}}}),
                closed_schema(),
            ),
        ]
    }

    fn call(_ctx: &CallContext, name: &str, mut args: Args) -> Result<Value, ToolError> {
        match name {
            "browser.tabs.open" => {
                let url = args.opt_str("url")?;
                args.finish()?;
                if url.as_ref().is_some_and(|u| u.len() > MAX_URL) {
                    return Err(invalid(format!("`url` is longer than {MAX_URL} bytes")));
                }
                let tab = tabs_manage::open(url.as_deref())?;
                Ok(
                    json!({"targetId": tab.target_id, "url": tab.url, "title": tab.title,
                           "status": tab.status, "origin": tab.origin}),
                )
            }
            "browser.tabs.close" => {
                let target = args.opt_str("targetId")?;
                let all = args.opt_bool("all")?.unwrap_or(false);
                args.finish()?;
                let closed = match (target, all) {
                    (Some(_), true) => {
                        return Err(invalid("give either `targetId` or `all: true`, not both"))
                    }
                    (None, false) => {
                        return Err(invalid(
                            "name the tab to close (`targetId`) or pass `all: true` for the ManagedTabSet",
                        ))
                    }
                    (Some(t), false) => tabs_manage::close(&t)?,
                    (None, true) => tabs_manage::close_managed()?,
                };
                Ok(json!({"closed": closed}))
            }
            other => Err(invalid(format!("unknown tool `{other}`"))),
        }
    }
}

bp_sdk::export_component!(Tabs);
