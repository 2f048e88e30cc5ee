//! The form family: `browser.fill_form` fills several observed fields in
//! one call, in order: text fields typed, checkboxes and radios clicked,
//! selects chosen, range inputs moved with keys, each read back. Every
//! field is resolved and checked against its value first (a bad one
//! refuses the call with nothing changed); then it stops at the first
//! field that fails and reports each field's evidence and the failure.
//! It types, clicks and chooses through the `input` and `page-select`
//! capabilities, as the input and select families do.

wit_bindgen::generate!({
    world: "form",
    path: "../../tools-wit",
    with: { "browser-pilot:tools/types@0.1.0": bp_sdk::types },
});

mod fill;
mod plan;
mod report;

use bp_sdk::pace::{self, SETTLE_MS};
use bp_sdk::spec::{target_id_schema, with_common};
use bp_sdk::types::SettleMode;
use bp_sdk::{invalid, Args, CallContext, Component, ToolError, ToolSpec};
use browser_pilot::tools::input as host_input;
use serde_json::{json, Map, Value};

struct Form;

fn spec() -> ToolSpec {
    let mut out = Map::new();
    out.insert("completed".into(), json!({"type": "boolean"}));
    out.insert("filled".into(), json!({"type": "integer"}));
    out.insert(
        "fields".into(),
        json!({"type": "array", "items": {"type": "object"}}),
    );
    out.insert("failed".into(), json!({"type": "object"}));
    out.insert("evidence".into(), json!({"type": "object"}));
    ToolSpec::mutating(
        "browser.fill_form",
        "Fill several observed form fields in order: text fields (string), checkboxes and radios (true/false), selects (option label, or a list for a multiple select), range inputs (number). Every field is checked first; filling stops at the first field that fails. Each field is waited for to be ready (up to `waitMs`); the call settles once after the last (`settle`). Returns each field's evidence read back, and the failed field with its code.",
        &["page-read", "input", "page-select"],
    )
    .schemas(
        json!({
            "type": "object",
            "additionalProperties": false,
            "required": ["observationId", "fields"],
            "properties": {
                "targetId": target_id_schema(),
                "observationId": {"type": "string"},
                "fields": {"type": "array", "minItems": 1, "maxItems": plan::MAX_FIELDS, "items": {
                    "type": "object", "additionalProperties": false, "required": ["ref", "value"],
                    "properties": {
                        "ref": {"type": "integer", "minimum": 1},
                        "value": {"type": ["string", "boolean", "number", "array"], "x-browser-pilot-sensitivity": ["browser_data", "credential"]}
                    }
                }},
                "waitMs": pace::wait_schema(),
                "settle": pace::settle_schema()
            }
        }),
        json!({"type": "object", "required": ["completed", "filled", "fields", "evidence"], "properties": Value::Object(with_common(out))}),
    )
    .sensitivity(&["browser_data", "credential"], &[])
}

impl Component for Form {
    fn specs() -> Vec<ToolSpec> {
        vec![spec()]
    }

    fn call(_ctx: &CallContext, name: &str, mut args: Args) -> Result<Value, ToolError> {
        if name != "browser.fill_form" {
            return Err(invalid(format!("unknown tool `{name}`")));
        }
        args.allow(&["targetId"]);
        let observation = args.str("observationId")?;
        let fields = match args.opt_value("fields") {
            Some(Value::Array(f)) => f,
            Some(_) => return Err(invalid("`fields` must be a list of {ref, value}")),
            None => return Err(invalid("`fields` is required")),
        };
        let wait = pace::wait_arg(&mut args)?;
        let settle = pace::settle_arg(&mut args)?;
        args.finish()?;
        let planned = plan::plan(&observation, &fields)?;
        // Armed once for the whole fill: what any field started.
        if settle != SettleMode::None {
            host_input::settle_arm(settle)?;
        }
        let mut done = Vec::new();
        let mut out = None;
        for (index, field) in planned.iter().enumerate() {
            match fill::fill(&observation, field, wait) {
                Ok(evidence) => done.push(evidence),
                Err(failure) => {
                    out = Some(report::failed(
                        std::mem::take(&mut done),
                        index,
                        field,
                        failure,
                    ));
                    break;
                }
            }
        }
        let mut out = out.unwrap_or_else(|| report::completed(done));
        if settle != SettleMode::None {
            out["evidence"]["settle"] = pace::report(host_input::settle(SETTLE_MS)?);
        }
        Ok(out)
    }
}

bp_sdk::export_component!(Form);
