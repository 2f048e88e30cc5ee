//! Step 5b, final state: what the command record says of a finished (or
//! refused) call, and the `command.status` event its workspace hears. A
//! mutation that reached the browser and then lost certainty is
//! `unknown_outcome`, whatever failed underneath.

use super::types::{CallScope, Outcome, PendingCall};
use crate::broker::commands::CmdState;
use crate::broker::native::rows::generation_free;
use crate::broker::Broker;
use crate::error::{BpError, Code, StaleReason};
use serde_json::{json, Value};
use std::sync::Arc;

/// Record an accepted call as failed without running it; returns the reply.
pub fn refuse(broker: &Arc<Broker>, call: PendingCall, e: BpError) -> Value {
    broker.state().commands.finish(
        &call.scope.workspace_id,
        &call.scope.command_id,
        CmdState::Failed,
        Err(e),
    )
}

/// Record the outcome of the call `name` and tell its workspace; returns
/// the reply.
pub(super) async fn record(
    broker: &Broker,
    scope: &CallScope,
    name: &str,
    mut outcome: Outcome,
) -> Value {
    // Checked again once the executor returns: a result that straddled a
    // reconnect is not returned as if it were current.
    if outcome.result.is_ok() && !generation_free(name) {
        if let Err(e) = scope.same_generation(broker.generation()) {
            outcome.result = Err(e);
        }
    }
    let mutates = broker
        .runtime
        .tool(name)
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
    let reply = st
        .commands
        .finish(&scope.workspace_id, &scope.command_id, state, result);
    let status =
        json!({"commandId": scope.command_id, "state": reply["command"]["state"], "tool": name});
    st.publish(
        &scope.workspace_id,
        "command.status",
        Some(&scope.lease_id),
        None,
        status,
    );
    reply
}

/// The command's final state. A mutation that reached the browser and
/// then failed for a reason that says nothing about its effect has an
/// unknown outcome.
fn final_state(outcome: &Outcome, mutates: bool) -> CmdState {
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
        // The tab crashing, closing or losing its session in the middle of
        // a mutation says nothing of its effect: the input may be what
        // closed it (a button that closes its window).
        Err(e) if outcome.dispatched && mutates && e.stale.is_some_and(tab_went_away) => {
            CmdState::UnknownOutcome
        }
        Err(e) if e.code == Code::CommandCancelled => CmdState::Cancelled,
        Err(e) if e.code == Code::CommandExpired => CmdState::Expired,
        Err(_) => CmdState::Failed,
    }
}

/// The stale reasons that mean the tab itself went away under a call, as
/// opposed to a ref or document that was already out of date.
fn tab_went_away(reason: StaleReason) -> bool {
    matches!(
        reason,
        StaleReason::TargetCrashed
            | StaleReason::TargetClosed
            | StaleReason::TargetDetached
            | StaleReason::SessionReplaced
    )
}

/// `unknown_outcome`, with what interrupted the command.
async fn lost_certainty(broker: &Broker, e: BpError) -> BpError {
    let cause = if broker.browser().await.is_err() {
        "browser_disconnected"
    } else if let Some(reason) = e.stale.and_then(StaleReason::as_str) {
        reason
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

#[cfg(test)]
mod tests {
    use super::*;

    fn outcome(e: BpError, dispatched: bool) -> Outcome {
        Outcome {
            result: Err(e),
            dispatched,
        }
    }

    #[test]
    fn a_dispatched_mutation_whose_tab_went_away_has_an_unknown_outcome() {
        use CmdState::{Failed, UnknownOutcome as Unknown};
        use StaleReason::*;
        let gone = BpError::stale;
        // (error, dispatched, mutates, final state)
        let rows = [
            (gone(TargetClosed), true, true, Unknown),
            (gone(SessionReplaced), true, true, Unknown),
            (gone(TargetDetached), true, true, Unknown),
            (gone(TargetCrashed), true, true, Unknown),
            (BpError::disconnected(), true, true, Unknown),
            // Refused before anything reached the page: nothing happened.
            (gone(SessionReplaced), false, true, Failed),
            (gone(TargetClosed), false, true, Failed),
            // A read changes nothing, whatever interrupted it.
            (gone(TargetClosed), true, false, Failed),
        ];
        for (e, dispatched, mutates, want) in rows {
            let what = format!("{e:?} dispatched={dispatched} mutates={mutates}");
            assert_eq!(
                final_state(&outcome(e, dispatched), mutates),
                want,
                "{what}"
            );
        }
    }
}
