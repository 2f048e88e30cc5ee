//! Step 1, decode: a `tools/call` request becomes a recorded command (or
//! the recorded reply of a duplicate) as soon as it arrives. Nothing is
//! judged here but the request's own shape; the arguments travel as sent.

use super::types::{CallScope, Intake, PendingCall};
use crate::broker::commands::{Accepted, Request};
use crate::broker::rpc::params::{opt_str, str_param, CLI_PRINCIPAL};
use crate::broker::Broker;
use crate::error::{BpError, BpResult};
use crate::ids::{LeaseId, WorkspaceId};
use serde_json::Value;
use std::sync::Arc;
use std::time::{Duration, Instant};

/// Longest relative deadline a caller may ask for.
const MAX_DEADLINE_MS: u64 = 10 * 60 * 1000;

/// Record a `tools/call`.
pub fn accept(
    broker: &Arc<Broker>,
    principal: &str,
    grants: crate::browser::caller::Grants,
    session: Option<&(WorkspaceId, LeaseId)>,
    params: &Value,
) -> BpResult<Intake> {
    let name = str_param(params, "name")?.to_string();
    // With neither ID, the connection's session (from `initialize`).
    let (ws, lease) = match (params.get("workspaceId"), params.get("leaseId"), session) {
        (None, None, Some((ws, lease))) => (ws.clone(), lease.clone()),
        _ => (
            WorkspaceId::new(str_param(params, "workspaceId")?),
            LeaseId::new(str_param(params, "leaseId")?),
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
                compat: crate::broker::connect::identity::client_name(principal) == CLI_PRINCIPAL,
                grants,
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
