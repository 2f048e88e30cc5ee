//! `bp bridge --stdio`: newline-delimited JSON-RPC 2.0 on stdin/stdout,
//! relayed to the per-user broker, which implements the protocol. Stdout
//! carries protocol messages only; diagnostics go to stderr.

use browser_pilot_host::broker::rpc::MAX_MESSAGE_BYTES;
use browser_pilot_host::client::ensure_broker;
use browser_pilot_host::paths::Paths;
use browser_pilot_host::{BpError, BpResult, Code};
use serde_json::json;
use tokio::io::{AsyncBufReadExt, AsyncReadExt, AsyncWriteExt, BufReader};

/// A protocol error written by the bridge itself (the broker writes all
/// others).
fn bridge_error(code: i64, e: &BpError) -> String {
    let mut line = json!({"jsonrpc": "2.0", "id": null, "error": {"code": code, "message": e.message, "data": e.to_json()}})
        .to_string();
    line.push('\n');
    line
}

pub async fn run() -> BpResult<()> {
    let paths = Paths::from_env()?;
    // Start or find the broker, then relay over a plain Unix stream (its
    // write half can be shut down to signal end of input).
    drop(ensure_broker(&paths, &["broker", "serve"]).await?);
    let stream = tokio::net::UnixStream::connect(&paths.socket)
        .await
        .map_err(|e| BpError::internal(format!("cannot reach the broker: {e}")))?;
    let (from_broker, mut to_broker) = stream.into_split();
    let io = |e: std::io::Error| BpError::internal(format!("bridge I/O: {e}"));
    // Requests relayed and not yet answered: if the broker goes away, each
    // still gets a reply.
    let pending = std::sync::Mutex::new(std::collections::BTreeSet::<String>::new());

    // Broker -> stdout, line by line, flushed per message.
    let downstream = async {
        let mut from_broker = BufReader::new(from_broker);
        let mut stdout = tokio::io::stdout();
        let mut line = Vec::new();
        loop {
            line.clear();
            if from_broker.read_until(b'\n', &mut line).await.map_err(io)? == 0 {
                return answer_orphans(&mut stdout, &pending).await;
            }
            if let Some(id) = response_id(&line) {
                lock(&pending).remove(&id);
            }
            stdout.write_all(&line).await.map_err(io)?;
            stdout.flush().await.map_err(io)?;
        }
    };
    // Stdin -> broker, never buffering more than one bounded message.
    let upstream = async {
        let mut stdin = BufReader::new(tokio::io::stdin());
        let mut line = Vec::new();
        loop {
            line.clear();
            let n = (&mut stdin)
                .take(MAX_MESSAGE_BYTES as u64 + 1)
                .read_until(b'\n', &mut line)
                .await
                .map_err(io)?;
            if n == 0 {
                // Half-close: the broker finishes what it accepted, then
                // closes its side.
                let _ = to_broker.shutdown().await;
                return Ok::<bool, BpError>(false);
            }
            if line.len() > MAX_MESSAGE_BYTES && !line.ends_with(b"\n") {
                let e = BpError::new(
                    Code::ResultTooLarge,
                    format!("message larger than {MAX_MESSAGE_BYTES} bytes"),
                );
                let mut stdout = tokio::io::stdout();
                stdout
                    .write_all(bridge_error(-32600, &e).as_bytes())
                    .await
                    .map_err(io)?;
                stdout.flush().await.map_err(io)?;
                return Ok(true);
            }
            if !line.ends_with(b"\n") {
                line.push(b'\n');
            }
            if let Some(id) = request_id(&line) {
                lock(&pending).insert(id);
            }
            to_broker.write_all(&line).await.map_err(io)?;
        }
    };
    tokio::pin!(downstream, upstream);
    tokio::select! {
        // The broker's side first: its end (and any unanswered requests)
        // decides the exit status even when stdin closes at the same time.
        biased;
        // The broker closed the connection (shutdown, or a fatal framing
        // error it already answered).
        r = &mut downstream => r,
        r = &mut upstream => match r? {
            true => Err(BpError::new(Code::ResultTooLarge, "oversized message; bridge closed")),
            // Stdin closed: deliver what the broker still sends for requests
            // already relayed, then stop.
            false => {
                match tokio::time::timeout(std::time::Duration::from_secs(30), downstream).await {
                    Ok(r) => r,
                    Err(_) => Ok(()),
                }
            }
        },
    }
}

fn lock<T>(m: &std::sync::Mutex<T>) -> std::sync::MutexGuard<'_, T> {
    m.lock().unwrap_or_else(|e| e.into_inner())
}

/// The `id` of a request (a message with `method` and `id`), as JSON text.
fn request_id(line: &[u8]) -> Option<String> {
    let v: serde_json::Value = serde_json::from_slice(line).ok()?;
    v.get("method")?;
    v.get("id").map(|id| id.to_string())
}

/// The `id` of a response (a message with `id` and `result` or `error`).
fn response_id(line: &[u8]) -> Option<String> {
    let v: serde_json::Value = serde_json::from_slice(line).ok()?;
    if v.get("result").is_none() && v.get("error").is_none() {
        return None;
    }
    v.get("id").map(|id| id.to_string())
}

/// The broker closed the connection. Requests it never answered get an
/// `unknown_outcome` error each (whatever they started may or may not have
/// happened), and the bridge exits with an error.
async fn answer_orphans(
    stdout: &mut tokio::io::Stdout,
    pending: &std::sync::Mutex<std::collections::BTreeSet<String>>,
) -> BpResult<()> {
    let orphans: Vec<String> = std::mem::take(&mut *lock(pending)).into_iter().collect();
    if orphans.is_empty() {
        return Ok(());
    }
    let e = BpError::new(
        Code::UnknownOutcome,
        "the broker exited before answering; observe before deciding what remains",
    )
    .with_context(json!({"interruption": "broker_exited"}));
    for id in &orphans {
        let id: serde_json::Value = serde_json::from_str(id).unwrap_or(serde_json::Value::Null);
        let line = json!({"jsonrpc": "2.0", "id": id, "error": {"code": -32000, "message": e.message, "data": e.to_json()}});
        let _ = stdout.write_all(format!("{line}\n").as_bytes()).await;
    }
    let _ = stdout.flush().await;
    Err(BpError::internal(format!(
        "the broker closed the connection with {} request(s) unanswered",
        orphans.len()
    )))
}
