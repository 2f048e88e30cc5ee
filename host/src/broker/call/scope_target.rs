//! The target scope: the named (or current) tab of the caller's workspace,
//! checked, taken by the calling lease and made current; the bare refs of
//! the one-shot CLI pointed at its latest observation; the call's turn on
//! the tab's lane; and the call's [`TargetCall`] (with its workspace).

use super::scope_workspace::workspace_call;
use super::types::{fail, raw_target, Bound, CallScope, Failed, NestedCall};
use crate::broker::watch::scopeflow::{arm, refuse_url};
use crate::broker::Broker;
use crate::browser::call::{CallSetup, Caller, LeaseGuard, TargetCall};
use crate::browser::connection::BrowserConn;
use crate::error::{BpError, BpResult, StaleReason};
use crate::ids::{RawTargetId, TabId};
use crate::runtime::Scope;
use serde_json::{json, Value};
use std::sync::atomic::AtomicBool;
use std::sync::Arc;

/// Bind the target tool `name` to its tab.
pub(super) async fn bind(
    broker: &Arc<Broker>,
    scope: &CallScope,
    name: &str,
    args: &mut Value,
    dispatched: &Arc<AtomicBool>,
    conn: Arc<BrowserConn>,
    nested: NestedCall,
) -> Result<Bound, Failed> {
    if let Some(e) = retired_ref(broker, scope, args) {
        return Err(fail(e));
    }
    // A navigation out of the workspace's origin scope is refused before
    // the tab is even taken.
    if let (true, Some(url)) = (
        name == "browser.navigate",
        args.get("url").and_then(Value::as_str),
    ) {
        refuse_url(broker, &scope.workspace_id, None, url).map_err(fail)?;
    }
    let (public, raw) = take_target(broker, scope, args, &conn).map_err(fail)?;
    let names_ref =
        args.get("ref").is_some() || args.get("from").is_some() || args.get("fields").is_some();
    if scope.compat && names_ref && args.get("observationId").is_none() {
        // The one-shot CLI's bare refs (a `ref`, a drag's `from`, the refs
        // of a form's `fields`) mean the latest observation.
        if let (Some(obs), Some(obj)) = (
            broker.observations.latest(&scope.workspace_id, &raw),
            args.as_object_mut(),
        ) {
            obj.insert("observationId".into(), json!(obs));
        }
    }
    // One command at a time per physical target.
    let lane = conn
        .registry
        .with(&raw, |t| t.lane.clone())
        .ok_or_else(|| fail(BpError::stale(StaleReason::TargetClosed)))?;
    let turn = lane.lock_owned().await;
    // Cancelled or expired while it waited for the target.
    broker
        .state()
        .commands
        .start(&scope.workspace_id, &scope.command_id, true)
        .map_err(fail)?;
    // A crashed tab answers nothing until a navigation or reload
    // recovers it.
    let crashed_before = conn.registry.crashed(&raw);
    if name != "browser.navigate" && crashed_before {
        return Err(fail(crate::cdp::errors::crashed()));
    }
    let call = target_call(broker, scope, &conn, &raw, &public, dispatched, nested)
        .await
        .map_err(fail)?;
    // Workspaces with rules or credentials see their requests intercepted.
    if broker.network.wants_interception(&scope.workspace_id) {
        call.ensure_interception().await.map_err(fail)?;
    }
    // So do those under an origin scope, and the browser-wide pass that
    // holds a popup's first request is on.
    if broker.scopes.of(&scope.workspace_id).is_some() {
        call.ensure_interception().await.map_err(fail)?;
        arm(broker, &conn).await;
    }
    Ok(Bound::Target {
        conn,
        raw,
        public,
        crashed_before,
        _turn: turn,
        call: Some(Scope::Target(Box::new(call))),
    })
}

/// A ref into an observation of an earlier connection generation:
/// `stale_ref` (`browser_reconnected`), whatever target it named.
fn retired_ref(broker: &Broker, scope: &CallScope, args: &Value) -> Option<BpError> {
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

/// The named (or current) tab of the caller's workspace, checked and taken
/// by the calling lease: (public, raw).
fn take_target(
    broker: &Broker,
    scope: &CallScope,
    args: &Value,
    conn: &BrowserConn,
) -> BpResult<(TabId, RawTargetId)> {
    let mut st = broker.state();
    let public = match args.get("targetId") {
        Some(Value::String(s)) => TabId::new(s.as_str()),
        None | Some(Value::Null) => st
            .workspace(&scope.principal, &scope.workspace_id)?
            .current_target
            .clone()
            .ok_or_else(|| {
                BpError::invalid(
                    "no target: open one (bp open URL / browser.tabs.open) or pass `targetId`",
                )
                .with_context(json!({"reason": "no_target"}))
            })?,
        Some(_) => return Err(BpError::invalid("`targetId` must be a string")),
    };
    let raw = raw_target(&mut st, scope, &public)?;
    if !conn.registry.with(&raw, |t| t.eligible()).unwrap_or(false) {
        return Err(BpError::stale(StaleReason::TargetClosed));
    }
    st.acquire(&scope.lease_id, &raw)?;
    st.workspace(&scope.principal, &scope.workspace_id)?
        .current_target = Some(public.clone());
    Ok((public, raw))
}

/// The call's view of its tab: attached, with a guard that the calling
/// lease still controls it.
async fn target_call(
    broker: &Arc<Broker>,
    scope: &CallScope,
    conn: &BrowserConn,
    raw: &str,
    public: &str,
    dispatched: &Arc<AtomicBool>,
    nested: NestedCall,
) -> BpResult<TargetCall> {
    let session = conn.attach(raw).await?;
    if broker.console.in_use(&scope.workspace_id) {
        conn.enable_console(raw).await;
    }
    let guard_broker = broker.clone();
    let guard_scope = scope.clone();
    let guard_raw = raw.to_string();
    let lease_guard: LeaseGuard = Arc::new(move || {
        let mut st = guard_broker.state();
        st.live_lease(
            &guard_scope.principal,
            &guard_scope.workspace_id,
            &guard_scope.lease_id,
        )?;
        match st.controllers.get(guard_raw.as_str()) {
            Some(l) if *l == guard_scope.lease_id => Ok(()),
            _ => Err(BpError::stale(StaleReason::ControlReleased)),
        }
    });
    let current = Ok(Some((RawTargetId::new(raw), TabId::new(public))));
    let workspace = workspace_call(broker, scope, conn, current, dispatched, nested);
    TargetCall::new(CallSetup {
        cdp: conn.cdp.clone(),
        registry: conn.registry.clone(),
        observations: broker.observations.clone(),
        workspace,
        frames: broker.frames.clone(),
        raw_id: raw.to_string(),
        session,
        generation: conn.generation,
        current_generation: broker.generation_handle(),
        caller: Caller {
            workspace_id: scope.workspace_id.to_string(),
            lease_id: scope.lease_id.to_string(),
            page_tools: scope.page_tool_access(broker),
        },
        lease_guard,
        dispatched: dispatched.clone(),
    })
}
