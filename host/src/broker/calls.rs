//! `tools/call` in two halves: `accept` records the command (or answers a
//! duplicate) as soon as the request arrives; `execute` runs it in the
//! connection's order, refusing it if it was cancelled or expired first.

use super::commands::{Accepted, CancelSignal, CmdState, Request};
use super::dispatch::{self, CallScope};
use super::rpc::{opt_str, str_param, CLI_PRINCIPAL};
use super::Broker;
use crate::error::{BpError, BpResult, Code};
use serde_json::{json, Value};
use std::sync::atomic::AtomicBool;
use std::sync::Arc;
use std::time::{Duration, Instant};

/// Longest relative deadline a caller may ask for.
const MAX_DEADLINE_MS: u64 = 10 * 60 * 1000;

/// A call accepted and waiting for its turn.
pub struct PendingCall {
    scope: CallScope,
    name: String,
    args: Value,
    dispatched: Arc<AtomicBool>,
    cancel: Arc<CancelSignal>,
    deadline: Option<Instant>,
    overtakes: bool,
}

impl PendingCall {
    /// Whether it runs beside the connection's ordered calls.
    pub fn overtakes(&self) -> bool {
        self.overtakes
    }
}

/// Either an immediate reply (duplicate, bad request) or a call to run.
pub enum Intake {
    Reply(Value),
    Run(Box<PendingCall>),
}

/// Record a `tools/call`.
pub fn accept(
    broker: &Arc<Broker>,
    principal: &str,
    eval_granted: bool,
    session: Option<&(String, String)>,
    params: &Value,
) -> BpResult<Intake> {
    let name = str_param(params, "name")?.to_string();
    // With neither ID, the connection's session (from `initialize`).
    let (ws, lease) = match (params.get("workspaceId"), params.get("leaseId"), session) {
        (None, None, Some((ws, lease))) => (ws.clone(), lease.clone()),
        _ => (
            str_param(params, "workspaceId")?.to_string(),
            str_param(params, "leaseId")?.to_string(),
        ),
    };
    let deadline = match params.get("deadlineMs") {
        None | Some(Value::Null) => None,
        Some(v) => {
            let ms = v
                .as_u64()
                .filter(|ms| *ms >= 1 && *ms <= MAX_DEADLINE_MS)
                .ok_or_else(|| {
                    BpError::invalid(format!("`deadlineMs` must be 1..={MAX_DEADLINE_MS}"))
                })?;
            Some(Instant::now() + Duration::from_millis(ms))
        }
    };
    let mut st = broker.state();
    st.workspace(principal, &ws)?;
    let accepted = st.commands.accept(Request {
        principal,
        workspace_id: &ws,
        command_id: opt_str(params, "commandId"),
        idempotency_key: opt_str(params, "idempotencyKey"),
        tool: &name,
        deadline,
    })?;
    Ok(match accepted {
        Accepted::Duplicate(reply) => Intake::Reply(reply),
        Accepted::New {
            id,
            dispatched,
            cancel,
        } => Intake::Run(Box::new(PendingCall {
            overtakes: broker.runtime.overtakes(&name),
            scope: CallScope {
                principal: principal.to_string(),
                workspace_id: ws,
                lease_id: lease,
                compat: super::identity::client_name(principal) == CLI_PRINCIPAL,
                eval_granted,
                command_id: id,
                generation: broker.generation(),
            },
            name,
            args: params.get("arguments").cloned().unwrap_or(Value::Null),
            dispatched,
            cancel,
            deadline,
        })),
    })
}

/// Record an accepted call as failed without running it; returns the reply.
pub fn refuse(broker: &Arc<Broker>, call: PendingCall, e: BpError) -> Value {
    broker.state().commands.finish(
        &call.scope.workspace_id,
        &call.scope.command_id,
        CmdState::Failed,
        Err(e),
    )
}

/// Run an accepted call and record its outcome; returns the reply.
pub async fn execute(broker: &Arc<Broker>, mut call: PendingCall) -> Value {
    let mut outcome = match preflight(broker, &call) {
        Err(e) => dispatch::Outcome {
            result: Err(e),
            dispatched: false,
        },
        Ok(()) => {
            let args = std::mem::take(&mut call.args);
            run_until_deadline(broker, &call, args).await
        }
    };
    // Checked again once the executor returns: a result that straddled a
    // reconnect is not returned as if it were current.
    if outcome.result.is_ok() && !super::native::generation_free(&call.name) {
        if let Err(e) = dispatch::same_generation(&call.scope, broker.generation()) {
            outcome.result = Err(e);
        }
    }
    let mutates = broker
        .runtime
        .tool(&call.name)
        .map(|t| t.info.mutates)
        .unwrap_or(true);
    let state = final_state(&outcome, mutates);
    // Lost certainty is reported as such, whatever failed underneath.
    let result = match outcome.result {
        Err(e) if state == CmdState::UnknownOutcome && e.code != Code::UnknownOutcome => {
            Err(lost_certainty(broker, e).await)
        }
        other => other,
    };
    let mut st = broker.state();
    let scope = &call.scope;
    let reply = st
        .commands
        .finish(&scope.workspace_id, &scope.command_id, state, result);
    let status = json!({"commandId": scope.command_id, "state": reply["command"]["state"], "tool": call.name});
    st.publish(
        &scope.workspace_id,
        "command.status",
        Some(&scope.lease_id),
        None,
        status,
    );
    reply
}

/// Start the command record, then check that the call still belongs to
/// the current connection generation and its lease is live.
fn preflight(broker: &Broker, call: &PendingCall) -> BpResult<()> {
    let scope = &call.scope;
    let native = super::native::is_native(&call.name);
    broker
        .state()
        .commands
        .start(&scope.workspace_id, &scope.command_id, native)?;
    // Lifecycle tools act on whatever connection there is; every other
    // command belongs to the generation it was accepted under.
    if !super::native::generation_free(&call.name) {
        dispatch::same_generation(scope, broker.generation())?;
    }
    broker
        .state()
        .live_lease(&scope.principal, &scope.workspace_id, &scope.lease_id)
        .map(|_| ())
}

/// Dispatch the call, bounded by its deadline and, for a cooperative
/// tool, by a cancel: either drops the run at its current wait.
async fn run_until_deadline(
    broker: &Arc<Broker>,
    call: &PendingCall,
    args: Value,
) -> dispatch::Outcome {
    let run = dispatch::run(
        broker,
        &call.scope,
        &call.name,
        args,
        call.dispatched.clone(),
    );
    let deadline = async {
        match call.deadline {
            Some(d) => tokio::time::sleep_until(d.into()).await,
            None => std::future::pending().await,
        }
    };
    let cancelled = async {
        if broker.runtime.cooperative(&call.name) {
            call.cancel.requested().await;
        } else {
            std::future::pending::<()>().await;
        }
    };
    let stopped = tokio::select! {
        outcome = run => return outcome,
        () = deadline => BpError::new(Code::CommandExpired, "the deadline passed"),
        () = cancelled => BpError::new(
            Code::CommandCancelled,
            "cancelled while it ran; the tool stopped at its current wait",
        ),
    };
    // A tab being created when the run was dropped is finished (and
    // adopted) or abandoned before the reply says what happened.
    drop(broker.creation.lock().await);
    dispatch::Outcome {
        result: Err(stopped),
        dispatched: call.dispatched.load(std::sync::atomic::Ordering::SeqCst),
    }
}

/// The command's final state. A mutation that reached the browser and
/// then failed for a reason that says nothing about its effect has an
/// unknown outcome.
fn final_state(outcome: &dispatch::Outcome, mutates: bool) -> CmdState {
    match &outcome.result {
        Ok(_) => CmdState::Completed,
        Err(e) if e.code == Code::UnknownOutcome => CmdState::UnknownOutcome,
        Err(e)
            if outcome.dispatched
                && mutates
                && matches!(
                    e.code,
                    Code::InternalError
                        | Code::CommandExpired
                        | Code::CommandCancelled
                        | Code::BrowserDisconnected
                ) =>
        {
            CmdState::UnknownOutcome
        }
        // A crash in the middle of a mutation says nothing of its effect.
        Err(e)
            if outcome.dispatched
                && mutates
                && e.stale == Some(crate::error::StaleReason::TargetCrashed) =>
        {
            CmdState::UnknownOutcome
        }
        Err(e) if e.code == Code::CommandCancelled => CmdState::Cancelled,
        Err(e) if e.code == Code::CommandExpired => CmdState::Expired,
        Err(_) => CmdState::Failed,
    }
}

/// `unknown_outcome`, with what interrupted the command.
async fn lost_certainty(broker: &Broker, e: BpError) -> BpError {
    let cause = if broker.browser().await.is_err() {
        "browser_disconnected"
    } else if e.stale == Some(crate::error::StaleReason::TargetCrashed) {
        "target_crashed"
    } else {
        e.code.as_str()
    };
    BpError::new(
        Code::UnknownOutcome,
        format!(
            "the command reached the browser, then certainty was lost ({}); observe before deciding what remains",
            e.message
        ),
    )
    .with_context(json!({"interruption": cause}))
}
