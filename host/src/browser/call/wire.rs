//! [`Wire`]: a typed CDP command as it goes on the wire, its method name
//! taken from the command's type and its parameters serialised from it.
//! Reads sent ahead (`observe/read_ahead.rs`) and inputs raced with their
//! read (`observe/proved_read.rs`) are kept and compared in this form, so
//! one value can stand for any of the commands they take. A leaf.

use crate::error::{BpError, BpResult};
use chromiumoxide::cdp::js_protocol::runtime::{
    CallArgument, CallFunctionOnParams, EvaluateParams, RemoteObjectId,
};
use chromiumoxide::types::{Command, MethodId};
use serde_json::Value;

/// A command's method and parameters, made from a typed command.
#[derive(Debug, Clone, PartialEq)]
pub(in crate::browser) struct Wire {
    pub(in crate::browser) method: MethodId,
    pub(in crate::browser) params: Value,
}

impl Wire {
    /// `cmd` as it is sent.
    pub(in crate::browser) fn of<C: Command>(cmd: &C) -> BpResult<Self> {
        let method = cmd.identifier();
        let params = serde_json::to_value(cmd).map_err(|e| {
            BpError::internal(format!("CDP {method}: parameters not serialisable: {e}"))
        })?;
        Ok(Self { method, params })
    }

    /// Whether the browser process handles it (the `Input` domain), not
    /// the page's renderer: its reply comes once the page has handled it.
    pub(in crate::browser) fn is_input(&self) -> bool {
        // The domain prefix of the method name (a family, not one method).
        self.method.starts_with("Input.")
    }
}

/// `Runtime.callFunctionOn` of `function` with `object` as `this`.
pub(in crate::browser) fn call_function(object: &str, function: &str) -> CallFunctionOnParams {
    let mut cmd = CallFunctionOnParams::new(function);
    cmd.object_id = Some(RemoteObjectId::new(object));
    cmd
}

/// Call arguments written as JSON, `[{"value": v} | {"objectId": id}]`,
/// as typed arguments (a `null` value stays `null`).
pub(in crate::browser) fn call_args(args: &Value) -> Vec<CallArgument> {
    let list = args.as_array().map(Vec::as_slice).unwrap_or_default();
    list.iter()
        .map(|a| match a.get("objectId").and_then(Value::as_str) {
            Some(id) => CallArgument {
                value: None,
                unserializable_value: None,
                object_id: Some(RemoteObjectId::new(id)),
            },
            None => CallArgument {
                value: Some(a.get("value").cloned().unwrap_or(Value::Null)),
                unserializable_value: None,
                object_id: None,
            },
        })
        .collect()
}

/// `Runtime.evaluate` of `expression`, its value returned by value.
pub(in crate::browser) fn evaluate_by_value(expression: &str) -> EvaluateParams {
    let mut cmd = EvaluateParams::new(expression);
    cmd.return_by_value = Some(true);
    cmd
}

#[cfg(test)]
mod tests {
    use super::*;
    use chromiumoxide::cdp::browser_protocol::dom::FocusParams;
    use chromiumoxide::cdp::browser_protocol::input::InsertTextParams;

    #[test]
    fn a_wire_command_carries_the_types_method_and_only_the_fields_set() {
        let w = Wire::of(&InsertTextParams::new("hi")).unwrap();
        assert_eq!(w.method, InsertTextParams::IDENTIFIER);
        assert_eq!(w.params, serde_json::json!({"text": "hi"}));
        assert!(w.is_input());
        let focus = Wire::of(&FocusParams::default()).unwrap();
        assert!(!focus.is_input());
        assert_eq!(focus.params, serde_json::json!({}));
    }

    #[test]
    fn call_arguments_keep_values_nulls_and_objects() {
        let args = serde_json::json!([{"value": 3}, {"value": null}, {"objectId": "o1"}]);
        let mut cmd = call_function("o9", "function () {}");
        cmd.arguments = Some(call_args(&args));
        assert_eq!(
            Wire::of(&cmd).unwrap().params,
            serde_json::json!({"objectId": "o9", "functionDeclaration": "function () {}",
                               "arguments": args})
        );
    }
}
