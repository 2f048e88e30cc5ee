//! `bp bridge --stdio`: newline-delimited JSON-RPC 2.0 on stdin/stdout,
//! relayed to the per-user broker, which implements the protocol. Stdout
//! carries protocol messages only; diagnostics go to stderr.
//!
//! The relay is two plain threads doing blocking reads and writes, one
//! per direction, so a message crosses the bridge with one wake-up and
//! one write. Lines the broker has already sent together (a command's
//! event and its response) leave in one write to stdout.

use crate::bridge_wire::{lock, pass_line, Shared};
use browser_pilot_host::broker::rpc::framing::{over_limit, oversized_refusal};
use browser_pilot_host::broker::rpc::{rpc_error, MAX_MESSAGE_BYTES};
use browser_pilot_host::client::{connect_stream, ensure_broker, Untrusted};
use browser_pilot_host::system::paths::Paths;
use browser_pilot_host::{BpError, BpResult, Code};
use serde_json::{json, Value};
use std::io::{BufRead, BufReader, Read, Write};
use std::os::unix::net::UnixStream;
use std::sync::{mpsc, Arc};
use std::time::Duration;

/// How long the bridge waits, once stdin has ended, for the broker to
/// answer the requests it already accepted.
const DRAIN: Duration = Duration::from_secs(30);

/// How one direction of the relay ended.
enum End {
    /// The broker closed the connection (shutdown, or a fatal framing
    /// error it already answered); carries the bridge's outcome.
    Broker(BpResult<()>),
    /// Stdin reached end of file; the broker was told.
    Stdin,
    /// Reading stdin, or writing the bridge's own refusal to stdout,
    /// failed.
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
    let stream = connect_stream(&paths).map_err(Untrusted::into_error)?;
    tokio::task::spawn_blocking(move || relay(stream))
        .await
        .map_err(|e| BpError::internal(format!("bridge relay: {e}")))?
}

/// Relay until the broker closes the connection, or stdin ends and the
/// broker has answered what it accepted.
fn relay(stream: UnixStream) -> BpResult<()> {
    let from_broker = stream.try_clone().map_err(io)?;
    let shared = Arc::new(Shared::default());
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
    let s = shared.clone();
    spawn(
        "bp-bridge-down",
        Box::new(move || {
            let end = downstream(from_broker, &s);
            s.broker_ended();
            End::Broker(end)
        }),
    )?;
    spawn("bp-bridge-up", Box::new(move || upstream(stream, &shared)))?;
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

/// Broker -> stdout. Each line it sends is written as it is; lines that
/// have already arrived together are written together.
fn downstream(from_broker: UnixStream, shared: &Shared) -> BpResult<()> {
    let mut from_broker = BufReader::with_capacity(64 << 10, from_broker);
    let mut batch = Vec::new();
    loop {
        batch.clear();
        if from_broker.read_until(b'\n', &mut batch).map_err(io)? == 0 {
            return answer_orphans(shared);
        }
        shared.answered(&batch);
        while from_broker.buffer().contains(&b'\n') {
            let start = batch.len();
            from_broker.read_until(b'\n', &mut batch).map_err(io)?;
            shared.answered(&batch[start..]);
        }
        let mut stdout = std::io::stdout().lock();
        stdout.write_all(&batch).map_err(io)?;
        stdout.flush().map_err(io)?;
    }
}

/// Stdin -> broker, never buffering more than one bounded message.
fn upstream(mut to_broker: UnixStream, shared: &Shared) -> End {
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
        if over_limit(&line, MAX_MESSAGE_BYTES) {
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
        // Recorded before it is sent, so its answer cannot come first.
        let out = shared.outgoing(&line);
        if let Some(id) = &out.id {
            lock(&shared.pending).insert(id.clone());
            if out.initialize {
                shared.initialize_sent(id);
            }
        }
        if let Err(e) = to_broker.write_all(&line) {
            return End::BrokerGone(io(e));
        }
        // The next line is read against the limit it sets.
        if out.initialize {
            shared.await_initialize(DRAIN);
        }
    }
}

/// Half-close: the broker finishes what it accepted, then closes its side.
fn stdin_ended(to_broker: &UnixStream) -> End {
    let _ = to_broker.shutdown(std::net::Shutdown::Write);
    End::Stdin
}

/// The broker closed the connection. Requests it never answered get an
/// `unknown_outcome` error each (whatever they started may or may not have
/// happened), and the bridge exits with an error.
fn answer_orphans(shared: &Shared) -> BpResult<()> {
    let orphans: Vec<String> = std::mem::take(&mut *lock(&shared.pending))
        .into_iter()
        .collect();
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
