//! JSON-RPC methods of the broker socket.

use super::dispatch::{self, CallScope};
use super::state::DEFAULT_LEASE_TTL;
use super::{Broker, PROTOCOL_MAX, PROTOCOL_MIN, VERSION};
use crate::error::{BpError, BpResult, Code};
use serde_json::{json, Value};
use std::sync::Arc;
use std::time::Duration;

/// Principal of the one-shot CLI.
pub const CLI_PRINCIPAL: &str = "browser-pilot-cli";
/// Largest message accepted on the socket.
pub const MAX_MESSAGE_BYTES: usize = 16 * 1024 * 1024;

/// Per-connection protocol state.
pub struct Connection {
    pub id: String,
    pub principal: Option<String>,
}

fn str_param<'a>(params: &'a Value, key: &str) -> BpResult<&'a str> {
    params
        .get(key)
        .and_then(Value::as_str)
        .ok_or_else(|| BpError::invalid(format!("`{key}` is required")))
}

fn opt_str<'a>(params: &'a Value, key: &str) -> Option<&'a str> {
    params.get(key).and_then(Value::as_str)
}

fn parse_version(v: &str) -> Option<(u32, u32)> {
    let (a, b) = v.split_once('.')?;
    Some((a.parse().ok()?, b.parse().ok()?))
}

fn unix_ms(at: std::time::Instant) -> u64 {
    let now = std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)
        .unwrap_or_default();
    let left = at.saturating_duration_since(std::time::Instant::now());
    (now + left).as_millis() as u64
}

/// Handle one request.
pub async fn handle(
    broker: &Arc<Broker>,
    conn: &mut Connection,
    method: &str,
    params: Value,
) -> BpResult<Value> {
    match method {
        "initialize" => {
            let mut result = initialize(conn, &params)?;
            result["browser"] = browser_state(broker).await;
            Ok(result)
        }
        "broker/status" => status(broker).await,
        "broker/stop" => {
            broker.shutdown.notify_one();
            Ok(json!({"stopping": true}))
        }
        _ => {
            let principal = conn
                .principal
                .clone()
                .ok_or_else(|| BpError::new(Code::NotInitialized, "call `initialize` first"))?;
            handle_initialized(broker, &principal, method, params).await
        }
    }
}

fn initialize(conn: &mut Connection, params: &Value) -> BpResult<Value> {
    let name = params["client"]["name"]
        .as_str()
        .filter(|n| !n.is_empty())
        .unwrap_or("anonymous");
    let min = params["protocol"]["min"].as_str().unwrap_or(PROTOCOL_MIN);
    let max = params["protocol"]["max"].as_str().unwrap_or(min);
    let (Some(cmin), Some(cmax)) = (parse_version(min), parse_version(max)) else {
        return Err(BpError::invalid(
            "`protocol.min` and `protocol.max` must look like 1.0",
        ));
    };
    let (smin, smax) = ((1, 0), (1, 1));
    let lo = cmin.max(smin);
    let hi = cmax.min(smax);
    if lo > hi {
        return Err(BpError::new(Code::ProtocolIncompatible, "no protocol version in common").with_context(json!({
            "client": {"min": min, "max": max}, "service": {"min": PROTOCOL_MIN, "max": PROTOCOL_MAX}})));
    }
    conn.principal = Some(name.to_string());
    Ok(json!({
        "service": {"version": VERSION},
        "executable": {"version": VERSION},
        "protocolVersion": format!("{}.{}", hi.0, hi.1),
        "capabilities": {"supported": [], "granted": []},
        "broker": {"processId": std::process::id(), "connectionId": conn.id},
        "limits": {"maxMessageBytes": MAX_MESSAGE_BYTES, "maxResultBytes": MAX_MESSAGE_BYTES},
    }))
}

async fn browser_state(broker: &Arc<Broker>) -> Value {
    match broker.browser().await {
        Ok(b) => {
            json!({"state": "connected", "generation": broker.generation(), "launched": b.launched.is_some(),
                        "browserPid": b.launched.as_ref().and_then(|l| l.pid())})
        }
        Err(_) => json!({"state": "disconnected", "generation": broker.generation()}),
    }
}

async fn status(broker: &Arc<Broker>) -> BpResult<Value> {
    let browser = browser_state(broker).await;
    Ok(json!({
        "pid": std::process::id(),
        "version": VERSION,
        "protocol": {"min": PROTOCOL_MIN, "max": PROTOCOL_MAX},
        "uptimeMs": broker.started.elapsed().as_millis() as u64,
        "socket": broker.paths.socket,
        "browser": browser,
        "cdpCommandsSent": broker.cdp_commands_sent().await,
        "runtime": broker.runtime.describe(),
    }))
}

async fn handle_initialized(
    broker: &Arc<Broker>,
    principal: &str,
    method: &str,
    params: Value,
) -> BpResult<Value> {
    match method {
        "tools/list" => {
            let mut tools = super::native::manifest();
            tools.extend(broker.runtime.manifest());
            Ok(json!({"tools": tools}))
        }
        "tools/call" => tools_call(broker, principal, params).await,
        "workspaces/create" => {
            let label = opt_str(&params, "label").map(str::to_string);
            let id = broker
                .state()
                .create_workspace(principal, opt_str(&params, "key"), label);
            Ok(json!({"workspaceId": id, "eventCursor": "0"}))
        }
        "workspaces/get" => {
            let id = str_param(&params, "workspaceId")?;
            let mut st = broker.state();
            let ws = st.workspace(principal, id)?;
            Ok(
                json!({"workspaceId": ws.id, "label": ws.label, "targets": ws.targets.keys().collect::<Vec<_>>(),
                      "currentTarget": ws.current_target, "eventCursor": "0"}),
            )
        }
        "workspaces/release" => {
            let id = str_param(&params, "workspaceId")?;
            let managed = broker.state().release_workspace(principal, id)?;
            broker.observations.remove_workspace(id);
            if let Ok(conn) = broker.browser().await {
                for raw in managed {
                    let _ = conn.close_target(&raw).await;
                }
            }
            Ok(json!({"released": true}))
        }
        "leases/create" => {
            let ws = str_param(&params, "workspaceId")?;
            let ttl = params
                .get("ttlMs")
                .and_then(Value::as_u64)
                .map(Duration::from_millis)
                .unwrap_or(DEFAULT_LEASE_TTL);
            let mut st = broker.state();
            let lease = st.create_lease(principal, ws, ttl, opt_str(&params, "key"))?;
            Ok(
                json!({"leaseId": lease.id, "expiresAt": unix_ms(lease.expires), "ttlMs": lease.ttl.as_millis() as u64}),
            )
        }
        "leases/heartbeat" => {
            let id = str_param(&params, "leaseId")?;
            let mut st = broker.state();
            let ws = st
                .leases
                .get(id)
                .map(|l| l.workspace_id.clone())
                .ok_or_else(|| BpError::new(Code::LeaseExpired, "no such lease"))?;
            let lease = st.live_lease(principal, &ws, id)?;
            lease.expires = std::time::Instant::now() + lease.ttl;
            Ok(json!({"expiresAt": unix_ms(lease.expires)}))
        }
        "leases/release" => {
            broker
                .state()
                .release_lease(principal, str_param(&params, "leaseId")?)?;
            Ok(json!({"released": true}))
        }
        "shutdown" => Ok(json!({})),
        other => Err(BpError::invalid(format!("unknown method `{other}`"))
            .with_context(json!({"method": other}))),
    }
}

async fn tools_call(broker: &Arc<Broker>, principal: &str, params: Value) -> BpResult<Value> {
    let name = str_param(&params, "name")?.to_string();
    let ws = str_param(&params, "workspaceId")?.to_string();
    let lease = str_param(&params, "leaseId")?.to_string();
    let command_id = opt_str(&params, "commandId")
        .map(str::to_string)
        .unwrap_or_else(|| crate::ids::new_id("cmd"));
    let idempotency_key = opt_str(&params, "idempotencyKey")
        .map(str::to_string)
        .unwrap_or_else(|| command_id.clone());
    let args = params.get("arguments").cloned().unwrap_or(Value::Null);
    let scope = CallScope {
        principal: principal.to_string(),
        workspace_id: ws.clone(),
        lease_id: lease.clone(),
        compat: principal == CLI_PRINCIPAL,
        command_id: command_id.clone(),
    };
    let authorised = broker
        .state()
        .live_lease(principal, &ws, &lease)
        .map(|_| ());
    let outcome = match authorised {
        Ok(()) => dispatch::run(broker, &scope, &name, args).await,
        Err(e) => dispatch::Outcome {
            result: Err(e),
            dispatched: false,
        },
    };
    let mutates = broker
        .runtime
        .tool(&name)
        .map(|t| t.info.mutates)
        .unwrap_or(true);
    let state = match &outcome.result {
        Ok(_) => "completed",
        Err(e) if e.code == Code::UnknownOutcome => "unknown_outcome",
        Err(e) if outcome.dispatched && mutates && e.code == Code::InternalError => {
            "unknown_outcome"
        }
        Err(_) => "failed",
    };
    let command =
        json!({"commandId": command_id, "state": state, "idempotencyKey": idempotency_key});
    Ok(match outcome.result {
        Ok(result) => json!({"command": command, "result": result}),
        Err(e) => json!({"command": command, "error": e.to_json()}),
    })
}
