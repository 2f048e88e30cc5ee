//! Step 4, execute: run the bound call's handler, the broker's own for a
//! native tool or the tool's component in its scope, and parse what it
//! returned. Errors carry whether the browser was touched.

use super::types::{Bound, CallScope, Failed};
use crate::broker::native;
use crate::broker::Broker;
use crate::error::{BpError, Code};
use crate::runtime::{Handler, ToolEntry};
use serde_json::{json, Value};
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::Arc;

/// Largest result a component may hand the host (the SDK's own bound,
/// `bp_sdk::MAX_RESULT_BYTES`); anything larger is refused unparsed.
const MAX_COMPONENT_RESULT: usize = 4 * 1024 * 1024;

/// Run `entry` for `scope` with `args`; the result, and whether the
/// browser was touched by a mutation.
pub(super) async fn run(
    broker: &Arc<Broker>,
    scope: &CallScope,
    entry: &ToolEntry,
    bound: &mut Bound,
    args: &Value,
    dispatched: &AtomicBool,
) -> Result<(Value, bool), Failed> {
    let name = entry.info.name.as_str();
    if entry.handler == Handler::Native {
        // A native tool touched the browser if it changed something.
        return match native::call(broker, scope, name, args).await {
            Ok(value) => Ok((value, entry.info.mutates)),
            Err(e) => Err((e, false)),
        };
    }
    let Some(call) = bound.take_call() else {
        return Err((BpError::internal("the call's scope was used twice"), false));
    };
    let result = broker
        .runtime
        .call(name, call, &scope.command_id, &args.to_string())
        .await;
    let was_dispatched = dispatched.load(Ordering::SeqCst);
    let text = result.map_err(|e| (e, was_dispatched))?;
    if text.len() > MAX_COMPONENT_RESULT {
        let e = BpError::new(
            Code::ResultTooLarge,
            format!(
                "`{name}` returned {} bytes; a tool result may hold {MAX_COMPONENT_RESULT}",
                text.len()
            ),
        )
        .with_context(
            json!({"tool": name, "bytes": text.len(), "limitBytes": MAX_COMPONENT_RESULT}),
        );
        return Err((e, was_dispatched));
    }
    let value = serde_json::from_str(&text).map_err(|e| {
        (
            BpError::internal(format!("`{name}` returned malformed JSON ({e})"))
                .with_context(json!({"tool": name, "reason": "malformed_result"})),
            was_dispatched,
        )
    })?;
    Ok((value, was_dispatched))
}
