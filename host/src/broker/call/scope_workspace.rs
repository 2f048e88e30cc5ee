//! The workspace scope: the calling workspace as one call sees it. Any
//! lease of a workspace may run workspace tools, even one that controls no
//! tab, and they work with no tab open. A target call gets this view too,
//! for its workspace.

use super::types::{fail, raw_target, Bound, CallScope, Failed, NestedCall};
use crate::broker::native::tabs::BrokerTabs;
use crate::broker::Broker;
use crate::browser::call::{Caller, LeaseGuard};
use crate::browser::connection::BrowserConn;
use crate::browser::workspace::{WorkspaceCall, WorkspaceSetup};
use crate::error::BpError;
use crate::ids::{LeaseId, RawTargetId, TabId};
use crate::runtime::Scope;
use serde_json::Value;
use std::sync::atomic::AtomicBool;
use std::sync::Arc;

/// A workspace tool's scope: no target is selected or taken.
pub(super) fn bind(
    broker: &Arc<Broker>,
    scope: &CallScope,
    args: &Value,
    dispatched: &Arc<AtomicBool>,
    conn: Arc<BrowserConn>,
    nested: NestedCall,
) -> Result<Bound, Failed> {
    broker
        .state()
        .commands
        .start(&scope.workspace_id, &scope.command_id, true)
        .map_err(fail)?;
    let current = named_tab(broker, scope, args);
    let call = workspace_call(broker, scope, &conn, current, dispatched, nested);
    Ok(Bound::Workspace {
        conn,
        call: Some(Scope::Workspace(Box::new(call))),
    })
}

/// The calling workspace as one call sees it. `current` is the tab "this
/// tab only" filters name (never taken here).
pub(super) fn workspace_call(
    broker: &Arc<Broker>,
    scope: &CallScope,
    conn: &BrowserConn,
    current: Result<Option<(RawTargetId, TabId)>, BpError>,
    dispatched: &Arc<AtomicBool>,
    nested: NestedCall,
) -> WorkspaceCall {
    let guard_broker = broker.clone();
    let guard_scope = scope.clone();
    let lease_guard: LeaseGuard = Arc::new(move || {
        guard_broker
            .state()
            .live_lease(
                &guard_scope.principal,
                &guard_scope.workspace_id,
                &guard_scope.lease_id,
            )
            .map(|_| ())
    });
    let tabs = BrokerTabs {
        broker: broker.clone(),
        scope: scope.clone(),
        dispatched: dispatched.clone(),
        nested,
    };
    WorkspaceCall::new(WorkspaceSetup {
        cdp: conn.cdp.clone(),
        registry: conn.registry.clone(),
        artifacts: broker.artifacts.clone(),
        network: broker.network.clone(),
        console: broker.console.clone(),
        caller: Caller {
            workspace_id: scope.workspace_id.to_string(),
            lease_id: scope.lease_id.to_string(),
            page_tools: scope.page_tool_access(broker),
        },
        controlled: controlled_targets(broker, scope)
            .into_iter()
            .map(|(raw, public)| (raw.into_string(), public.into_string()))
            .collect(),
        current: current.map(|c| c.map(|(raw, public)| (raw.into_string(), public.into_string()))),
        tabs: Arc::new(tabs),
        generation: conn.generation,
        current_generation: broker.generation_handle(),
        lease_guard,
        dispatched: dispatched.clone(),
        launched: conn.launched.is_some(),
        state_load_refusal: crate::granter::Granter::state_load(
            conn.launched.is_some(),
            scope.grants,
        )
        .err()
        .map(|d| d.error()),
    })
}

/// The tab a workspace tool's "this tab" filters name: the `targetId`
/// argument (checked to be the workspace's, never taken), else the
/// workspace's current tab if it still maps to one.
fn named_tab(
    broker: &Broker,
    scope: &CallScope,
    args: &Value,
) -> Result<Option<(RawTargetId, TabId)>, BpError> {
    let mut st = broker.state();
    let public = match args.get("targetId") {
        Some(Value::String(s)) => TabId::new(s.as_str()),
        None | Some(Value::Null) => {
            let current = st
                .workspace(&scope.principal, &scope.workspace_id)?
                .current_target
                .clone();
            let Some(public) = current else {
                return Ok(None);
            };
            return Ok(raw_target(&mut st, scope, &public)
                .ok()
                .map(|raw| (raw, public)));
        }
        Some(_) => return Err(BpError::invalid("`targetId` must be a string")),
    };
    let raw = raw_target(&mut st, scope, &public)?;
    Ok(Some((raw, public)))
}

/// Targets controlled by leases of the caller's workspace: (raw, public ID).
fn controlled_targets(broker: &Broker, scope: &CallScope) -> Vec<(RawTargetId, TabId)> {
    let mut st = broker.state();
    let leases: Vec<LeaseId> = st
        .leases
        .values()
        .filter(|l| l.workspace_id == scope.workspace_id)
        .map(|l| l.id.clone())
        .collect();
    let raws: Vec<RawTargetId> = st
        .controllers
        .iter()
        .filter(|(_, l)| leases.contains(l))
        .map(|(r, _)| r.clone())
        .collect();
    match st.workspace(&scope.principal, &scope.workspace_id) {
        Ok(ws) => raws
            .into_iter()
            .map(|r| {
                let public = ws.public_id(&r);
                (r, public)
            })
            .collect(),
        Err(_) => Vec::new(),
    }
}
