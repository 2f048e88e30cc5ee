//! One connection's request reader: newline-delimited JSON-RPC framing,
//! then routing each request to the tool-call queue, an overtaking
//! control task, or the connection's own handler.

use crate::broker::call::{self, Intake, PendingCall};
use crate::broker::rpc::framing;
use crate::broker::rpc::response;
use crate::broker::rpc::{self, rpc_error, Connection};
use crate::broker::Broker;
use crate::error::BpError;
use serde_json::{json, Value};
use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::Arc;
use tokio::io::{AsyncBufReadExt, AsyncRead, AsyncReadExt, BufReader};
use tokio::sync::mpsc;

/// Where accepted tool calls wait for the connection's worker.
pub type CallQueue = mpsc::Sender<(Option<Value>, Box<PendingCall>)>;

/// One request (or notification) read off the connection.
struct Request {
    id: Value,
    /// A request (with an `id`) gets a reply; a notification does not.
    is_request: bool,
    method: String,
    params: Value,
}

/// What the framing produced.
enum Frame {
    Request(Request),
    /// A blank line.
    Skip,
    /// Answered with an error; the connection stays open.
    Refused(String),
    /// A line longer than the limit, refused unread (the reply); the rest
    /// of it is still to be passed over.
    Oversized(String),
    /// Answered with an error (or end of stream); the connection closes.
    Close(Option<String>),
}

/// The reading side of one connection.
struct Reader<'a> {
    broker: &'a Arc<Broker>,
    out: mpsc::Sender<String>,
    calls: CallQueue,
    max_result: Arc<AtomicUsize>,
    conn: Connection,
    forwarder: Option<tokio::task::JoinHandle<()>>,
}

/// Read and route requests until the client hangs up, sends `shutdown`
/// or breaks the framing.
pub async fn read<R: AsyncRead + Unpin>(
    broker: &Arc<Broker>,
    stream: R,
    out: mpsc::Sender<String>,
    calls: CallQueue,
    max_result: Arc<AtomicUsize>,
) {
    let mut r = Reader {
        broker,
        out,
        calls,
        max_result,
        conn: Connection::new(),
        forwarder: None,
    };
    let mut stream = BufReader::new(stream);
    let mut line = Vec::new();
    loop {
        let req = match next_frame(&mut stream, &mut line, r.conn.max_message).await {
            Frame::Request(req) => req,
            Frame::Skip => continue,
            Frame::Refused(reply) => {
                let _ = r.out.send(reply).await;
                continue;
            }
            // Answered at once (the client may be waiting before it sends
            // the rest), then the rest is passed over. Closing the
            // connection with input unread would reset it, and the client
            // could lose the refusal.
            Frame::Oversized(reply) => {
                let _ = r.out.send(reply).await;
                // One long line does not keep its buffer.
                line = Vec::new();
                if pass_line(&mut stream).await {
                    continue;
                }
                break;
            }
            Frame::Close(reply) => {
                if let Some(reply) = reply {
                    let _ = r.out.send(reply).await;
                }
                break;
            }
        };
        if !r.route(req).await {
            break;
        }
    }
    if let Some(f) = r.forwarder {
        f.abort();
    }
    // Its workspaces wait for a resume (see `connect/identity.rs`).
    if let Some(p) = &r.conn.principal {
        broker.state().orphan(p);
        // Nobody is left to hear how its takeovers end.
        broker.takeovers.client_gone(p);
    }
}

/// Read one line (at most `max_message` bytes) and parse it.
async fn next_frame<R: AsyncRead + Unpin>(
    stream: &mut BufReader<R>,
    line: &mut Vec<u8>,
    max_message: usize,
) -> Frame {
    line.clear();
    let limit = (max_message + 1) as u64;
    match stream.take(limit).read_until(b'\n', line).await {
        Ok(0) | Err(_) => return Frame::Close(None),
        Ok(_) => {}
    }
    if framing::over_limit(line, max_message) {
        return Frame::Oversized(framing::oversized_refusal(line, max_message, "broker"));
    }
    let msg: Value = match framing::parse_line(line) {
        None => return Frame::Skip,
        Some(Ok(v)) => v,
        Some(Err(e)) => {
            let err = BpError::invalid(format!("parse error: {e}"));
            return Frame::Close(Some(rpc_error(&Value::Null, -32700, &err)));
        }
    };
    let id = msg.get("id").cloned().unwrap_or(Value::Null);
    let Some(method) = msg.get("method").and_then(Value::as_str) else {
        let e = BpError::invalid("not a JSON-RPC request");
        return Frame::Refused(rpc_error(&id, -32600, &e));
    };
    Frame::Request(Request {
        is_request: msg.get("id").is_some(),
        method: method.to_string(),
        params: msg.get("params").cloned().unwrap_or(json!({})),
        id,
    })
}

/// Read past the rest of a line without keeping it: `false` when the
/// stream ends (or fails) first.
async fn pass_line<R: AsyncRead + Unpin>(stream: &mut BufReader<R>) -> bool {
    loop {
        let buf = match stream.fill_buf().await {
            Ok(buf) if !buf.is_empty() => buf,
            _ => return false,
        };
        let (n, end) = match buf.iter().position(|&b| b == b'\n') {
            Some(i) => (i + 1, true),
            None => (buf.len(), false),
        };
        stream.consume(n);
        if end {
            return true;
        }
    }
}

impl Reader<'_> {
    /// Route one request; `false` ends the connection.
    async fn route(&mut self, req: Request) -> bool {
        if req.method == "tools/call" {
            self.tool_call(req).await;
            return true;
        }
        if rpc::overtakes(&req.method) {
            if let Ok(principal) = self.conn.principal() {
                self.overtaking_control(principal, req);
                return true;
            }
        }
        let shutdown = req.method == "shutdown";
        self.own_request(req).await;
        !shutdown
    }

    /// Send a reply to a request (notifications get none).
    async fn reply(&self, req_id: Option<&Value>, line: impl FnOnce(&Value) -> String) {
        if let Some(id) = req_id {
            let _ = self.out.send(line(id)).await;
        }
    }

    fn max(&self) -> usize {
        self.max_result.load(Ordering::Relaxed)
    }

    /// `tools/call`: accept it, then run it beside the queue (a dialog
    /// answer must not wait behind the command its dialog holds) or queue
    /// it behind this connection's earlier calls.
    async fn tool_call(&mut self, req: Request) {
        let id = req.is_request.then_some(req.id);
        let max = self.max();
        let conn = &self.conn;
        let intake = conn.principal().and_then(|p| {
            let session = conn.session.as_ref();
            call::accept(self.broker, &p, conn.grants, session, &req.params)
        });
        match intake {
            Ok(Intake::Run(call)) if call.overtakes() => {
                let (b, o) = (self.broker.clone(), self.out.clone());
                tokio::spawn(async move {
                    let reply = call::execute(&b, *call).await;
                    if let Some(id) = id {
                        let _ = o.send(response(&id, Ok(reply), max)).await;
                    }
                });
            }
            Ok(Intake::Run(call)) => self.enqueue(id, call).await,
            Ok(Intake::Reply(reply)) => {
                self.reply(id.as_ref(), |id| response(id, Ok(reply), max))
                    .await
            }
            Err(e) => {
                self.reply(id.as_ref(), |id| response(id, Err(e), max))
                    .await
            }
        }
    }

    /// Queue an accepted call; a full queue refuses it, so the accepted
    /// record does not stay pending.
    async fn enqueue(&self, id: Option<Value>, call: Box<PendingCall>) {
        let Err(refused) = self.calls.try_send((id, call)) else {
            return;
        };
        let (id, call) = match refused {
            mpsc::error::TrySendError::Full(x) | mpsc::error::TrySendError::Closed(x) => x,
        };
        let e = BpError::internal(format!(
            "more than {MAX_PENDING_CALLS} calls pending; wait for replies"
        ))
        .with_context(json!({"reason": "too_many_pending", "limit": MAX_PENDING_CALLS}));
        let reply = call::refuse(self.broker, *call, e);
        let max = self.max();
        self.reply(id.as_ref(), |id| response(id, Ok(reply), max))
            .await;
    }

    /// Control calls (cancel, status, ...) overtake pending tool calls.
    fn overtaking_control(&self, principal: String, req: Request) {
        let (b, o, max) = (self.broker.clone(), self.out.clone(), self.max());
        tokio::spawn(async move {
            let result = rpc::handle_initialized(&b, &principal, &req.method, req.params).await;
            if req.is_request {
                let _ = o.send(response(&req.id, result, max)).await;
            }
        });
    }

    /// Everything else runs in order on the connection: `initialize`
    /// negotiates limits and starts the event push.
    async fn own_request(&mut self, req: Request) {
        // `initialize` opens the session and sets the connection's limits;
        // as a notification nobody would learn what it set (a relay that
        // must know the limit could not), so it is not carried out.
        if req.method == "initialize" && !req.is_request {
            return;
        }
        let was_initialized = self.conn.principal.is_some();
        let result = rpc::handle(self.broker, &mut self.conn, &req.method, req.params).await;
        if !was_initialized && result.is_ok() {
            self.max_result
                .store(self.conn.max_result, Ordering::Relaxed);
            self.forwarder = self
                .conn
                .principal
                .clone()
                .map(|p| forward_events(self.broker, p, self.out.clone()));
        }
        if req.is_request {
            let _ = self.out.send(response(&req.id, result, self.max())).await;
        }
    }
}

/// Calls a connection may have accepted but not yet run.
pub(in crate::broker) const MAX_PENDING_CALLS: usize = 256;

/// Push the principal's events as `events/event` notifications. Best
/// effort: a slow client misses pushes and catches up with `events/poll`.
pub(in crate::broker) fn forward_events(
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
