//! Unit tests of `script`: the command as the string call sent it, and
//! the reading of its reply.

use super::run::{evaluate_params, value_of};
use crate::error::Code;
use serde_json::json;

#[test]
fn the_evaluation_goes_out_as_the_string_call_sent_it() {
    let sent = serde_json::to_value(evaluate_params("1 + 1")).ok();
    assert_eq!(
        sent,
        Some(json!({"expression": "1 + 1", "returnByValue": true,
                    "awaitPromise": true, "userGesture": true}))
    );
}

#[test]
fn a_value_comes_back_as_json_text_and_undefined_as_null() {
    let v = value_of(&json!({"result": {"type": "object", "value": {"a": [1]}}}));
    assert_eq!(v.ok().as_deref(), Some(r#"{"a":[1]}"#));
    let undefined = value_of(&json!({"result": {"type": "undefined"}}));
    assert_eq!(undefined.ok().as_deref(), Some("null"));
}

#[test]
fn an_exception_is_refused_without_its_page_text() {
    let reply = json!({"result": {}, "exceptionDetails": {"text": "secret page words"}});
    let err = value_of(&reply).err();
    assert_eq!(err.as_ref().map(|e| e.code), Some(Code::InvalidArgument));
    assert!(err.is_some_and(|e| !e.message.contains("secret")));
}
