//! JSON-RPC methods of the broker socket (shared by the one-shot CLI and
//! `bp bridge --stdio`). `tools/call` lives in [`crate::broker::call`].

pub mod framing;
pub(in crate::broker) mod params;
pub(in crate::broker) mod progress;
pub(in crate::broker) mod requests;
pub(in crate::broker) mod server;

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
    pub session: Option<(String, String)>,
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
        "artifacts/import" => {
            let ws = str_param(p, "workspaceId")?;
            broker
                .state()
                .live_lease(principal, ws, str_param(p, "leaseId")?)?;
            broker
                .artifacts
                .import(ws, std::path::Path::new(str_param(p, "path")?))
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
    conn.session = Some((ws.id.clone(), lease_id.clone()));
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
fn lowered(params: &Value, key: &str, current: usize) -> BpResult<usize> {
    match params["limits"].get(key) {
        None | Some(Value::Null) => Ok(current),
        Some(v) => {
            let n = v
                .as_u64()
                .filter(|n| *n >= MIN_NEGOTIATED_BYTES)
                .ok_or_else(|| {
                    BpError::invalid(format!(
                        "`limits.{key}` must be an integer of at least {MIN_NEGOTIATED_BYTES}"
                    ))
                })?;
            Ok(current.min(usize::try_from(n).unwrap_or(usize::MAX)))
        }
    }
}

fn initialize(conn: &mut Connection, params: &Value, offered: &[&'static str]) -> BpResult<Value> {
    if conn.principal.is_some() {
        return Err(BpError::invalid(
            "`initialize` was already called on this connection",
        ));
    }
    let name = params["client"]["name"]
        .as_str()
        .filter(|n| !n.is_empty())
        .unwrap_or("anonymous");
    if name.len() > 128 {
        return Err(BpError::invalid(
            "`client.name` is longer than 128 characters",
        ));
    }
    // A client that must not work with another build says so up front, so
    // requests sent right behind `initialize` never reach a wrong broker.
    if let Some(wanted) = params["require"].get("serviceVersion") {
        if wanted.as_str() != Some(VERSION) {
            return Err(BpError::new(
                Code::ProtocolIncompatible,
                format!("the running broker is version {VERSION}, the client requires {wanted}; stop it with `bp broker stop`"),
            )
            .with_context(json!({"service": {"version": VERSION}})));
        }
    }
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
    if lo > hi || cmin > cmax {
        return Err(BpError::new(Code::ProtocolIncompatible, "no protocol version in common").with_context(json!({
            "client": {"min": min, "max": max}, "service": {"min": PROTOCOL_MIN, "max": PROTOCOL_MAX}})));
    }
    // Protocol 1.1 lets the client lower the transport limits.
    let (max_message, max_result) = if hi >= (1, 1) {
        (
            lowered(params, "maxMessageBytes", conn.max_message)?,
            lowered(params, "maxResultBytes", conn.max_result)?,
        )
    } else {
        (conn.max_message, conn.max_result)
    };
    let requested: Vec<&str> = params["capabilities"]
        .as_array()
        .into_iter()
        .flatten()
        .filter_map(Value::as_str)
        .collect();
    let supported: Vec<&str> = offered.to_vec();
    let granted: Vec<&str> = requested
        .iter()
        .copied()
        .filter(|c| supported.contains(c))
        .collect();
    // Nothing fails from here on: a failed `initialize` changed nothing.
    conn.max_message = max_message;
    conn.max_result = max_result;
    conn.grants = Grants::from_names(&granted);
    conn.principal = Some(identity::principal_of(name, &conn.id));
    Ok(json!({
        "service": {"version": VERSION},
        "executable": {"version": VERSION},
        "protocolVersion": format!("{}.{}", hi.0, hi.1),
        "capabilities": {"supported": supported, "requested": requested, "granted": granted},
        "broker": {"processId": std::process::id(), "connectionId": conn.id},
        "limits": {"maxMessageBytes": conn.max_message, "maxResultBytes": conn.max_result},
    }))
}

/// `broker/stop`: compare-and-stop. The caller names the broker it means
/// (`pid`, `executable`, from the locator); another broker is never
/// stopped. Live leases of other clients refuse the stop unless `force`.
fn stop(broker: &Arc<Broker>, caller: &str, params: &Value) -> BpResult<Value> {
    let mismatch = |what: &str| {
        BpError::new(
            Code::ProtocolIncompatible,
            format!("this broker is not the one named ({what} differs); nothing was stopped"),
        )
    };
    let force = match params.get("force") {
        None | Some(Value::Null) => false,
        Some(Value::Bool(b)) => *b,
        Some(_) => return Err(BpError::invalid("`force` must be true or false")),
    };
    match params.get("pid").filter(|v| !v.is_null()) {
        Some(pid) if pid.as_u64() != Some(u64::from(std::process::id())) => {
            return Err(mismatch("process ID"))
        }
        Some(_) => {}
        None if !force => return Err(BpError::invalid(
            "name the broker to stop with `pid` (from the locator or initialize), or pass force",
        )),
        None => {}
    }
    if let Some(exe) = params.get("executable").filter(|v| !v.is_null()) {
        let own = crate::broker::connect::locator::own_executable();
        if exe.as_str() != Some(own.as_str()) {
            return Err(mismatch("installation"));
        }
    }
    // The caller's own work does not hold the broker up; the one-shot
    // CLI's stop (sent before any initialize) speaks for the CLI's.
    let own = |p: &str| {
        if caller.is_empty() {
            identity::client_name(p) == CLI_PRINCIPAL
        } else {
            p == caller
        }
    };
    let others = broker.state().live_workspaces(None, &own);
    if !others.is_empty() && !force {
        return Err(crate::broker::native::in_use(&others, "stop the broker"));
    }
    // Counted now, before the reply: the process is gone soon after.
    let ended = broker.stop_report();
    broker.shutdown.notify_one();
    Ok(json!({"stopping": true, "endedWorkspaces": others.len(), "ended": ended}))
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
    let mut browser = browser_state(broker).await;
    if let Ok(conn) = broker.browser().await {
        let (open, attached) = conn.registry.counts();
        browser["targets"] = json!({"open": open, "attached": attached});
        let (domain, invoke) = conn.registry.page_tool_service();
        browser["pageTools"] = json!({"domain": domain, "invoke": invoke});
        let [page, accessibility, known, with_walk] = conn.registry.described();
        browser["elementsDescribed"] = json!({"byPage": page, "byAccessibility": accessibility,
            "alreadyIdentified": known, "idWithWalk": with_walk});
        let (held, backend) = conn.registry.refs_resolved();
        browser["refsResolved"] = json!({"byHeldObject": held, "byBackendNode": backend});
        let (by_source, by_agent) = conn.registry.walks();
        browser["pageWalks"] = json!({"bySource": by_source, "byAgent": by_agent});
        let [with_text, again, early] = conn.registry.readback_counts(Proof::Typed);
        browser["typedReadbacks"] =
            json!({"withText": with_text, "readAgain": again, "sentAgainEarly": early});
        let [with_release, again, early] = conn.registry.readback_counts(Proof::Clicked);
        browser["clickReadbacks"] =
            json!({"withRelease": with_release, "readAgain": again, "sentAgainEarly": early});
        let [with_key, again, early] = conn.registry.readback_counts(Proof::Keyed);
        browser["keyReadbacks"] =
            json!({"withKey": with_key, "readAgain": again, "sentAgainEarly": early});
    }
    Ok(json!({
        "pid": std::process::id(),
        "version": VERSION,
        "protocol": {"min": PROTOCOL_MIN, "max": PROTOCOL_MAX},
        "uptimeMs": broker.started.elapsed().as_millis() as u64,
        "socket": broker.paths.socket,
        "browser": browser,
        "connections": broker.connections.load(std::sync::atomic::Ordering::Relaxed),
        "cdpCommandsSent": broker.cdp_commands_sent().await,
        "runtime": broker.runtime.describe(),
    }))
}

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
