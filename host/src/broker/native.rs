//! Broker-native tools: browser lifecycle and the tab inventory. They
//! need no component because the broker itself owns what they touch.

use super::dispatch::CallScope;
use super::Broker;
use crate::browser::connection::BrowserConn;
use crate::cdp::launch;
use crate::error::{BpError, BpResult};
use serde_json::{json, Value};
use std::sync::atomic::Ordering;
use std::sync::Arc;

/// Names of the broker-native tools.
pub const NATIVE: &[&str] = &[
    "browser.status",
    "browser.connect",
    "browser.disconnect",
    "browser.tabs.list",
    "browser.tabs.acquire",
    "browser.tabs.release",
];

/// Whether `name` is a broker-native tool.
pub fn is_native(name: &str) -> bool {
    NATIVE.contains(&name)
}

fn entry(name: &str, description: &str, mutates: bool, input: Value) -> Value {
    json!({
        "name": name,
        "description": description,
        "inputSchema": input,
        "outputSchema": {"type": "object"},
        "capabilities": [],
        "mutates": mutates,
        "idempotency": if mutates { "not_idempotent" } else { "idempotent" },
        "cancellation": "before_dispatch",
        "sensitivity": {"input": [], "output": []},
        "artifactKinds": [],
    })
}

/// Manifest entries of the native tools.
pub fn manifest() -> Vec<Value> {
    let target = json!({"type": "object", "additionalProperties": false, "required": ["targetId"],
        "properties": {"targetId": {"type": "string"}}});
    let none = json!({"type": "object", "additionalProperties": false});
    vec![
        entry("browser.status", "Browser connection state.", false, none.clone()),
        entry(
            "browser.connect",
            "Connect the broker to a browser: launch its own Chromium or attach to a loopback DevTools endpoint.",
            true,
            json!({"type": "object", "additionalProperties": false, "properties": {
                "launch": {"type": "object", "additionalProperties": false, "properties": {
                    "headless": {"type": "boolean", "default": true}, "executable": {"type": "string"}}},
                "endpoint": {"type": "string", "description": "http:// or ws:// URL on 127.0.0.1, localhost or ::1"}}}),
        ),
        entry("browser.disconnect", "Close the browser connection (a broker-launched browser exits).", true, none.clone()),
        entry("browser.tabs.list", "Managed tabs and eligible user tabs, with opaque per-workspace IDs.", false, none),
        entry("browser.tabs.acquire", "Take control of a listed tab for the calling lease.", true, target.clone()),
        entry("browser.tabs.release", "Release the calling lease's control of a tab.", true, target),
    ]
}

fn connection_state(broker: &Broker, conn: Option<&BrowserConn>) -> Value {
    match conn {
        Some(c) if !c.cdp.is_closed() => json!({
            "state": "connected",
            "generation": broker.generation(),
            "endpoint": c.endpoint,
            "launched": c.launched.is_some(),
            "browserPid": c.launched.as_ref().and_then(|l| l.pid()),
        }),
        _ => json!({"state": "disconnected", "generation": broker.generation()}),
    }
}

fn no_args(args: &Value) -> BpResult<()> {
    match args.as_object() {
        Some(m) if m.is_empty() => Ok(()),
        None if args.is_null() => Ok(()),
        _ => Err(BpError::invalid("this tool takes no arguments")),
    }
}

fn str_arg<'a>(args: &'a Value, key: &str) -> BpResult<Option<&'a str>> {
    match args.get(key) {
        None | Some(Value::Null) => Ok(None),
        Some(Value::String(s)) => Ok(Some(s)),
        Some(_) => Err(BpError::invalid(format!("`{key}` must be a string"))),
    }
}

fn only_keys(args: &Value, keys: &[&str]) -> BpResult<()> {
    if let Some(unknown) = args
        .as_object()
        .into_iter()
        .flatten()
        .map(|(k, _)| k)
        .find(|k| !keys.contains(&k.as_str()))
    {
        return Err(BpError::invalid(format!("unknown argument `{unknown}`")));
    }
    Ok(())
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
            Ok(json!({"candidates": [], "connection": connection_state(broker, conn.as_deref())}))
        }
        "browser.connect" => connect(broker, args).await,
        "browser.disconnect" => {
            no_args(args)?;
            let _guard = broker.connect_lock.lock().await;
            // Close this workspace's managed tabs (never user tabs) first, so
            // an attached user browser is left as it was.
            let managed: Vec<String> = {
                let mut st = broker.state();
                let ws = st.workspace(&scope.principal, &scope.workspace_id)?;
                ws.current_target = None;
                ws.managed.drain().collect()
            };
            if let Ok(conn) = broker.browser().await {
                for raw in &managed {
                    let _ = conn.close_target(raw).await;
                }
            }
            broker.drop_browser().await;
            Ok(json!({"connection": connection_state(broker, None), "closedTabs": managed.len()}))
        }
        "browser.tabs.list" => {
            no_args(args)?;
            tabs_list(broker, scope).await
        }
        "browser.tabs.acquire" | "browser.tabs.release" => {
            only_keys(args, &["targetId"])?;
            let public = str_arg(args, "targetId")?
                .ok_or_else(|| BpError::invalid("`targetId` is required"))?;
            let mut st = broker.state();
            let raw = super::dispatch::raw_target(&mut st, scope, public)?;
            if name == "browser.tabs.acquire" {
                st.acquire(&scope.lease_id, &raw)?;
                st.workspace(&scope.principal, &scope.workspace_id)?
                    .current_target = Some(public.to_string());
            } else {
                st.release_target(&scope.lease_id, &raw);
            }
            let controlled = st.controllers.get(&raw) == Some(&scope.lease_id);
            Ok(json!({"targetId": public, "controlledByThisLease": controlled}))
        }
        other => Err(BpError::invalid(format!("unknown tool `{other}`"))),
    }
}

async fn connect(broker: &Arc<Broker>, args: &Value) -> BpResult<Value> {
    only_keys(args, &["launch", "endpoint"])?;
    let endpoint = str_arg(args, "endpoint")?;
    let launch_opts = args.get("launch").filter(|v| !v.is_null());
    if endpoint.is_some() == launch_opts.is_some() {
        return Err(BpError::invalid(
            "give exactly one of `launch` or `endpoint`",
        ));
    }
    if let Some(e) = endpoint {
        launch::check_endpoint(e)?;
    }
    let _guard = broker.connect_lock.lock().await;
    if let Ok(conn) = broker.browser().await {
        return Ok(
            json!({"connection": connection_state(broker, Some(&conn)), "alreadyConnected": true}),
        );
    }
    let next_gen = broker.generation() + 1;
    let (signals, signal_rx) = tokio::sync::mpsc::unbounded_channel();
    let conn = if let Some(opts) = launch_opts {
        only_keys(opts, &["headless", "executable"])?;
        let headless = match opts.get("headless") {
            None | Some(Value::Null) => true,
            Some(Value::Bool(b)) => *b,
            Some(_) => return Err(BpError::invalid("`launch.headless` must be true or false")),
        };
        let exe = str_arg(opts, "executable")?.map(std::path::PathBuf::from);
        let launched = launch::launch(exe, headless, &broker.paths.profiles).await?;
        let ws = launched.ws_url.clone();
        BrowserConn::open(
            &ws,
            Some(launched),
            next_gen,
            signals,
            broker.paths.downloads.clone(),
        )
        .await?
    } else {
        let ws = launch::resolve_endpoint(endpoint.unwrap_or_default()).await?;
        BrowserConn::open(&ws, None, next_gen, signals, broker.paths.downloads.clone()).await?
    };
    // The generation advances only once the connection is up.
    broker.generation.store(next_gen, Ordering::SeqCst);
    broker.drop_browser().await;
    let conn = Arc::new(conn);
    *broker.browser.write().await = Some(conn.clone());
    tokio::spawn(super::signals::pump(broker.clone(), signal_rx));
    super::signals::connection_restored(broker, next_gen);
    Ok(json!({"connection": connection_state(broker, Some(&conn))}))
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
            let (url, title) = conn
                .registry
                .with(raw, |t| (t.url.clone(), t.title.clone()))?;
            let id = ws.public_id(raw);
            let controller = controllers.get(raw);
            Some(json!({
                "targetId": id,
                "url": url,
                "title": title,
                "origin": ws.origin(raw),
                "managedTabSetId": ws.tab_set_id(raw),
                "controlled": controller.is_some(),
                "controlledByThisLease": controller == Some(&scope.lease_id),
                "current": ws.current_target.as_deref() == Some(id.as_str()),
            }))
        })
        .collect();
    Ok(json!({"tabs": tabs}))
}
