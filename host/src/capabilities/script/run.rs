//! Evaluating a script in the tab's main frame: as a user gesture, its
//! promise awaited, its value returned as JSON text. An exception is
//! `invalid_argument` and its text (page data) is kept out of the error.

use crate::error::{BpError, BpResult, Code};
use crate::tab::Tab;
use chromiumoxide::cdp::js_protocol::runtime::EvaluateParams;
use serde_json::Value;

/// The command that evaluates `expression` as the tool asks.
pub(super) fn evaluate_params(expression: &str) -> EvaluateParams {
    let mut eval = EvaluateParams::new(expression);
    eval.return_by_value = Some(true);
    eval.await_promise = Some(true);
    eval.user_gesture = Some(true);
    eval
}

/// The value of an evaluation's reply, as JSON text.
pub(super) fn value_of(reply: &Value) -> BpResult<String> {
    if reply.get("exceptionDetails").is_some() {
        // The exception text is page data: keep it out of the error.
        return Err(BpError::new(
            Code::InvalidArgument,
            "the expression threw an exception",
        ));
    }
    Ok(reply["result"]
        .get("value")
        .cloned()
        .unwrap_or(Value::Null)
        .to_string())
}

pub(super) async fn evaluate(tab: &mut Tab<'_>, expression: &str) -> BpResult<String> {
    tab.check()?;
    tab.dispatching();
    // The result is a remote object, page data: read as JSON.
    let reply = tab.send_raw(&evaluate_params(expression)).await?;
    value_of(&reply)
}
