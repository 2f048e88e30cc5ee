//! The owner-only local socket: accept connections from the same user and
//! speak newline-delimited JSON-RPC 2.0 on them.

use super::locator::{Locator, LOCATOR_VERSION};
use super::rpc::{self, Connection, MAX_MESSAGE_BYTES};
use super::{Broker, PROTOCOL_MAX, PROTOCOL_MIN, VERSION};
use crate::error::{BpError, BpResult, Code};
use interprocess::local_socket::tokio::Stream;
use interprocess::local_socket::traits::tokio::Listener as _;
use interprocess::local_socket::{GenericFilePath, ListenerOptions, ToFsName};
use interprocess::os::unix::local_socket::ListenerOptionsExt as _;
use serde_json::{json, Value};
use std::sync::Arc;
use std::time::Duration;
use tokio::io::{AsyncBufReadExt, AsyncReadExt, AsyncWriteExt, BufReader};

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
        executable: std::env::current_exe()
            .map(|p| p.display().to_string())
            .unwrap_or_default(),
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

fn rpc_error(id: &Value, code: i64, e: &BpError) -> String {
    json!({"jsonrpc": "2.0", "id": id, "error": {"code": code, "message": e.message, "data": e.to_json()}}).to_string()
}

async fn serve_connection(broker: Arc<Broker>, stream: Stream) {
    if !same_user(&stream) {
        tracing::warn!("refused a connection from another user");
        return;
    }
    broker
        .connections
        .fetch_add(1, std::sync::atomic::Ordering::Relaxed);
    let mut conn = Connection {
        id: crate::ids::new_id("conn"),
        principal: None,
    };
    let mut reader = BufReader::new(&stream);
    let mut writer = &stream;
    let mut line = Vec::new();
    loop {
        line.clear();
        let limit = (MAX_MESSAGE_BYTES + 1) as u64;
        match (&mut reader).take(limit).read_until(b'\n', &mut line).await {
            Ok(0) | Err(_) => break,
            Ok(_) => {}
        }
        let (reply, fatal) = if line.len() > MAX_MESSAGE_BYTES && !line.ends_with(b"\n") {
            let e = BpError::new(
                Code::ResultTooLarge,
                format!("message larger than {MAX_MESSAGE_BYTES} bytes"),
            );
            (Some(rpc_error(&Value::Null, -32600, &e)), true)
        } else {
            handle_line(&broker, &mut conn, &line).await
        };
        if let Some(reply) = reply {
            let mut bytes = reply.into_bytes();
            bytes.push(b'\n');
            if writer.write_all(&bytes).await.is_err() {
                break;
            }
        }
        if fatal {
            break;
        }
    }
    broker
        .connections
        .fetch_sub(1, std::sync::atomic::Ordering::Relaxed);
}

/// One message in, at most one reply out; `true` ends the connection.
async fn handle_line(
    broker: &Arc<Broker>,
    conn: &mut Connection,
    line: &[u8],
) -> (Option<String>, bool) {
    let text = String::from_utf8_lossy(line);
    if text.trim().is_empty() {
        return (None, false);
    }
    let msg: Value = match serde_json::from_str(text.trim()) {
        Ok(v) => v,
        Err(e) => {
            return (
                Some(rpc_error(
                    &Value::Null,
                    -32700,
                    &BpError::invalid(format!("parse error: {e}")),
                )),
                true,
            )
        }
    };
    let id = msg.get("id").cloned().unwrap_or(Value::Null);
    let Some(method) = msg.get("method").and_then(Value::as_str) else {
        return (
            Some(rpc_error(
                &id,
                -32600,
                &BpError::invalid("not a JSON-RPC request"),
            )),
            false,
        );
    };
    let params = msg.get("params").cloned().unwrap_or(json!({}));
    let result = rpc::handle(broker, conn, method, params).await;
    if msg.get("id").is_none() {
        return (None, false);
    }
    let reply = match result {
        Ok(result) => json!({"jsonrpc": "2.0", "id": id, "result": result}).to_string(),
        Err(e) => {
            let code = match e.code {
                Code::InvalidArgument
                    if e.context
                        .as_ref()
                        .is_some_and(|c| c.get("method").is_some()) =>
                {
                    -32601
                }
                Code::InvalidArgument => -32602,
                _ => -32000,
            };
            rpc_error(&id, code, &e)
        }
    };
    (Some(reply), method == "shutdown")
}
