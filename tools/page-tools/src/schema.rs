//! A call's input against the schema the page declared, checked with the
//! `jsonschema` crate before anything reaches the page. A schema that is
//! not valid JSON Schema refuses every call (the page's tool cannot be
//! called safely), with a message that quotes nothing the page wrote.

use bp_sdk::{invalid, ToolError};
use serde_json::Value;

/// Most problems named in one refusal.
const MAX_PROBLEMS: usize = 5;
/// Longest description of one problem.
const MAX_PROBLEM: usize = 200;

/// Check `input` against the declared schema (JSON text; `{}` when none).
pub fn check(schema_text: &str, input: &Value) -> Result<(), ToolError> {
    let schema: Value = serde_json::from_str(schema_text)
        .map_err(|_| invalid("the page declared an input schema that is not JSON; the tool cannot be called"))?;
    let validator = jsonschema::validator_for(&schema)
        .map_err(|_| invalid("the page declared an input schema that is not a valid JSON Schema; the tool cannot be called"))?;
    let problems: Vec<String> = validator
        .iter_errors(input)
        .take(MAX_PROBLEMS)
        .map(|e| crate::bounds::text(&e.to_string(), MAX_PROBLEM).0)
        .collect();
    if problems.is_empty() {
        return Ok(());
    }
    Err(invalid(format!(
        "the input does not match the tool's declared schema: {}",
        problems.join("; ")
    )))
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    #[test]
    fn violations_are_refused_and_matches_pass() {
        let schema = r#"{"type":"object","required":["qty"],"properties":{"qty":{"type":"integer","minimum":1}}}"#;
        assert!(check(schema, &json!({"qty": 2})).is_ok());
        let err = check(schema, &json!({"qty": "two"}));
        assert!(matches!(err, Err(ToolError::InvalidArgument(m)) if m.contains("declared schema")));
        assert!(check(schema, &json!({})).is_err());
        assert!(check("{}", &json!({"anything": 1})).is_ok());
        assert!(check("not json", &json!({})).is_err());
    }
}
