//! JSON-RPC methods of the broker socket (shared by the one-shot CLI and
//! `bp bridge --stdio`). `tools/call` lives in [`crate::broker::call`].

pub mod framing;
mod lifecycle;
pub(in crate::broker) mod params;
pub(in crate::broker) mod progress;
pub(in crate::broker) mod requests;
pub(in crate::broker) mod server;

use lifecycle::{browser_state, initialize, status, stop};

use crate::broker::connect::identity;
use crate::broker::state::DEFAULT_LEASE_TTL;
use crate::broker::{Broker, PROTOCOL_MAX, PROTOCOL_MIN, VERSION};
use crate::browser::caller::Grants;
use crate::browser::observe::proved_read::Proof;
use crate::error::{BpError, BpResult, Code};
use serde_json::{json, Value};
use std::sync::Arc;
use std::time::Duration;

/// Principal of the one-shot CLI.
pub use crate::broker::rpc::params::CLI_PRINCIPAL;
use crate::broker::rpc::params::{opt_str, str_param};
/// Largest message the service accepts or sends.
pub const MAX_MESSAGE_BYTES: usize = 16 * 1024 * 1024;

/// A JSON-RPC error response (no newline), as the broker and the bridge
/// write them.
pub fn rpc_error(id: &Value, code: i64, e: &BpError) -> String {
    json!({"jsonrpc": "2.0", "id": id, "error": {"code": code, "message": e.message, "data": e.to_json()}})
        .to_string()
}

/// Smallest limit a client may negotiate.
const MIN_NEGOTIATED_BYTES: u64 = 64 * 1024;

/// Per-connection protocol state.
pub struct Connection {
    pub id: String,
    pub principal: Option<String>,
    /// Negotiated limits (service ceilings until `initialize` lowers them).
    pub max_message: usize,
    pub max_result: usize,
    /// The grants requested at `initialize` that the policy offers.
    pub grants: Grants,
    /// The keyed workspace and lease `initialize` opened (`session`), used
    /// by a `tools/call` that names neither.
    pub session: Option<(crate::ids::WorkspaceId, crate::ids::LeaseId)>,
}

impl Connection {
    pub fn new() -> Self {
        Self {
            id: crate::ids::new_id("conn"),
            principal: None,
            max_message: MAX_MESSAGE_BYTES,
            max_result: MAX_MESSAGE_BYTES,
            grants: Grants::default(),
            session: None,
        }
    }

    /// The principal, or `not_initialized`.
    pub fn principal(&self) -> BpResult<String> {
        self.principal
            .clone()
            .ok_or_else(|| BpError::new(Code::NotInitialized, "call `initialize` first"))
    }
}

impl Default for Connection {
    fn default() -> Self {
        Self::new()
    }
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

/// Methods that may overtake a pending `tools/call` on the same connection.
pub fn overtakes(method: &str) -> bool {
    matches!(
        method,
        "commands/get" | "commands/cancel" | "events/poll" | "leases/heartbeat" | "broker/status"
    )
}

/// Handle one request other than `tools/call`.
pub async fn handle(
    broker: &Arc<Broker>,
    conn: &mut Connection,
    method: &str,
    params: Value,
) -> BpResult<Value> {
    match method {
        "initialize" => {
            let offered = broker.runtime.granter().offered_grants();
            let before = (conn.max_message, conn.max_result, conn.grants);
            let mut result = initialize(conn, &params, &offered)?;
            if let Some(session) = params.get("session") {
                match open_session(broker, conn, session) {
                    Ok(opened) => result["session"] = opened,
                    Err(e) => {
                        // All or nothing: the connection stays uninitialized,
                        // with the limits it had.
                        conn.principal = None;
                        (conn.max_message, conn.max_result, conn.grants) = before;
                        return Err(e);
                    }
                }
            }
            result["browser"] = browser_state(broker).await;
            Ok(result)
        }
        // Owner-level daemon management (the socket is owner-only).
        "broker/status" => handle_initialized(broker, "", method, params).await,
        "broker/stop" => {
            let caller = conn.principal.clone().unwrap_or_default();
            stop(broker, &caller, &params)
        }
        "tools/list" => {
            conn.principal()?;
            // Tools the policy removed, or whose grants this client lacks,
            // are not listed.
            Ok(json!({"tools": broker.runtime.manifest(conn.grants)}))
        }
        _ => handle_initialized(broker, &conn.principal()?, method, params).await,
    }
}

/// Methods that need no connection state besides the principal (these run
/// concurrently with the connection's ordered calls).
pub async fn handle_initialized(
    broker: &Arc<Broker>,
    principal: &str,
    method: &str,
    params: Value,
) -> BpResult<Value> {
    let p = &params;
    match method {
        "broker/status" => status(broker).await,
        "broker/stop" => stop(broker, principal, p),
        "workspaces/create"
        | "workspaces/resume"
        | "workspaces/get"
        | "workspaces/configure"
        | "workspaces/release" => {
            crate::broker::workspaces::method(broker, principal, method, p).await
        }
        "leases/create" => lease_create(broker, principal, p),
        "leases/heartbeat" => lease_heartbeat(broker, principal, str_param(p, "leaseId")?),
        "leases/release" => {
            let lease = str_param(p, "leaseId")?;
            broker.state().release_lease(principal, lease)?;
            broker.progress.reset_lease(lease);
            Ok(json!({"released": true}))
        }
        "commands/get" | "commands/cancel" => command_method(broker, principal, method, p),
        "events/poll" => events_poll(broker, principal, p),
        // The person at the keyboard hands the browser back: the socket is
        // owner-only, so any client of this user may say so.
        "takeover/done" => crate::broker::native::takeover::done_method(broker, p),
        "artifacts/import" => {
            let ws = str_param(p, "workspaceId")?;
            broker
                .state()
                .live_lease(principal, ws, str_param(p, "leaseId")?)?;
            broker
                .artifacts
                .import(ws, std::path::Path::new(str_param(p, "path")?))
        }
        "artifacts/list" => {
            let ws = str_param(p, "workspaceId")?;
            broker.state().workspace(principal, ws)?;
            Ok(json!({"artifacts": broker.artifacts.list(ws)}))
        }
        "artifacts/get" | "artifacts/export" | "artifacts/retain" | "artifacts/release" => {
            artifact_method(broker, principal, method, p)
        }
        "shutdown" => Ok(json!({})),
        other => Err(BpError::invalid(format!("unknown method `{other}`"))
            .with_context(json!({"method": other}))),
    }
}

/// `commands/get` (owner or observer) and `commands/cancel` (owner).
fn command_method(broker: &Broker, principal: &str, method: &str, p: &Value) -> BpResult<Value> {
    let id = str_param(p, "commandId")?;
    let ws = opt_str(p, "workspaceId");
    let mut st = broker.state();
    if let Some(ws) = ws {
        // Only the workspace's owner reaches its commands.
        let readable = if method == "commands/get" {
            st.readable(principal, ws).map(|_| ())
        } else {
            st.workspace(principal, ws).map(|_| ())
        };
        readable.map_err(|_| {
            BpError::invalid("no such command for this client")
                .with_context(json!({"commandId": id}))
        })?;
    }
    if method == "commands/get" {
        st.commands.get(principal, id, ws)
    } else {
        st.commands.cancel(principal, id, ws)
    }
}

/// `initialize`'s `session {workspaceKey, leaseKey?, leaseTtlMs?}`: the
/// keyed workspace and lease (created, or reused when the keys are known),
/// so a one-shot client's `tools/call` can follow in the same write.
fn open_session(broker: &Broker, conn: &mut Connection, session: &Value) -> BpResult<Value> {
    let principal = conn.principal()?;
    let key = |k: &str| {
        session
            .get(k)
            .and_then(Value::as_str)
            .filter(|s| !s.is_empty() && s.len() <= 128)
    };
    let ws_key = key("workspaceKey").ok_or_else(|| {
        BpError::invalid("`session.workspaceKey` must be a string of 1-128 characters")
    })?;
    let lease_key = key("leaseKey").unwrap_or(ws_key);
    let ttl = match session.get("leaseTtlMs") {
        None | Some(Value::Null) => DEFAULT_LEASE_TTL,
        Some(v) => Duration::from_millis(
            v.as_u64()
                .ok_or_else(|| BpError::invalid("`session.leaseTtlMs` must be an integer"))?,
        ),
    };
    let secret = match session.get("resumeSecret") {
        None | Some(Value::Null) => None,
        Some(v) => Some(v.as_str().filter(|s| s.len() <= 128).ok_or_else(|| {
            BpError::invalid("`session.resumeSecret` must be a string of at most 128 characters")
        })?),
    };
    let mut st = broker.state();
    // All or nothing: a workspace taken over from its owner must get its
    // lease, so whether it can is checked before it changes hands. (A
    // workspace made now has room.)
    if let Some(id) = st.resumable(&principal, ws_key, secret) {
        st.lease_room(&id, Some(lease_key))?;
    }
    let ws = st.open_keyed(&principal, ws_key, secret)?;
    let lease = st.create_lease(&principal, &ws.id, ttl, Some(lease_key))?;
    let (lease_id, expires) = (lease.id.clone(), unix_ms(lease.expires));
    let cursor = st.cursor(&ws.id);
    conn.session = Some((
        crate::ids::WorkspaceId::new(ws.id.as_str()),
        lease_id.clone(),
    ));
    Ok(
        json!({"workspaceId": ws.id, "leaseId": lease_id, "expiresAt": expires, "eventCursor": cursor,
              "resumeSecret": ws.resume_secret, "resumed": ws.resumed}),
    )
}

fn lease_create(broker: &Broker, principal: &str, p: &Value) -> BpResult<Value> {
    let ws = str_param(p, "workspaceId")?;
    let ttl = p
        .get("ttlMs")
        .and_then(Value::as_u64)
        .map(Duration::from_millis)
        .unwrap_or(DEFAULT_LEASE_TTL);
    let mut st = broker.state();
    let lease = st.create_lease(principal, ws, ttl, opt_str(p, "key"))?;
    Ok(
        json!({"leaseId": lease.id, "expiresAt": unix_ms(lease.expires), "ttlMs": lease.ttl.as_millis() as u64}),
    )
}

fn lease_heartbeat(broker: &Broker, principal: &str, id: &str) -> BpResult<Value> {
    let expired = || BpError::new(Code::LeaseExpired, "the lease has expired");
    let mut st = broker.state();
    let ws = st
        .leases
        .get(id)
        .map(|l| l.workspace_id.clone())
        .ok_or_else(expired)?;
    let lease = st.live_lease(principal, &ws, id).map_err(|_| expired())?;
    lease.expires = std::time::Instant::now() + lease.ttl;
    Ok(json!({"expiresAt": unix_ms(lease.expires)}))
}

fn events_poll(broker: &Broker, principal: &str, p: &Value) -> BpResult<Value> {
    let ws = str_param(p, "workspaceId")?;
    let cursor = str_param(p, "cursor")?;
    let limit = p.get("limit").and_then(Value::as_u64).unwrap_or(100) as usize;
    let mut st = broker.state();
    st.readable(principal, ws)?;
    let journal = st.journals.entry(ws.to_string()).or_default();
    journal.poll(cursor, limit)
}

/// An artifact method, on an artifact of one of the principal's
/// workspaces.
fn artifact_method(broker: &Broker, principal: &str, method: &str, p: &Value) -> BpResult<Value> {
    let id = str_param(p, "artifactId")?;
    let owned = broker.state().workspaces_of(principal);
    let owns = |ws: &str| owned.iter().any(|w| w == ws);
    match method {
        "artifacts/get" => broker.artifacts.get(id, &owns),
        "artifacts/retain" => broker.artifacts.retain(id, &owns),
        "artifacts/release" => broker
            .artifacts
            .release(id, &owns)
            .map(|()| json!({"released": true})),
        _ => broker
            .artifacts
            .export(id, &owns, std::path::Path::new(str_param(p, "path")?)),
    }
}

/// `limits.KEY` from `initialize`, which may only lower `current`.
fn error_code(e: &BpError) -> i64 {
    match e.code {
        Code::InvalidArgument
            if e.context
                .as_ref()
                .is_some_and(|c| c.get("method").is_some()) =>
        {
            -32601
        }
        Code::InvalidArgument => -32602,
        _ => -32000,
    }
}

/// A JSON-RPC response, or `result_too_large` when it exceeds the
/// connection's negotiated result size.
pub(in crate::broker) fn response(
    id: &Value,
    result: BpResult<Value>,
    max_result: usize,
) -> String {
    match result {
        Ok(result) => {
            let line = json!({"jsonrpc": "2.0", "id": id, "result": result}).to_string();
            if line.len() > max_result {
                let e = BpError::new(
                    Code::ResultTooLarge,
                    format!("the result exceeds {max_result} bytes"),
                );
                rpc_error(id, -32000, &e)
            } else {
                line
            }
        }
        Err(e) => rpc_error(id, error_code(&e), &e),
    }
}
