//! The owner-only local socket: accept connections from the same user and
//! speak newline-delimited JSON-RPC 2.0 on them.

use super::calls::{self, Intake, PendingCall};
use super::locator::{Locator, LOCATOR_VERSION};
use super::rpc::{self, Connection, MAX_MESSAGE_BYTES};
use super::{Broker, PROTOCOL_MAX, PROTOCOL_MIN, VERSION};
use crate::error::{BpError, BpResult, Code};
use interprocess::local_socket::tokio::Stream;
use interprocess::local_socket::traits::tokio::Listener as _;
use interprocess::local_socket::{GenericFilePath, ListenerOptions, ToFsName};
use interprocess::os::unix::local_socket::ListenerOptionsExt as _;
use serde_json::{json, Value};
use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::Arc;
use std::time::Duration;
use tokio::io::{AsyncBufReadExt, AsyncReadExt, AsyncWriteExt, BufReader};
use tokio::sync::mpsc;

/// Serve until `broker/stop` (or a signal). Refuses to start when a live
/// broker already answers on the socket.
pub async fn serve(broker: Arc<Broker>) -> BpResult<()> {
    let paths = broker.paths.clone();
    paths.prepare()?;
    // Held for the broker's whole life: a second broker for the same home
    // cannot start, and the kernel releases it if this process dies.
    let in_use = || {
        BpError::new(
            Code::BrokerInUse,
            "a broker is already running for this BROWSER_PILOT_HOME",
        )
    };
    let _serving = crate::client::FileLock::try_acquire(&paths.home.join("broker.serve.lock"))
        .ok_or_else(in_use)?;
    if crate::client::Client::connect(&paths).await.is_ok() {
        return Err(in_use());
    }
    let name = paths
        .socket
        .as_path()
        .to_fs_name::<GenericFilePath>()
        .map_err(|e| BpError::internal(format!("socket name: {e}")))?;
    let listener = ListenerOptions::new()
        .name(name)
        .mode(0o600)
        .try_overwrite(true)
        .create_tokio()
        .map_err(|e| {
            BpError::internal(format!("cannot listen on {}: {e}", paths.socket.display()))
        })?;
    let locator = Locator {
        locator_version: LOCATOR_VERSION,
        pid: std::process::id(),
        socket: paths.socket.display().to_string(),
        started_at_ms: std::time::SystemTime::now()
            .duration_since(std::time::UNIX_EPOCH)
            .map(|d| d.as_millis() as u64)
            .unwrap_or(0),
        service_version: VERSION.to_string(),
        executable: super::locator::own_executable(),
        protocol_min: PROTOCOL_MIN.to_string(),
        protocol_max: PROTOCOL_MAX.to_string(),
    };
    locator.write(&paths)?;
    tracing::info!(pid = locator.pid, socket = %paths.socket.display(), "broker ready");

    let sweeper = broker.clone();
    tokio::spawn(async move {
        loop {
            tokio::time::sleep(Duration::from_secs(1)).await;
            sweeper.state().expire_leases();
            sweeper.artifacts.sweep();
            super::signals::dialog_watchdog(&sweeper).await;
        }
    });

    let mut terminate = tokio::signal::unix::signal(tokio::signal::unix::SignalKind::terminate())
        .map_err(|e| BpError::internal(format!("signal handler: {e}")))?;
    loop {
        tokio::select! {
            accepted = listener.accept() => match accepted {
                Ok(stream) => {
                    let b = broker.clone();
                    tokio::spawn(async move { serve_connection(b, stream).await });
                }
                Err(e) => tracing::warn!("accept failed: {e}"),
            },
            _ = broker.shutdown.notified() => break,
            _ = terminate.recv() => break,
            _ = tokio::signal::ctrl_c() => break,
        }
    }
    tracing::info!("broker stopping");
    // The broker's own tabs go with it; user tabs are never touched.
    broker.close_all_managed().await;
    broker.drop_browser().await;
    // Only remove the locator and socket if they are still ours.
    if Locator::read(&paths).is_some_and(|l| l.pid == std::process::id()) {
        let _ = std::fs::remove_file(&paths.locator);
        let _ = std::fs::remove_file(&paths.socket);
    }
    Ok(())
}

fn same_user(stream: &Stream) -> bool {
    use interprocess::local_socket::traits::StreamCommon;
    // SAFETY: geteuid cannot fail.
    let me = unsafe { libc::geteuid() };
    stream
        .peer_creds()
        .ok()
        .and_then(|c| c.euid())
        .is_some_and(|uid| uid == me)
}

/// Calls a connection may have accepted but not yet run.
const MAX_PENDING_CALLS: usize = 256;

fn rpc_error(id: &Value, code: i64, e: &BpError) -> String {
    json!({"jsonrpc": "2.0", "id": id, "error": {"code": code, "message": e.message, "data": e.to_json()}})
        .to_string()
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
fn response(id: &Value, result: BpResult<Value>, max_result: usize) -> String {
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

async fn serve_connection(broker: Arc<Broker>, stream: Stream) {
    if !same_user(&stream) {
        tracing::warn!("refused a connection from another user");
        return;
    }
    broker.connections.fetch_add(1, Ordering::Relaxed);
    let max_result = Arc::new(AtomicUsize::new(MAX_MESSAGE_BYTES));
    let (out_tx, mut out_rx) = mpsc::channel::<String>(1024);
    let (call_tx, mut call_rx) =
        mpsc::channel::<(Option<Value>, Box<PendingCall>)>(MAX_PENDING_CALLS);

    let writer = async {
        let mut w = &stream;
        while let Some(mut line) = out_rx.recv().await {
            line.push('\n');
            if w.write_all(line.as_bytes()).await.is_err() {
                break;
            }
        }
    };
    let worker_out = out_tx.clone();
    let worker_broker = broker.clone();
    let worker_max = max_result.clone();
    // Calls run one at a time, in the order they arrived.
    let worker = async move {
        while let Some((id, call)) = call_rx.recv().await {
            let reply = calls::execute(&worker_broker, *call).await;
            let Some(id) = id else { continue };
            let line = response(&id, Ok(reply), worker_max.load(Ordering::Relaxed));
            if worker_out.send(line).await.is_err() {
                break;
            }
        }
    };
    let reader = read_requests(&broker, &stream, out_tx, call_tx, max_result.clone());
    tokio::join!(reader, worker, writer);
    broker.connections.fetch_sub(1, Ordering::Relaxed);
}

async fn read_requests(
    broker: &Arc<Broker>,
    stream: &Stream,
    out: mpsc::Sender<String>,
    calls_tx: mpsc::Sender<(Option<Value>, Box<PendingCall>)>,
    max_result: Arc<AtomicUsize>,
) {
    let mut conn = Connection::new();
    let mut reader = BufReader::new(stream);
    let mut line = Vec::new();
    let mut forwarder: Option<tokio::task::JoinHandle<()>> = None;
    loop {
        line.clear();
        let limit = (conn.max_message + 1) as u64;
        match (&mut reader).take(limit).read_until(b'\n', &mut line).await {
            Ok(0) | Err(_) => break,
            Ok(_) => {}
        }
        if line.len() > conn.max_message && !line.ends_with(b"\n") {
            let e = BpError::new(
                Code::ResultTooLarge,
                format!("message larger than {} bytes", conn.max_message),
            );
            let _ = out.send(rpc_error(&Value::Null, -32600, &e)).await;
            break;
        }
        let text = String::from_utf8_lossy(&line);
        if text.trim().is_empty() {
            continue;
        }
        let msg: Value = match serde_json::from_str(text.trim()) {
            Ok(v) => v,
            Err(e) => {
                let err = BpError::invalid(format!("parse error: {e}"));
                let _ = out.send(rpc_error(&Value::Null, -32700, &err)).await;
                break;
            }
        };
        let id = msg.get("id").cloned().unwrap_or(Value::Null);
        let is_request = msg.get("id").is_some();
        let Some(method) = msg
            .get("method")
            .and_then(Value::as_str)
            .map(str::to_string)
        else {
            let _ = out
                .send(rpc_error(
                    &id,
                    -32600,
                    &BpError::invalid("not a JSON-RPC request"),
                ))
                .await;
            continue;
        };
        let params = msg.get("params").cloned().unwrap_or(json!({}));
        let max = max_result.load(Ordering::Relaxed);

        if method == "tools/call" {
            let intake = conn
                .principal()
                .and_then(|p| calls::accept(broker, &p, conn.eval_granted, &params));
            match intake {
                Ok(Intake::Run(call)) if call.overtakes() => {
                    // Dialog answers must not wait behind a paused command.
                    let (b, o) = (broker.clone(), out.clone());
                    tokio::spawn(async move {
                        let reply = calls::execute(&b, *call).await;
                        if is_request {
                            let _ = o.send(response(&id, Ok(reply), max)).await;
                        }
                    });
                }
                Ok(Intake::Run(call)) => {
                    let reply_to = is_request.then(|| id.clone());
                    if let Err(
                        mpsc::error::TrySendError::Full((_, call))
                        | mpsc::error::TrySendError::Closed((_, call)),
                    ) = calls_tx.try_send((reply_to, call))
                    {
                        // Refused: the accepted record must not stay pending.
                        let e = BpError::internal(format!(
                            "more than {MAX_PENDING_CALLS} calls pending; wait for replies"
                        ));
                        let reply = calls::refuse(broker, *call, e);
                        if is_request {
                            let _ = out.send(response(&id, Ok(reply), max)).await;
                        }
                    }
                }
                Ok(Intake::Reply(reply)) if is_request => {
                    let _ = out.send(response(&id, Ok(reply), max)).await;
                }
                Err(e) if is_request => {
                    let _ = out.send(response(&id, Err(e), max)).await;
                }
                // Notifications get no reply.
                Ok(_) | Err(_) => {}
            }
            continue;
        }
        if rpc::overtakes(&method) {
            if let Ok(principal) = conn.principal() {
                // Control calls overtake pending tool calls.
                let (b, o) = (broker.clone(), out.clone());
                tokio::spawn(async move {
                    let result = rpc::handle_initialized(&b, &principal, &method, params).await;
                    if is_request {
                        let _ = o.send(response(&id, result, max)).await;
                    }
                });
                continue;
            }
        }
        let was_initialized = conn.principal.is_some();
        let result = rpc::handle(broker, &mut conn, &method, params).await;
        if !was_initialized && result.is_ok() {
            max_result.store(conn.max_result, Ordering::Relaxed);
            forwarder = conn
                .principal
                .clone()
                .map(|p| forward_events(broker, p, out.clone()));
        }
        if is_request {
            let _ = out
                .send(response(&id, result, max_result.load(Ordering::Relaxed)))
                .await;
        }
        if method == "shutdown" {
            break;
        }
    }
    if let Some(f) = forwarder {
        f.abort();
    }
}

/// Push the principal's events as `events/event` notifications. Best
/// effort: a slow client misses pushes and catches up with `events/poll`.
fn forward_events(
    broker: &Arc<Broker>,
    principal: String,
    out: mpsc::Sender<String>,
) -> tokio::task::JoinHandle<()> {
    let mut rx = broker.events.subscribe();
    tokio::spawn(async move {
        loop {
            match rx.recv().await {
                Ok(n) if n.0 == principal => {
                    let note = json!({"jsonrpc": "2.0", "method": "events/event", "params": n.1})
                        .to_string();
                    if out.try_send(note).is_err() && out.is_closed() {
                        break;
                    }
                }
                Ok(_) => {}
                Err(tokio::sync::broadcast::error::RecvError::Lagged(_)) => {}
                Err(_) => break,
            }
        }
    })
}
