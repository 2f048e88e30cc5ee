//! The page side of `page-select`: one step of `select.js`, run on the
//! widget's node, with its argument as a JSON literal.

use crate::error::BpResult;
use crate::tab::Tab;
use serde_json::Value;

/// The page-side steps, one function of `(op, arg)` bound to the widget.
const SCRIPT: &str = include_str!("select.js");

/// Run step `op` of the page-side script on `node` with `arg`.
pub async fn run(tab: &mut Tab<'_>, node: u32, op: &str, arg: &Value) -> BpResult<Value> {
    let op = Value::String(op.to_string());
    let function = format!("function () {{ return ({SCRIPT}).call(this, {op}, {arg}); }}");
    tab.call_on(node, &function).await
}
