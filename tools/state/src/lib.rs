//! The state family: `browser.state.save` saves the workspace's signed-in
//! state (the browser's cookies, the local storage of the origins its
//! tabs show) into a `state` artifact, and `browser.state.load` puts such
//! a state into the connected browser. The values stay in the broker: the
//! component sees only artifact IDs, counts and origins.

wit_bindgen::generate!({
    world: "state-family",
    path: "../../tools-wit",
    with: { "browser-pilot:tools/types@0.1.0": bp_sdk::types },
});

use bp_sdk::{invalid, Args, CallContext, Component, ToolError, ToolSpec};
use browser_pilot::tools::{state_load, state_save};
use serde_json::{json, Value};

struct State;

fn specs() -> Vec<ToolSpec> {
    let origins = json!({"type": "array", "items": {"type": "string"}});
    vec![
        ToolSpec::mutating(
            "browser.state.save",
            "Save the workspace's signed-in state (the browser's cookies and the localStorage of the origins its tabs show) into a state artifact: a secret, owner-only file. Returns the artifact ID and counts, never the values.",
            &["state-save"],
        )
        .schemas(
            json!({"type": "object", "additionalProperties": false, "properties": {}}),
            json!({"type": "object", "required": ["artifactId", "cookies", "origins"], "properties": {
                "artifactId": {"type": "string"}, "bytes": {"type": "integer"},
                "cookies": {"type": "integer"}, "origins": origins.clone()}}),
        ),
        ToolSpec::mutating(
            "browser.state.load",
            "Load a saved state (a state artifact, or a bp-state file imported with artifacts/import) into the connected browser before navigating: its cookies, and each origin's localStorage. The file is checked whole first; nothing is loaded from a bad one. Into the user's own browser only with the state.load-user grant.",
            &["state-load"],
        )
        .destructive()
        .schemas(
            json!({"type": "object", "additionalProperties": false, "required": ["artifactId"], "properties": {
                "artifactId": {"type": "string", "minLength": 1}}}),
            json!({"type": "object", "required": ["cookies", "origins", "items"], "properties": {
                "cookies": {"type": "integer"}, "origins": origins, "items": {"type": "integer"}}}),
        ),
    ]
}

impl Component for State {
    fn specs() -> Vec<ToolSpec> {
        specs()
    }

    fn call(_ctx: &CallContext, name: &str, mut args: Args) -> Result<Value, ToolError> {
        match name {
            "browser.state.save" => {
                args.finish()?;
                let s = state_save::save()?;
                Ok(json!({"artifactId": s.artifact_id, "bytes": s.bytes,
                          "cookies": s.cookies, "origins": s.origins}))
            }
            "browser.state.load" => {
                let id = args.str("artifactId")?;
                args.finish()?;
                if id.is_empty() {
                    return Err(invalid("`artifactId` is required"));
                }
                let l = state_load::load(&id)?;
                Ok(json!({"cookies": l.cookies, "origins": l.origins, "items": l.items}))
            }
            other => Err(invalid(format!("unknown tool `{other}`"))),
        }
    }
}

bp_sdk::export_component!(State);
