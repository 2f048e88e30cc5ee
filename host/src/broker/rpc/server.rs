//! The owner-only local socket: accept connections from the same user and
//! speak newline-delimited JSON-RPC 2.0 on them.

use crate::broker::call::{self, PendingCall};
use crate::broker::connect::locator::Locator;
use crate::broker::rpc::requests::MAX_PENDING_CALLS;
use crate::broker::rpc::response;
use crate::broker::rpc::MAX_MESSAGE_BYTES;
use crate::broker::Broker;
use crate::error::{BpError, BpResult};
use interprocess::local_socket::tokio::{Listener, Stream};
use interprocess::local_socket::traits::tokio::Listener as _;
use interprocess::local_socket::{GenericFilePath, ListenerOptions, ToFsName};
use interprocess::os::unix::local_socket::ListenerOptionsExt as _;
use serde_json::Value;
use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::Arc;
use std::time::Duration;
use tokio::io::AsyncWriteExt;
use tokio::sync::mpsc;

/// Serve until `broker/stop` (or a signal), holding `claim` on the home
/// until the end.
pub async fn serve(broker: Arc<Broker>, claim: crate::broker::Claim) -> BpResult<()> {
    let paths = broker.paths.clone();
    let listener = listen(&paths)?;
    let locator = Locator::for_this_process(&paths);
    locator.write(&paths)?;
    tracing::info!(pid = locator.pid, socket = %paths.socket.display(), "broker ready");
    spawn_sweeper(broker.clone());
    accept_until_stopped(&broker, listener).await?;
    tracing::info!("broker stopping");
    // Let the reply to `broker/stop` reach its client: wait (briefly) for
    // open connections to finish before the process ends.
    let drained = std::time::Instant::now();
    while broker.connections.load(Ordering::Relaxed) > 0 && drained.elapsed() < STOP_GRACE {
        tokio::time::sleep(Duration::from_millis(5)).await;
    }
    // The broker's own tabs go with it; user tabs are never touched.
    broker.close_all_managed().await;
    broker.drop_browser().await;
    // Only remove the locator and socket if they are still ours.
    if Locator::read(&paths).is_some_and(|l| l.pid == std::process::id()) {
        let _ = std::fs::remove_file(&paths.locator);
        let _ = std::fs::remove_file(&paths.socket);
    }
    drop(claim);
    Ok(())
}

/// The owner-only listening socket.
fn listen(paths: &crate::system::paths::Paths) -> BpResult<Listener> {
    let name = paths
        .socket
        .as_path()
        .to_fs_name::<GenericFilePath>()
        .map_err(|e| BpError::internal(format!("socket name: {e}")))?;
    ListenerOptions::new()
        .name(name)
        .mode(0o600)
        .try_overwrite(true)
        .create_tokio()
        .map_err(|e| BpError::internal(format!("cannot listen on {}: {e}", paths.socket.display())))
}

/// Once a second: expire leases, release abandoned workspaces, sweep
/// artifacts, watch dialogs.
fn spawn_sweeper(broker: Arc<Broker>) {
    tokio::spawn(async move {
        loop {
            tokio::time::sleep(Duration::from_secs(1)).await;
            release_orphans(&broker).await;
            broker.clear_released_overrides().await;
            broker.artifacts.sweep();
            crate::broker::watch::dialog_watchdog(&broker).await;
        }
    });
}

/// Release the workspaces nobody resumed in time (see `connect/identity.rs`).
pub async fn release_orphans(broker: &Broker) {
    let due = broker.state().orphans_due(std::time::Instant::now());
    for (principal, id) in due {
        let _ = crate::broker::workspaces::release(broker, &principal, &id).await;
    }
}

/// Serve connections until `broker/stop`, SIGTERM or Ctrl-C.
async fn accept_until_stopped(broker: &Arc<Broker>, listener: Listener) -> BpResult<()> {
    let mut terminate = tokio::signal::unix::signal(tokio::signal::unix::SignalKind::terminate())
        .map_err(|e| BpError::internal(format!("signal handler: {e}")))?;
    loop {
        tokio::select! {
            accepted = listener.accept() => match accepted {
                Ok(stream) => {
                    tracing::trace!("connection accepted");
                    let b = broker.clone();
                    tokio::spawn(async move { serve_connection(b, stream).await });
                }
                Err(e) => tracing::warn!("accept failed: {e}"),
            },
            _ = broker.shutdown.notified() => return Ok(()),
            _ = terminate.recv() => return Ok(()),
            _ = tokio::signal::ctrl_c() => return Ok(()),
        }
    }
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

/// How long a stopping broker waits for its clients to read their replies.
const STOP_GRACE: Duration = Duration::from_millis(500);

/// Replies from this size on are followed by returning freed heap
/// memory to the system (a large observation parses and builds several
/// times its size).
const TRIM_AFTER_BYTES: usize = 256 * 1024;

async fn serve_connection(broker: Arc<Broker>, stream: Stream) {
    if !same_user(&stream) {
        tracing::warn!("refused a connection from another user");
        return;
    }
    serve_io(broker, &stream, &stream).await;
}

/// Serve one connection's JSON-RPC over any byte streams (the socket, or
/// the fuzz harness's buffers).
pub async fn serve_io<R, W>(broker: Arc<Broker>, input: R, mut output: W)
where
    R: tokio::io::AsyncRead + Unpin,
    W: tokio::io::AsyncWrite + Unpin,
{
    broker.connections.fetch_add(1, Ordering::Relaxed);
    let max_result = Arc::new(AtomicUsize::new(MAX_MESSAGE_BYTES));
    let (out_tx, mut out_rx) = mpsc::channel::<String>(1024);
    let (call_tx, mut call_rx) =
        mpsc::channel::<(Option<Value>, Box<PendingCall>)>(MAX_PENDING_CALLS);

    let writer = async {
        while let Some(mut line) = out_rx.recv().await {
            line.push('\n');
            if output.write_all(line.as_bytes()).await.is_err() {
                break;
            }
            if line.len() > TRIM_AFTER_BYTES {
                // What built a large reply is freed by now.
                drop(line);
                crate::system::heap::trim_soon();
            }
        }
        let _ = output.flush().await;
    };
    let worker_out = out_tx.clone();
    let worker_broker = broker.clone();
    let worker_max = max_result.clone();
    // Calls run one at a time, in the order they arrived.
    let worker = async move {
        while let Some((id, call)) = call_rx.recv().await {
            tracing::trace!("call started");
            let reply = call::execute(&worker_broker, *call).await;
            let Some(id) = id else { continue };
            let line = response(&id, Ok(reply), worker_max.load(Ordering::Relaxed));
            tracing::trace!(bytes = line.len(), "call answered");
            if worker_out.send(line).await.is_err() {
                break;
            }
        }
    };
    let reader =
        crate::broker::rpc::requests::read(&broker, input, out_tx, call_tx, max_result.clone());
    tokio::join!(reader, worker, writer);
    broker.connections.fetch_sub(1, Ordering::Relaxed);
}
