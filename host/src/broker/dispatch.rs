//! `tools/call`: authorise, pick the target, serialise on its lane, run the
//! tool (native or component) and add the common result fields.

use super::state::State;
use super::Broker;
use crate::error::{BpError, BpResult, Code, StaleReason};
use crate::runtime::capability::{self, Reach};
use crate::runtime::Scope;
use serde_json::{json, Value};
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::Arc;

/// Who is calling, already authorised.
#[derive(Clone)]
pub struct CallScope {
    pub principal: String,
    pub workspace_id: String,
    pub lease_id: String,
    /// The one-shot CLI's compatibility principal: bare refs resolve
    /// against the latest observation of the target.
    pub compat: bool,
    /// The connection was granted `developer.eval`.
    pub eval_granted: bool,
    pub command_id: String,
    /// The browser connection generation when the command was accepted: a
    /// command never reaches a later generation.
    pub generation: u64,
}

impl CallScope {
    /// Whether the client was granted `grant` at initialize.
    pub fn granted(&self, grant: &str) -> bool {
        match grant {
            "developer.eval" => self.eval_granted,
            _ => false,
        }
    }
}

/// Refuse a command accepted under an earlier connection generation.
pub fn same_generation(scope: &CallScope, current: u64) -> BpResult<()> {
    if scope.generation == current {
        return Ok(());
    }
    Err(BpError::new(
        Code::BrowserDisconnected,
        "the browser was reconnected after this command was accepted; it was not run",
    )
    .with_context(json!({"acceptedGeneration": scope.generation, "generation": current})))
}

/// The outcome of one call: result or error, and whether the browser was
/// touched by a mutation before it ended.
pub struct Outcome {
    pub result: BpResult<Value>,
    pub dispatched: bool,
}

/// The raw target behind a public ID of the caller's workspace.
pub fn raw_target(st: &mut State, scope: &CallScope, public: &str) -> BpResult<String> {
    let raw = st
        .workspace(&scope.principal, &scope.workspace_id)?
        .targets
        .get(public)
        .cloned()
        .filter(|raw| !st.managed_elsewhere(raw, &scope.workspace_id));
    raw.ok_or_else(|| {
        BpError::new(
            Code::TargetNotOwned,
            "no such target in this workspace; list tabs again",
        )
    })
}

/// A ref into an observation of an earlier connection generation:
/// `stale_ref` (`browser_reconnected`), whatever target it named.
pub(super) fn retired_ref(broker: &Broker, scope: &CallScope, args: &Value) -> Option<BpError> {
    let retired = match args.get("observationId").and_then(Value::as_str) {
        Some(id) => broker.observations.is_retired(id),
        // The CLI's bare refs mean the latest observation of the current
        // tab; a reconnect took both away.
        None => {
            scope.compat
                && args.get("ref").is_some()
                && args.get("targetId").is_none()
                && broker.observations.workspace_retired(&scope.workspace_id)
                && broker
                    .state()
                    .workspaces
                    .get(&scope.workspace_id)
                    .is_some_and(|w| w.current_target.is_none())
        }
    };
    retired.then(|| BpError::stale(StaleReason::BrowserReconnected))
}

/// Run a tool for an authorised caller. `dispatched` is set immediately
/// before the first browser mutation.
pub async fn run(
    broker: &Arc<Broker>,
    scope: &CallScope,
    name: &str,
    args: Value,
    dispatched: Arc<AtomicBool>,
) -> Outcome {
    if !broker.runtime.tool_allowed(name) {
        return Outcome {
            result: Err(crate::runtime::Runtime::removal(name)),
            dispatched: false,
        };
    }
    if super::native::is_native(name) {
        let result = super::native::call(broker, scope, name, &args).await;
        let touched = result.is_ok() && broker.runtime_native_mutates(name);
        return Outcome {
            result,
            dispatched: touched,
        };
    }
    match run_component_inner(broker, scope, name, args, dispatched).await {
        Ok((value, dispatched)) => Outcome {
            result: Ok(value),
            dispatched,
        },
        Err((e, dispatched)) => Outcome {
            result: Err(e),
            dispatched,
        },
    }
}

/// The checkpoint before any browser traffic: the tool exists and the
/// policy leaves it in place, the client holds the grants its
/// capabilities need, and the arguments are an object.
fn authorise(broker: &Broker, scope: &CallScope, name: &str, args: &mut Value) -> BpResult<()> {
    let entry = broker
        .runtime
        .tool(name)
        .ok_or_else(|| BpError::invalid(format!("unknown tool `{name}`")))?;
    if !broker.runtime.callable(entry) {
        return Err(broker.runtime.denial(entry));
    }
    for grant in capability::grants(&entry.info.capabilities) {
        if !scope.granted(grant) {
            return Err(BpError::new(
                Code::CapabilityDenied,
                format!("`{grant}` was not granted to this client; request it at initialize"),
            ));
        }
    }
    match args {
        Value::Object(_) => Ok(()),
        Value::Null => {
            *args = json!({});
            Ok(())
        }
        _ => Err(BpError::invalid("`arguments` must be an object")),
    }
}

/// Run a component tool (also used by native tools that compose one).
pub async fn run_component(
    broker: &Arc<Broker>,
    scope: &CallScope,
    name: &str,
    args: Value,
) -> BpResult<Value> {
    run_component_inner(broker, scope, name, args, Arc::new(AtomicBool::new(false)))
        .await
        .map(|(v, _)| v)
        .map_err(|(e, _)| e)
}

async fn run_component_inner(
    broker: &Arc<Broker>,
    scope: &CallScope,
    name: &str,
    mut args: Value,
    dispatched: Arc<AtomicBool>,
) -> Result<(Value, bool), (BpError, bool)> {
    let fail = |e: BpError| (e, false);
    authorise(broker, scope, name, &mut args).map_err(fail)?;
    let conn = broker.browser().await.map_err(fail)?;
    same_generation(scope, conn.generation).map_err(fail)?;
    let reach = broker.runtime.tool(name).map_or(Reach::Target, |t| {
        capability::reach_of(&t.info.capabilities)
    });
    match reach {
        Reach::Target => {
            super::target_tools::run(broker, scope, name, args, dispatched, &conn).await
        }
        Reach::Workspace | Reach::Browser => {
            super::scopes::run_workspace_tool(broker, scope, name, &args, dispatched, &conn).await
        }
    }
}

/// Run the component tool in `scope` and parse its JSON result; errors
/// carry whether the browser was touched.
pub(super) async fn call_component(
    broker: &Broker,
    scope: &CallScope,
    name: &str,
    args: &Value,
    call_scope: Scope,
    dispatched: &AtomicBool,
) -> Result<(Value, bool), (BpError, bool)> {
    let result = broker
        .runtime
        .call(name, call_scope, &scope.command_id, &args.to_string())
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

/// Largest result a component may hand the host (the SDK's own bound,
/// `bp_sdk::MAX_RESULT_BYTES`); anything larger is refused unparsed.
const MAX_COMPONENT_RESULT: usize = 4 * 1024 * 1024;
