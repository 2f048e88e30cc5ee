//! Step 5a, finish: what the broker adds to a tool's result, by scope. A
//! target result gets its tab, workspace and generation, full artifact
//! descriptors, the outcome split, the auth state, the watchdogs and
//! bounded hints; a workspace result its workspace and generation. A
//! failure during a target call says whether the tab crashed under it.

use super::types::{Bound, CallScope, Failed};
use crate::broker::rpc::progress::Verdict;
use crate::broker::watch::hints;
use crate::broker::Broker;
use crate::browser::connection::BrowserConn;
use crate::browser::page_tools::hint;
use crate::error::{BpError, BpResult};
use crate::runtime::capability::Capability;
use serde_json::{json, Value};

/// The result of `name` as the caller gets it.
pub(super) fn complete(
    broker: &Broker,
    scope: &CallScope,
    name: &str,
    bound: &Bound,
    ran: Result<(Value, bool), Failed>,
) -> Result<(Value, bool), Failed> {
    match bound {
        Bound::Native => ran,
        Bound::Workspace { conn, .. } => {
            let (mut value, dispatched) = ran?;
            if let Some(obj) = value.as_object_mut() {
                obj.insert("workspaceId".into(), json!(scope.workspace_id));
                obj.insert("leaseId".into(), json!(scope.lease_id));
                obj.insert("generation".into(), json!(conn.generation));
            }
            Ok((value, dispatched))
        }
        Bound::Target {
            conn,
            raw,
            public,
            crashed_before,
            ..
        } => {
            let (mut value, dispatched) = match ran {
                Ok(done) => done,
                Err((e, sent)) => {
                    // Whatever the component made of it, the renderer
                    // crashed during the call (a failure on a tab already
                    // crashed, such as a refused URL, is reported as it is).
                    if !crashed_before && conn.registry.crashed(raw) {
                        return Err((crate::cdp::errors::crashed(), sent));
                    }
                    stalled(broker, scope, raw, &e);
                    return Err((e, sent));
                }
            };
            decorate(broker, scope, conn, raw, public, &mut value).map_err(|e| (e, dispatched))?;
            split_outcome(&mut value);
            if name == "browser.observe" {
                broker
                    .auth_states
                    .observe(&scope.workspace_id, raw, &mut value);
                page_tools_hint(broker, scope, conn, raw, &mut value);
            }
            watch_progress(broker, scope, raw, name, &mut value);
            // Whoever made them (component or broker), hints stay within
            // bounds.
            if let Some(hints) = value.get_mut("hints") {
                if let Value::Array(list) = hints.take() {
                    *hints = Value::Array(hints::bounded(list));
                }
            }
            Ok((value, dispatched))
        }
    }
}

/// An observed tab whose frames declare tools gets the `page_tools` hint,
/// when the broker offers the page-tools family at all.
fn page_tools_hint(
    broker: &Broker,
    scope: &CallScope,
    conn: &BrowserConn,
    raw: &str,
    value: &mut Value,
) {
    if !broker.runtime.allows(Capability::PageTools) {
        return;
    }
    let access = scope.page_tool_access(broker);
    if let Some(hint) = hint::page_tools_hint(&conn.registry, raw, access) {
        hints::add(value, hint);
    }
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
            let d = broker.artifacts.get(&id, &|w| w == ws.as_str())?;
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
