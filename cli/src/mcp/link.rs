//! One connection to the broker shared by every request of an MCP session:
//! requests go out as they come and each reply finds its caller by ID, so
//! a heartbeat or a cancel never waits behind a long call. Lines are
//! written whole by a writer task of their own: a request dropped while
//! its line was being written (a call the client cancelled, or the end of
//! the session) can never leave half a line on the socket, which would
//! corrupt the next request (the session's release was lost that way).

use browser_pilot_host::client::{connect_stream, ensure_broker, Untrusted};
use browser_pilot_host::system::paths::Paths;
use browser_pilot_host::{BpError, BpResult};
use serde_json::{json, Value};
use std::collections::HashMap;
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::{Arc, Mutex};
use tokio::io::{AsyncBufReadExt, AsyncWriteExt, BufReader};
use tokio::sync::{mpsc, oneshot};

type Waiting = Arc<Mutex<HashMap<u64, oneshot::Sender<Value>>>>;

/// The broker connection.
pub struct Link {
    /// Whole lines for the writer task.
    lines: mpsc::UnboundedSender<String>,
    waiting: Waiting,
    next_id: AtomicU64,
}

impl Link {
    /// Start or find the broker, then connect (checked like every client).
    pub async fn open(paths: &Paths) -> BpResult<Arc<Self>> {
        drop(ensure_broker(paths, &["broker", "serve"]).await?);
        let stream = connect_stream(paths).map_err(Untrusted::into_error)?;
        let stream = stream
            .set_nonblocking(true)
            .and_then(|()| tokio::net::UnixStream::from_std(stream))
            .map_err(|e| BpError::internal(format!("broker connection: {e}")))?;
        let (read, write) = stream.into_split();
        let waiting: Waiting = Arc::default();
        let routes = waiting.clone();
        tokio::spawn(async move {
            let mut lines = BufReader::with_capacity(64 << 10, read).lines();
            while let Ok(Some(line)) = lines.next_line().await {
                let Ok(msg) = serde_json::from_str::<Value>(&line) else {
                    continue;
                };
                // Notifications (pushed events) have no ID: the session
                // polls the journal instead.
                let Some(id) = msg.get("id").and_then(Value::as_u64) else {
                    continue;
                };
                let waiter = routes.lock().ok().and_then(|mut w| w.remove(&id));
                if let Some(tx) = waiter {
                    let _ = tx.send(msg);
                }
            }
            // The broker went away: every caller still waiting hears so.
            if let Ok(mut w) = routes.lock() {
                w.clear();
            }
        });
        let (lines, mut outgoing) = mpsc::unbounded_channel::<String>();
        tokio::spawn(async move {
            let mut write = write;
            while let Some(line) = outgoing.recv().await {
                if write.write_all(line.as_bytes()).await.is_err() {
                    break;
                }
            }
        });
        Ok(Arc::new(Self {
            lines,
            waiting,
            next_id: AtomicU64::new(1),
        }))
    }

    /// Send a request and wait for its reply's result (or its error).
    pub async fn request(&self, method: &str, params: Value) -> BpResult<Value> {
        let id = self.next_id.fetch_add(1, Ordering::Relaxed);
        let (tx, rx) = oneshot::channel();
        if let Ok(mut w) = self.waiting.lock() {
            w.insert(id, tx);
        }
        let mut line =
            json!({"jsonrpc": "2.0", "id": id, "method": method, "params": params}).to_string();
        line.push('\n');
        if self.lines.send(line).is_err() {
            if let Ok(mut w) = self.waiting.lock() {
                w.remove(&id);
            }
            return Err(BpError::internal(
                "broker connection: the writer stopped (the broker went away)",
            ));
        }
        let msg = rx
            .await
            .map_err(|_| BpError::internal("the broker closed the connection"))?;
        if let Some(err) = msg.get("error") {
            return Err(BpError::from_json(err.get("data").unwrap_or(err)));
        }
        Ok(msg.get("result").cloned().unwrap_or(Value::Null))
    }
}
