//! The eval family: `browser.eval`, JavaScript in the page. Only offered to
//! clients granted `developer.eval`, and only when the policy links `script`.

wit_bindgen::generate!({
    world: "eval",
    path: "../../tools-wit",
    with: { "browser-pilot:tools/types@0.1.0": bp_sdk::types },
});

use bp_sdk::spec::{target_id_schema, with_common};
use bp_sdk::{invalid, Args, CallContext, Component, ToolError, ToolSpec};
use browser_pilot::tools::script;
use serde_json::{json, Map, Value};

const MAX_EXPRESSION: usize = 100_000;

struct Eval;

impl Component for Eval {
    fn specs() -> Vec<ToolSpec> {
        let mut props = Map::new();
        props.insert(
            "value".into(),
            json!({"x-browser-pilot-sensitivity": ["browser_data", "credential"]}),
        );
        vec![ToolSpec::mutating("browser.eval", "Evaluate a JavaScript expression in the target (developer.eval).", &["script"])
            .schemas(
                json!({"type": "object", "additionalProperties": false, "required": ["expression"], "properties": {
                    "targetId": target_id_schema(),
                    "expression": {"type": "string", "minLength": 1, "maxLength": MAX_EXPRESSION, "x-browser-pilot-sensitivity": ["credential"]}}}),
                json!({"type": "object", "required": ["value"], "properties": Value::Object(with_common(props))}),
            )
            .sensitivity(&["credential"], &["browser_data", "credential"])]
    }

    fn call(_ctx: &CallContext, name: &str, mut args: Args) -> Result<Value, ToolError> {
        if name != "browser.eval" {
            return Err(invalid(format!("unknown tool `{name}`")));
        }
        args.allow(&["targetId"]);
        let expression = args.str("expression")?;
        args.finish()?;
        if expression.trim().is_empty() || expression.len() > MAX_EXPRESSION {
            return Err(invalid(format!(
                "`expression` must be 1 to {MAX_EXPRESSION} characters"
            )));
        }
        let text = script::evaluate(&expression)?;
        let value: Value = serde_json::from_str(&text).unwrap_or(Value::Null);
        Ok(json!({"value": value}))
    }
}

bp_sdk::export_component!(Eval);
