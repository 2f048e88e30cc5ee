//! `bp bridge --stdio`: newline-delimited JSON-RPC 2.0 on stdin/stdout,
//! relayed to the per-user broker, which implements the protocol. Stdout
//! carries protocol messages only; diagnostics go to stderr.
//!
//! The relay is two plain threads doing blocking reads and writes, one
//! per direction, so a message crosses the bridge with one wake-up and
//! one write. Lines the broker has already sent together (a command's
//! event and its response) leave in one write to stdout.

use browser_pilot_host::broker::framing::oversized_refusal;
use browser_pilot_host::broker::rpc::{rpc_error, MAX_MESSAGE_BYTES};
use browser_pilot_host::client::ensure_broker;
use browser_pilot_host::paths::Paths;
use browser_pilot_host::{BpError, BpResult, Code};
use serde::de::IgnoredAny;
use serde_json::{json, Value};
use std::collections::BTreeSet;
use std::io::{BufRead, BufReader, Read, Write};
use std::os::unix::net::UnixStream;
use std::sync::{mpsc, Arc, Mutex};
use std::time::Duration;

/// How long the bridge waits, once stdin has ended, for the broker to
/// answer the requests it already accepted.
const DRAIN: Duration = Duration::from_secs(30);

/// Requests relayed and not yet answered, by `id` as JSON text: if the
/// broker goes away, each still gets a reply.
type Pending = Arc<Mutex<BTreeSet<String>>>;

/// How one direction of the relay ended.
enum End {
    /// The broker closed the connection (shutdown, or a fatal framing
    /// error it already answered); carries the bridge's outcome.
    Broker(BpResult<()>),
    /// Stdin reached end of file; the broker was told.
    Stdin,
    /// Reading stdin failed.
    Failed(BpError),
    /// Writing to the broker failed: it is going away, and the other
    /// direction answers what it leaves unanswered.
    BrokerGone(BpError),
}

/// How long the bridge waits, after a write to the broker failed, for the
/// broker's side to end and the unanswered requests to be answered.
const GONE_WAIT: Duration = Duration::from_secs(5);

pub async fn run() -> BpResult<()> {
    let paths = Paths::from_env()?;
    // Start or find the broker, then relay over a plain Unix stream (its
    // write half can be shut down to signal end of input).
    drop(ensure_broker(&paths, &["broker", "serve"]).await?);
    let stream = UnixStream::connect(&paths.socket)
        .map_err(|e| BpError::internal(format!("cannot reach the broker: {e}")))?;
    tokio::task::spawn_blocking(move || relay(stream))
        .await
        .map_err(|e| BpError::internal(format!("bridge relay: {e}")))?
}

/// Relay until the broker closes the connection, or stdin ends and the
/// broker has answered what it accepted.
fn relay(stream: UnixStream) -> BpResult<()> {
    let from_broker = stream.try_clone().map_err(io)?;
    let pending: Pending = Arc::default();
    let (done, ended) = mpsc::channel();
    let spawn = |name: &str, f: Box<dyn FnOnce() -> End + Send>| {
        let done = done.clone();
        std::thread::Builder::new()
            .name(name.into())
            .spawn(move || {
                let _ = done.send(f());
            })
            .map_err(|e| BpError::internal(format!("bridge thread: {e}")))
    };
    let p = pending.clone();
    spawn(
        "bp-bridge-down",
        Box::new(move || End::Broker(downstream(from_broker, &p))),
    )?;
    let p = pending.clone();
    spawn("bp-bridge-up", Box::new(move || upstream(stream, &p)))?;
    drop(done);
    let gone = || BpError::internal("bridge relay stopped");
    match ended.recv().map_err(|_| gone())? {
        End::Broker(r) => r,
        End::Failed(e) => Err(e),
        // The broker's end decides, as when it closes first: every
        // request it leaves unanswered gets its reply.
        End::BrokerGone(e) => match ended.recv_timeout(GONE_WAIT) {
            Ok(End::Broker(r)) => r,
            Ok(_) | Err(_) => Err(e),
        },
        // Stdin closed: deliver what the broker still sends for requests
        // already relayed, then stop. The broker's end decides the exit
        // status.
        End::Stdin => match ended.recv_timeout(DRAIN) {
            Ok(End::Broker(r)) => r,
            Ok(_) | Err(_) => Ok(()),
        },
    }
}

fn io(e: std::io::Error) -> BpError {
    BpError::internal(format!("bridge I/O: {e}"))
}

fn lock<T>(m: &Mutex<T>) -> std::sync::MutexGuard<'_, T> {
    m.lock().unwrap_or_else(|e| e.into_inner())
}

/// Broker -> stdout. Each line it sends is written as it is; lines that
/// have already arrived together are written together.
fn downstream(from_broker: UnixStream, pending: &Pending) -> BpResult<()> {
    let mut from_broker = BufReader::with_capacity(64 << 10, from_broker);
    let mut batch = Vec::new();
    loop {
        batch.clear();
        if from_broker.read_until(b'\n', &mut batch).map_err(io)? == 0 {
            return answer_orphans(pending);
        }
        answered(&batch, pending);
        while from_broker.buffer().contains(&b'\n') {
            let start = batch.len();
            from_broker.read_until(b'\n', &mut batch).map_err(io)?;
            answered(&batch[start..], pending);
        }
        let mut stdout = std::io::stdout().lock();
        stdout.write_all(&batch).map_err(io)?;
        stdout.flush().map_err(io)?;
    }
}

/// A response leaving for stdout is no longer pending.
fn answered(line: &[u8], pending: &Pending) {
    if let Some(id) = response_id(line) {
        lock(pending).remove(&id);
    }
}

/// Stdin -> broker, never buffering more than one bounded message.
fn upstream(mut to_broker: UnixStream, pending: &Pending) -> End {
    let stdin = std::io::stdin();
    let mut stdin = stdin.lock();
    let mut line = Vec::new();
    loop {
        line.clear();
        let n = match (&mut stdin)
            .take(MAX_MESSAGE_BYTES as u64 + 1)
            .read_until(b'\n', &mut line)
        {
            Ok(n) => n,
            Err(e) => return End::Failed(io(e)),
        };
        if n == 0 {
            return stdin_ended(&to_broker);
        }
        if line.len() > MAX_MESSAGE_BYTES && !line.ends_with(b"\n") {
            // Refused here, never relayed nor held whole: the rest of the
            // line is passed over and the relay goes on.
            let reply = oversized_refusal(&line, MAX_MESSAGE_BYTES, "bridge");
            let mut stdout = std::io::stdout().lock();
            if let Err(e) = writeln!(stdout, "{reply}").and_then(|()| stdout.flush()) {
                return End::Failed(io(e));
            }
            drop(stdout);
            match pass_line(&mut stdin) {
                Ok(true) => continue,
                Ok(false) => return stdin_ended(&to_broker),
                Err(e) => return End::Failed(io(e)),
            }
        }
        if !line.ends_with(b"\n") {
            line.push(b'\n');
        }
        if let Some(id) = request_id(&line) {
            lock(pending).insert(id);
        }
        if let Err(e) = to_broker.write_all(&line) {
            return End::BrokerGone(io(e));
        }
    }
}

/// Half-close: the broker finishes what it accepted, then closes its side.
fn stdin_ended(to_broker: &UnixStream) -> End {
    let _ = to_broker.shutdown(std::net::Shutdown::Write);
    End::Stdin
}

/// Read past the rest of a line without keeping it: `false` at end of
/// input.
fn pass_line(input: &mut impl BufRead) -> std::io::Result<bool> {
    loop {
        let buf = input.fill_buf()?;
        if buf.is_empty() {
            return Ok(false);
        }
        let (n, end) = match buf.iter().position(|&b| b == b'\n') {
            Some(i) => (i + 1, true),
            None => (buf.len(), false),
        };
        input.consume(n);
        if end {
            return Ok(true);
        }
    }
}

/// The members of a broker message the bridge looks at; the rest is skipped
/// without being built. A member that is present counts even when it is
/// `null` (a `null` result is still a response).
#[derive(serde::Deserialize)]
struct Probe {
    #[serde(default, deserialize_with = "present")]
    id: Option<Value>,
    #[serde(default, deserialize_with = "present")]
    result: Option<IgnoredAny>,
    #[serde(default, deserialize_with = "present")]
    error: Option<IgnoredAny>,
}

fn present<'de, D: serde::Deserializer<'de>, T: serde::Deserialize<'de>>(
    d: D,
) -> Result<Option<T>, D::Error> {
    T::deserialize(d).map(Some)
}

/// Only a JSON object is a message (serde would also read a struct from
/// an array).
fn probe(line: &[u8]) -> Option<Probe> {
    if line.iter().find(|b| !b.is_ascii_whitespace()) != Some(&b'{') {
        return None;
    }
    serde_json::from_slice(line).ok()
}

/// The `id` of a request (a message with `method` and `id`), as JSON text.
/// Requests are small and come from the agent, so they are read whole,
/// as the broker reads them (a repeated key: the last one counts).
fn request_id(line: &[u8]) -> Option<String> {
    let v: Value = serde_json::from_slice(line).ok()?;
    v.get("method")?;
    v.get("id").map(|id| id.to_string())
}

/// The `id` of a response (a message with `id` and `result` or `error`).
/// Responses come from the broker and may be large: only the members
/// looked at are built.
fn response_id(line: &[u8]) -> Option<String> {
    let p = probe(line)?;
    if p.result.is_none() && p.error.is_none() {
        return None;
    }
    p.id.map(|id| id.to_string())
}

/// The broker closed the connection. Requests it never answered get an
/// `unknown_outcome` error each (whatever they started may or may not have
/// happened), and the bridge exits with an error.
fn answer_orphans(pending: &Pending) -> BpResult<()> {
    let orphans: Vec<String> = std::mem::take(&mut *lock(pending)).into_iter().collect();
    if orphans.is_empty() {
        return Ok(());
    }
    let e = BpError::new(
        Code::UnknownOutcome,
        "the broker exited before answering; observe before deciding what remains",
    )
    .with_context(json!({"interruption": "broker_exited"}));
    let mut stdout = std::io::stdout().lock();
    for id in &orphans {
        let id: Value = serde_json::from_str(id).unwrap_or(Value::Null);
        let _ = writeln!(stdout, "{}", rpc_error(&id, -32000, &e));
    }
    let _ = stdout.flush();
    Err(BpError::internal(format!(
        "the broker closed the connection with {} request(s) unanswered",
        orphans.len()
    )))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn ids_are_read_from_requests_and_responses_only() {
        let req = br#"{"jsonrpc":"2.0","id": 7 ,"method":"tools/call","params":{"id":9}}"#;
        assert_eq!(request_id(req).as_deref(), Some("7"));
        assert_eq!(response_id(req), None);
        let res = br#"{"id":"a b","jsonrpc":"2.0","result":{"id":1}}"#;
        assert_eq!(response_id(res).as_deref(), Some("\"a b\""));
        assert_eq!(request_id(res), None);
        let err = br#"{"id":{"k" : 1},"jsonrpc":"2.0","error":{"code":-1}}"#;
        assert_eq!(response_id(err).as_deref(), Some(r#"{"k":1}"#));
        let null = br#"{"id":null,"jsonrpc":"2.0","result":null}"#;
        assert_eq!(response_id(null).as_deref(), Some("null"));
        let note = br#"{"jsonrpc":"2.0","method":"events/event","params":{}}"#;
        assert_eq!(request_id(note), None);
        assert_eq!(response_id(note), None);
        assert_eq!(request_id(b"not json"), None);
        // Arrays (a batch, or anything else) are no message of the bridge's.
        assert_eq!(request_id(br#"[1,"x"]"#), None);
        let batch = br#"[{"jsonrpc":"2.0","id":1,"method":"a"},{"id":2,"method":"b"}]"#;
        assert_eq!(request_id(batch), None);
        assert_eq!(response_id(br#" [1,null,{"x":1}]"#), None);
        // A repeated key: the last one counts, as for the broker.
        let twice = br#"{"id":1,"id":2,"method":"tools/call"}"#;
        assert_eq!(request_id(twice).as_deref(), Some("2"));
    }
}
