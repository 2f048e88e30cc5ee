//! Running a target-scoped tool: pick and take the tab, wait for its lane,
//! build the call's [`TargetCall`] (with its workspace), run the component
//! and add the common result fields.

use super::dispatch::{call_component, raw_target, retired_ref, CallScope};
use super::Broker;
use crate::browser::call::{CallSetup, Caller, LeaseGuard, TargetCall};
use crate::browser::connection::BrowserConn;
use crate::error::{BpError, BpResult, StaleReason};
use crate::runtime::Scope;
use serde_json::{json, Value};
use std::sync::atomic::AtomicBool;
use std::sync::Arc;

type Failed = (BpError, bool);

fn fail(e: BpError) -> Failed {
    (e, false)
}

/// Run `name`, a target tool, for an authorised caller.
pub async fn run(
    broker: &Arc<Broker>,
    scope: &CallScope,
    name: &str,
    mut args: Value,
    dispatched: Arc<AtomicBool>,
    conn: &BrowserConn,
) -> Result<(Value, bool), Failed> {
    if let Some(e) = retired_ref(broker, scope, &args) {
        return Err(fail(e));
    }
    let (public, raw) = take_target(broker, scope, &args, conn).map_err(fail)?;
    if scope.compat && args.get("ref").is_some() && args.get("observationId").is_none() {
        // The one-shot CLI's bare refs mean the latest observation.
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
    let _turn = lane.lock().await;
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
    let call = target_call(broker, scope, conn, &raw, &public, &dispatched)
        .await
        .map_err(fail)?;
    // Workspaces with rules or credentials see their requests intercepted.
    if broker.network.wants_interception(&scope.workspace_id) {
        call.ensure_interception().await.map_err(fail)?;
    }
    let call = Scope::Target(Box::new(call));
    let (mut value, was_dispatched) =
        match call_component(broker, scope, name, &args, call, &dispatched).await {
            Ok(done) => done,
            Err((e, sent)) => {
                // Whatever the component made of it, the renderer crashed
                // during the call (a failure on a tab already crashed,
                // such as a refused URL, is reported as it is).
                if !crashed_before && conn.registry.crashed(&raw) {
                    return Err((crate::cdp::errors::crashed(), sent));
                }
                stalled(broker, scope, &raw, &e);
                return Err((e, sent));
            }
        };
    decorate(broker, scope, conn, &raw, &public, &mut value).map_err(|e| (e, was_dispatched))?;
    split_outcome(&mut value);
    if name == "browser.observe" {
        broker
            .auth_states
            .observe(&scope.workspace_id, &raw, &mut value);
    }
    watch_progress(broker, scope, &raw, name, &mut value);
    // Whoever made them (component or broker), hints stay within bounds.
    if let Some(hints) = value.get_mut("hints") {
        if let Value::Array(list) = hints.take() {
            *hints = Value::Array(super::hints::bounded(list));
        }
    }
    Ok((value, was_dispatched))
}

/// The three questions an agent asks after an action, answered apart
/// (beside the 1.0 `evidence`): was it understood (arguments valid, target
/// resolved: yes, or it would have failed), was it executed (input
/// dispatched: yes, for a result), and did the page change (`true` when
/// the evidence verified a change, `false` on a mismatch, `null` when
/// nothing could be observed).
fn split_outcome(value: &mut Value) {
    let Some(status) = value["evidence"]["status"].as_str() else {
        return;
    };
    let changed = match status {
        "verified" => json!(true),
        "mismatch" => json!(false),
        _ => Value::Null,
    };
    if let Some(obj) = value.as_object_mut() {
        obj.insert(
            "outcome".into(),
            json!({"understood": true, "executed": true, "changed": changed}),
        );
    }
}

/// Hints and the no-progress watchdog after a target tool succeeded.
fn watch_progress(broker: &Broker, scope: &CallScope, raw: &str, name: &str, value: &mut Value) {
    use super::hints;
    use super::progress::Verdict;
    if name == "browser.navigate" || name == "browser.frames.select" {
        broker.progress.reset_target(raw);
        let status = value["status"].as_u64().and_then(|s| u16::try_from(s).ok());
        if let Some(code) = status.filter(|c| hints::is_blocked(*c)) {
            hints::add(value, hints::access_blocked(code));
        }
        return;
    }
    // Focus moving to the clicked control is not progress on its own.
    let signals = value["evidence"]["signals"].as_array();
    let focus_only = signals.is_some_and(|s| s.iter().all(|x| x == "focus_changed"));
    let status = value["evidence"]["status"]
        .as_str()
        .map(|s| {
            if s == "verified" && focus_only {
                "unavailable"
            } else {
                s
            }
        })
        .map(str::to_string);
    let verdict =
        broker
            .progress
            .action(&scope.workspace_id, &scope.lease_id, raw, status.as_deref());
    if let Verdict::Repeated {
        count,
        first_report,
    } = verdict
    {
        hints::add(value, hints::repeated_action(count));
        if first_report {
            let payload = json!({"tool": name, "count": count, "recommendedAction": "observe"});
            broker.state().publish(
                &scope.workspace_id,
                "watchdog.no_progress",
                Some(&scope.lease_id),
                Some(raw),
                payload,
            );
        }
    }
}

/// A navigation that never became interactive ends `unknown_outcome`;
/// the workspace also hears of it as `watchdog.navigation_stalled`.
fn stalled(broker: &Broker, scope: &CallScope, raw: &str, e: &BpError) {
    let reason = e.context.as_ref().and_then(|c| c["reason"].as_str());
    if reason == Some("navigation_stalled") {
        let payload = json!({"reason": "navigation_stalled", "step": "wait_for_load"});
        broker.state().publish(
            &scope.workspace_id,
            "watchdog.navigation_stalled",
            Some(&scope.lease_id),
            Some(raw),
            payload,
        );
    }
}

/// The named (or current) tab of the caller's workspace, checked and taken
/// by the calling lease: (public, raw).
fn take_target(
    broker: &Broker,
    scope: &CallScope,
    args: &Value,
    conn: &BrowserConn,
) -> BpResult<(String, String)> {
    let mut st = broker.state();
    let public = match args.get("targetId") {
        Some(Value::String(s)) => s.clone(),
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
) -> BpResult<TargetCall> {
    let session = conn.attach(raw).await?;
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
        match st.controllers.get(&guard_raw) {
            Some(l) if *l == guard_scope.lease_id => Ok(()),
            _ => Err(BpError::stale(StaleReason::ControlReleased)),
        }
    });
    let current = Ok(Some((raw.to_string(), public.to_string())));
    let workspace = super::scopes::workspace_call(broker, scope, conn, current, dispatched);
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
            workspace_id: scope.workspace_id.clone(),
            lease_id: scope.lease_id.clone(),
        },
        lease_guard,
        dispatched: dispatched.clone(),
    })
}

/// The common fields of a target result, and full descriptors for the
/// artifacts a component names by ID.
fn decorate(
    broker: &Broker,
    scope: &CallScope,
    conn: &BrowserConn,
    raw: &str,
    public: &str,
    value: &mut Value,
) -> BpResult<()> {
    let url = conn
        .registry
        .with(raw, |t| t.url.clone())
        .unwrap_or_default();
    let origin = broker
        .state()
        .workspace(&scope.principal, &scope.workspace_id)
        .map(|w| w.origin(raw))
        .unwrap_or("user_tab");
    let Some(obj) = value.as_object_mut() else {
        return Ok(());
    };
    for key in ["artifact", "preview"] {
        let id = obj
            .get(key)
            .and_then(|a| a["artifactId"].as_str())
            .map(str::to_string);
        if let Some(id) = id {
            let ws = scope.workspace_id.clone();
            let d = broker.artifacts.get(&id, &|w| w == ws)?;
            obj.insert(key.into(), d);
        }
    }
    obj.insert("workspaceId".into(), json!(scope.workspace_id));
    obj.insert("leaseId".into(), json!(scope.lease_id));
    obj.insert("targetId".into(), json!(public));
    obj.entry("url").or_insert(json!(url));
    // A tool's own `origin` wins over the tag.
    obj.entry("origin").or_insert(json!(origin));
    obj.insert("generation".into(), json!(conn.generation));
    Ok(())
}
