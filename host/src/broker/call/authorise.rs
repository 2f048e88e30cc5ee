//! Step 2, authorise: the one checkpoint before any browser traffic. The
//! command is started, it belongs to the current connection generation
//! and a live lease, the tool is in the registry and left by the policy,
//! the client holds the grants its capabilities need, and a component
//! tool's arguments are an object.

use super::types::{CallScope, PendingCall};
use crate::broker::native::rows::generation_free;
use crate::broker::Broker;
use crate::error::{BpError, BpResult};
use crate::runtime::{Handler, Runtime, ToolEntry};
use serde_json::{json, Value};

/// Start the command record, then check that the call still belongs to
/// the current connection generation and its lease is live.
pub(super) fn preflight(broker: &Broker, call: &PendingCall) -> BpResult<()> {
    let scope = &call.scope;
    let native = broker
        .runtime
        .tool(&call.name)
        .is_some_and(|t| t.handler == Handler::Native);
    broker
        .state()
        .commands
        .start(&scope.workspace_id, &scope.command_id, native)?;
    // Lifecycle tools act on whatever connection there is; every other
    // command belongs to the generation it was accepted under.
    if !generation_free(&call.name) {
        scope.same_generation(broker.generation())?;
    }
    broker
        .state()
        .live_lease(&scope.principal, &scope.workspace_id, &scope.lease_id)
        .map(|_| ())
}

/// The registry row of `name`, if this caller may run it with `args`
/// (a component's `null` arguments become `{}`; a native handler reads
/// its arguments as they came).
pub(super) fn check<'r>(
    runtime: &'r Runtime,
    scope: &CallScope,
    name: &str,
    args: &mut Value,
) -> BpResult<&'r ToolEntry> {
    let entry = runtime
        .tool(name)
        .ok_or_else(|| BpError::invalid(format!("unknown tool `{name}`")))?;
    if !runtime.callable(entry) {
        return Err(runtime.denial(entry));
    }
    runtime
        .granter()
        .client(&entry.info.capabilities, scope.grants)
        .map_err(|d| d.error())?;
    if entry.handler == Handler::Native {
        return Ok(entry);
    }
    match args {
        Value::Object(_) => Ok(entry),
        Value::Null => {
            *args = json!({});
            Ok(entry)
        }
        _ => Err(BpError::invalid("`arguments` must be an object")),
    }
}
