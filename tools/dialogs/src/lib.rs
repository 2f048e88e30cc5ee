//! The dialogs family: `browser.dialogs.list` and `browser.dialogs.respond`.
//! A dialog stays pending until someone answers it; this component never
//! answers on its own.

wit_bindgen::generate!({
    world: "dialogs-family",
    path: "../../tools-wit",
    with: { "browser-pilot:tools/types@0.1.0": bp_sdk::types },
});

use bp_sdk::spec::target_id_schema;
use bp_sdk::{invalid, Args, CallContext, Component, ToolError, ToolSpec};
use browser_pilot::tools::dialogs;
use serde_json::{json, Value};

/// Longest prompt answer.
const MAX_PROMPT: usize = 10_000;

struct Dialogs;

impl Component for Dialogs {
    fn specs() -> Vec<ToolSpec> {
        vec![
            ToolSpec::read("browser.dialogs.list", "Pending JavaScript dialogs on this workspace's tabs (or one tab with targetId).", &["dialogs"])
                .schemas(
                    json!({"type": "object", "additionalProperties": false, "properties": {"targetId": target_id_schema()}}),
                    json!({"type": "object", "properties": {"dialogs": {"type": "array", "items": {"type": "object", "properties": {
                        "dialogId": {"type": "string"}, "targetId": {"type": "string"}, "type": {"enum": ["alert", "confirm", "prompt", "beforeunload"]},
                        "message": {"type": "string", "x-browser-pilot-sensitivity": ["browser_data"]},
                        "defaultPrompt": {"type": ["string", "null"], "x-browser-pilot-sensitivity": ["browser_data"]}, "openedAt": {"type": "integer"}}}}}}),
                )
                .sensitivity(&[], &["browser_data"]),
            ToolSpec::mutating("browser.dialogs.respond", "Accept or dismiss a pending dialog (with text for a prompt).", &["dialogs"])
                .schemas(
                    json!({"type": "object", "additionalProperties": false, "required": ["dialogId", "accept"], "properties": {
                        "targetId": target_id_schema(), "dialogId": {"type": "string"}, "accept": {"type": "boolean"},
                        "promptText": {"type": "string", "maxLength": MAX_PROMPT, "x-browser-pilot-sensitivity": ["credential"]}}}),
                    json!({"type": "object", "properties": {"responded": {"type": "boolean"}}}),
                )
                .sensitivity(&["credential"], &[]),
        ]
    }

    fn call(_ctx: &CallContext, name: &str, mut args: Args) -> Result<Value, ToolError> {
        let only = args.opt_str("targetId")?.is_some();
        match name {
            "browser.dialogs.list" => {
                args.finish()?;
                let list: Vec<Value> = dialogs::pending(only)?
                    .into_iter()
                    .map(|d| {
                        json!({"dialogId": d.dialog_id, "targetId": d.target_id, "type": d.kind, "message": d.message,
                               "defaultPrompt": d.default_prompt, "openedAt": d.opened_at})
                    })
                    .collect();
                Ok(json!({"dialogs": list}))
            }
            "browser.dialogs.respond" => {
                let id = args.str("dialogId")?;
                let accept = args
                    .opt_bool("accept")?
                    .ok_or_else(|| invalid("`accept` is required"))?;
                let text = args.opt_str("promptText")?;
                args.finish()?;
                if text
                    .as_ref()
                    .is_some_and(|t| t.chars().count() > MAX_PROMPT)
                {
                    return Err(invalid(format!(
                        "`promptText` is longer than {MAX_PROMPT} characters"
                    )));
                }
                dialogs::respond(&id, accept, text.as_deref())?;
                Ok(json!({"responded": true}))
            }
            other => Err(invalid(format!("unknown tool `{other}`"))),
        }
    }
}

bp_sdk::export_component!(Dialogs);
