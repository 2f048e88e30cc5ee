//! `tools/call`, one way through: decode → authorise → resolve scope →
//! execute → finish → final state. Each step has its own file and calls
//! only lower layers (`types.rs`, the broker's state, the runtime); this
//! file alone runs them in order, so none of them calls back up.
//!
//! - `decode.rs`: the request becomes a recorded command (`accept`).
//! - `authorise.rs`: started, same generation, live lease, tool in the
//!   registry and left by the policy, grants held, arguments an object.
//! - `scope.rs` (`scope_target.rs`, `scope_workspace.rs`): what the call
//!   acts on, from its registry row.
//! - `execute.rs`: the native handler or the component.
//! - `finish.rs`: the fields the broker adds to the result.
//! - `record.rs`: the command's final state and its event.

mod authorise;
mod decode;
mod downloads;
mod execute;
mod finish;
mod record;
mod scope;
mod scope_target;
mod scope_workspace;
pub mod types;

pub use decode::accept;
pub use record::refuse;
pub use types::{CallScope, Intake, Outcome, PendingCall};

use crate::broker::Broker;
use crate::error::{BpError, BpResult, Code};
use serde_json::Value;
use std::future::Future;
use std::pin::Pin;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::Arc;

/// Run an accepted call and record its outcome; returns the reply.
pub async fn execute(broker: &Arc<Broker>, mut call: PendingCall) -> Value {
    let outcome = match authorise::preflight(broker, &call) {
        Err(e) => Outcome {
            result: Err(e),
            dispatched: false,
        },
        Ok(()) => {
            let args = std::mem::take(&mut call.args);
            run_until_deadline(broker, &call, args).await
        }
    };
    record::record(broker, &call.scope, &call.name, outcome).await
}

/// Run the call, bounded by its deadline and, for a cooperative tool, by
/// a cancel: either drops the run at its current wait.
async fn run_until_deadline(broker: &Arc<Broker>, call: &PendingCall, args: Value) -> Outcome {
    let run = run(
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
    Outcome {
        result: Err(stopped),
        dispatched: call.dispatched.load(Ordering::SeqCst),
    }
}

/// The steps from authorise to finish for one call. `dispatched` is set
/// immediately before the first browser mutation.
async fn run(
    broker: &Arc<Broker>,
    scope: &CallScope,
    name: &str,
    args: Value,
    dispatched: Arc<AtomicBool>,
) -> Outcome {
    match steps(broker, scope, name, args, &dispatched).await {
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

async fn steps(
    broker: &Arc<Broker>,
    scope: &CallScope,
    name: &str,
    mut args: Value,
    dispatched: &Arc<AtomicBool>,
) -> Result<(Value, bool), types::Failed> {
    let entry = authorise::check(&broker.runtime, scope, name, &mut args).map_err(types::fail)?;
    let mut bound = scope::resolve(broker, scope, entry, &mut args, dispatched, nested).await?;
    let before = downloads::Before::take(broker, scope, &bound);
    let ran = execute::run(broker, scope, entry, &mut bound, &args, dispatched).await;
    let (mut value, sent) = finish::complete(broker, scope, name, &bound, ran)?;
    if let Some(before) = before {
        before.attach(broker, scope, name, &bound, &mut value).await;
    }
    Ok((value, sent))
}

/// A component tool run from inside another call (no command record of
/// its own; a fresh `dispatched`): the tab host's [`types::NestedCall`].
fn nested(
    broker: Arc<Broker>,
    scope: CallScope,
    name: &'static str,
    args: Value,
) -> Pin<Box<dyn Future<Output = BpResult<Value>> + Send>> {
    Box::pin(async move {
        let dispatched = Arc::new(AtomicBool::new(false));
        steps(&broker, &scope, name, args, &dispatched)
            .await
            .map(|(v, _)| v)
            .map_err(|(e, _)| e)
    })
}
