//! The handlers of the broker-native tools: browser lifecycle and the tab
//! inventory. They need no component because the broker itself owns what
//! they touch; their registry rows are in `native/rows.rs`, and the call
//! pipeline (`call/`) reaches them through its execute step only.

mod pilot;
pub mod rows;
pub(in crate::broker) mod tabs;
pub mod takeover;
mod window;

use crate::broker::args::{bool_arg, no_args, object_args, only_keys, str_arg};
use crate::broker::call::types::{raw_target, CallScope};
use crate::broker::Broker;
use crate::browser::connection::BrowserConn;
use crate::error::{BpError, BpResult, Code};
use crate::ids::TabId;
use serde_json::{json, Value};
use std::sync::atomic::Ordering;
use std::sync::Arc;

fn connection_state(broker: &Broker, conn: Option<&BrowserConn>) -> Value {
    match conn {
        Some(c) if !c.cdp.is_closed() => json!({
            "state": "connected",
            "generation": broker.generation(),
            // Host and port only: the browser's WebSocket path is not echoed.
            "endpoint": url::Url::parse(&c.endpoint).ok().map(|u| {
                format!("{}:{}", u.host_str().unwrap_or(""), u.port().unwrap_or(0))
            }),
            "launched": c.launched.is_some(),
            "browserPid": c.launched.as_ref().and_then(|l| l.pid()),
            "profile": c.launched.as_ref().filter(|l| l.persistent).map(|l| l.profile_dir()),
            "browser": (c.launched.is_none())
                .then(|| broker.selection().map(|s| s.candidate_id))
                .flatten(),
        }),
        _ => json!({"state": "disconnected", "generation": broker.generation()}),
    }
}

/// Run a native tool.
pub async fn call(
    broker: &Arc<Broker>,
    scope: &CallScope,
    name: &str,
    args: &Value,
) -> BpResult<Value> {
    match name {
        "browser.status" => {
            no_args(args)?;
            let conn = broker.browser().await.ok();
            Ok(json!({"candidates": candidates(broker).await,
                      "preference": crate::broker::connect::preference::load(&broker.paths),
                      "connection": connection_state(broker, conn.as_deref())}))
        }
        "browser.connect" => connect(broker, args).await,
        "browser.window" => window::call(broker, scope, args).await,
        "browser.takeover" => takeover::call(broker, scope, args).await,
        "browser.disconnect" => disconnect(broker, scope, args).await,
        "browser.tabs.list" => {
            no_args(args)?;
            tabs_list(broker, scope).await
        }
        "browser.tabs.acquire" | "browser.tabs.release" => {
            only_keys(args, &["targetId"])?;
            let public = str_arg(args, "targetId")?
                .ok_or_else(|| BpError::invalid("`targetId` is required"))?;
            let controlled = {
                let mut st = broker.state();
                let raw = raw_target(&mut st, scope, public)?;
                if name == "browser.tabs.acquire" {
                    st.acquire(&scope.lease_id, &raw)?;
                    st.workspace(&scope.principal, &scope.workspace_id)?
                        .current_target = Some(TabId::new(public));
                } else {
                    st.release_target(&scope.lease_id, &raw);
                }
                st.controllers.get(raw.as_str()) == Some(&scope.lease_id)
            };
            if !controlled {
                broker.clear_released_overrides().await;
            }
            Ok(json!({"targetId": public, "controlledByThisLease": controlled}))
        }
        other => Err(BpError::invalid(format!("unknown tool `{other}`"))),
    }
}

async fn connect(broker: &Arc<Broker>, args: &Value) -> BpResult<Value> {
    let request = crate::broker::connect::parse(args)?;
    let _guard = broker.connect_lock.lock().await;
    if let Ok(conn) = broker.browser().await {
        return Ok(
            json!({"connection": connection_state(broker, Some(&conn)), "alreadyConnected": true}),
        );
    }
    let next_gen = broker.generation() + 1;
    end_gone_persistent(broker).await;
    let attached = crate::broker::connect::attach(broker, request, next_gen).await?;
    // From here on nothing awaits before the new generation is complete,
    // so a deadline cannot leave it half installed.
    let conn = Arc::new(attached.conn);
    let mut slot = broker.browser.write().await;
    let old = slot.take();
    if let Some(old) = &old {
        broker.retire(old);
    }
    // Nothing of the earlier generation survives into the new one.
    broker.forget_connection_state();
    if attached.selection.is_some() {
        broker.set_selection(attached.selection);
    }
    broker.generation.store(next_gen, Ordering::SeqCst);
    *slot = Some(conn.clone());
    drop(slot);
    // A browser of the broker's own that went away (or hung) leaves its
    // process group and profile behind until ended.
    if let Some(old) = old.filter(|o| o.launched.is_some()) {
        tokio::spawn(async move {
            if let Some(launched) = &old.launched {
                launched.end().await;
            }
        });
    }
    crate::broker::watch::connection_restored(broker, next_gen);
    tokio::spawn(crate::broker::watch::pump(
        broker.clone(),
        conn.clone(),
        attached.signals,
    ));
    // Under an origin scope, requests pass the broker from the start.
    crate::broker::watch::scopeflow::arm(broker, &conn).await;
    Ok(json!({"connection": connection_state(broker, Some(&conn))}))
}

/// A launched browser on a persistent profile that went away still holds
/// the profile's lock: end it first, so a relaunch on the same profile
/// can take it (the slot's connection is already unusable here).
async fn end_gone_persistent(broker: &Broker) {
    let old = broker.browser.read().await.clone();
    if let Some(launched) = old.as_ref().and_then(|c| c.launched.as_ref()) {
        if launched.persistent {
            launched.end().await;
        }
    }
}

/// Close the browser connection for the caller. Other workspaces holding
/// live leases keep it: the call is refused (`broker_in_use`), keeps the
/// connection (`keepIfInUse`, what `bp disconnect` asks) or, with `force`,
/// ends their work too (their managed tabs close as well) and says so.
async fn disconnect(broker: &Arc<Broker>, scope: &CallScope, args: &Value) -> BpResult<Value> {
    object_args(args)?;
    only_keys(args, &["force", "keepIfInUse"])?;
    let force = bool_arg(args, "force")?.unwrap_or(false);
    let keep = bool_arg(args, "keepIfInUse")?.unwrap_or(false);
    if force && keep {
        return Err(BpError::invalid(
            "`force` and `keepIfInUse` contradict each other",
        ));
    }
    let _guard = broker.connect_lock.lock().await;
    let others = broker
        .state()
        .live_workspaces(Some(&scope.workspace_id), &|_| false);
    if !others.is_empty() && !force && !keep {
        return Err(in_use(&others, "disconnect the browser"));
    }
    let keeping = !others.is_empty() && !force;
    // Managed tabs close (never user tabs), so an attached user browser is
    // left as it was: the caller's own, or every workspace's when the
    // connection really ends.
    let managed: Vec<String> = {
        let mut st = broker.state();
        st.workspace(&scope.principal, &scope.workspace_id)?
            .current_target = None;
        st.workspaces
            .values_mut()
            .filter(|ws| !keeping || ws.id == scope.workspace_id)
            .flat_map(|ws| ws.managed.drain().collect::<Vec<_>>())
            .collect()
    };
    // Their Pilot tabs close too, and are not counted as tabs.
    let pilots: Vec<String> = broker
        .state()
        .workspaces
        .values_mut()
        .filter(|ws| !keeping || ws.id == scope.workspace_id)
        .filter_map(|ws| ws.pilot.take())
        .collect();
    if let Ok(conn) = broker.browser().await {
        for raw in managed.iter().chain(&pilots) {
            let _ = conn.close_target(raw).await;
        }
    }
    if keeping {
        let conn = broker.browser().await.ok();
        return Ok(
            json!({"connection": connection_state(broker, conn.as_deref()),
                         "closedTabs": managed.len(), "kept": true,
                         "liveWorkspaces": others.len()}),
        );
    }
    broker.drop_browser().await;
    Ok(
        json!({"connection": connection_state(broker, None), "closedTabs": managed.len(),
              "kept": false, "endedWorkspaces": others.len()}),
    )
}

/// `broker_in_use`: other workspaces hold live leases.
pub fn in_use(others: &[String], what: &str) -> BpError {
    BpError::new(
        Code::BrokerInUse,
        format!(
            "{} other workspace(s) hold live leases; refusing to {what} (force ends their work too)",
            others.len()
        ),
    )
    .with_context(json!({"liveWorkspaces": others.len()}))
}

/// Discovered browsers, with the last authorization outcome seen for each
/// (`lastAuthorization`: allowed, waiting_for_user or refused).
async fn candidates(broker: &Broker) -> Vec<Value> {
    let found = tokio::task::spawn_blocking(crate::discovery::discover)
        .await
        .unwrap_or_default();
    found
        .iter()
        .map(|c| {
            let mut v = c.to_json();
            v["lastAuthorization"] = json!(broker.authorization_of(&c.id));
            v
        })
        .collect()
}

async fn tabs_list(broker: &Arc<Broker>, scope: &CallScope) -> BpResult<Value> {
    let conn = broker.browser().await?;
    conn.refresh_targets().await?;
    let ids = conn.registry.eligible_ids();
    let mut st = broker.state();
    let controllers = st.controllers.clone();
    let ids: Vec<String> = ids
        .into_iter()
        .filter(|raw| !st.managed_elsewhere(raw, &scope.workspace_id))
        .collect();
    let ws = st.workspace(&scope.principal, &scope.workspace_id)?;
    let tabs: Vec<Value> = ids
        .iter()
        .filter_map(|raw| {
            let (url, title, crashed) = conn
                .registry
                .with(raw, |t| (t.url.clone(), t.title.clone(), t.crashed))?;
            let id = ws.public_id(raw);
            let controller = controllers.get(raw.as_str());
            Some(json!({
                "targetId": id,
                "url": url,
                "title": title,
                "origin": ws.origin(raw),
                "managedTabSetId": ws.tab_set_id(raw),
                "controlled": controller.is_some(),
                "controlledByThisLease": controller == Some(&scope.lease_id),
                "current": ws.current_target.as_deref() == Some(id.as_str()),
                "crashed": crashed,
            }))
        })
        .collect();
    Ok(json!({"tabs": tabs}))
}
