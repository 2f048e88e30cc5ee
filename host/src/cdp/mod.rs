//! The CDP transport: one multiplexed WebSocket per browser, owned by a
//! task, with flat sessions routed by `sessionId`.
//!
//! async-tungstenite does the WebSocket (see [`socket`]) and chromiumoxide
//! gives the message types; this module adds request/response
//! correlation, an event fan-out and a counter of commands sent (used to
//! prove a denied call sent nothing).

#[macro_use]
mod method;

pub mod endpoint;
pub(crate) mod errors;
pub mod event;
pub mod launch;
pub mod page_legacy;
pub mod profile;
mod socket;
#[cfg(test)]
mod transport_tests;
pub(crate) mod typed;
pub mod webmcp;
pub mod window_size;

pub use event::CdpEvent;

use crate::error::{BpError, BpResult, Code};
use async_tungstenite::tungstenite::Message as WsMessage;
use chromiumoxide::cdp::browser_protocol::inspector::EventTargetCrashed;
use chromiumoxide::cdp::browser_protocol::target::EventDetachedFromTarget;
use chromiumoxide::types::{CallId, Message, MethodCall};
use futures::StreamExt;
use serde_json::Value;
use std::collections::HashMap;
use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};
use std::sync::Arc;
use std::time::Duration;
use tokio::sync::{broadcast, mpsc, oneshot};

/// Longest the WebSocket handshake may take. A browser whose debugging was
/// turned on at chrome://inspect may hold it while it asks the user.
pub const CONNECT_TIMEOUT: Duration = Duration::from_secs(20);

/// Longest a single CDP command may take before the caller gives up.
pub const COMMAND_TIMEOUT: Duration = Duration::from_secs(30);

/// The answers of a scripted connection (see [`Cdp::scripted`]).
pub type Scripted = Arc<dyn Fn(&str, Option<&str>, &Value) -> Result<Value, String> + Send + Sync>;

/// A synchronous observer of every event, run on the connection task.
pub type EventSink = Arc<dyn Fn(&CdpEvent) + Send + Sync>;

/// A command's reply still to come.
pub type Pending = oneshot::Receiver<Result<Value, String>>;

struct Request {
    method: String,
    session: Option<String>,
    params: Value,
    reply: oneshot::Sender<Result<Value, String>>,
}

/// A handle to the browser connection. Cheap to clone.
#[derive(Clone)]
pub struct Cdp {
    tx: mpsc::UnboundedSender<Request>,
    events: broadcast::Sender<Arc<CdpEvent>>,
    sent: Arc<AtomicU64>,
    closed: Arc<AtomicBool>,
    shutdown: Arc<tokio::sync::Notify>,
}

impl Cdp {
    /// Open the WebSocket at `ws_url` and start the connection task.
    /// `sink` sees every event before any later response is delivered, so
    /// state it keeps is current whenever a command returns.
    pub async fn connect(ws_url: &str, sink: EventSink) -> BpResult<Self> {
        let conn = open_socket(ws_url).await?;
        let (tx, rx) = mpsc::unbounded_channel();
        let (events, _) = broadcast::channel(4096);
        let cdp = Self {
            tx,
            events: events.clone(),
            sent: Arc::default(),
            closed: Arc::default(),
            shutdown: Arc::default(),
        };
        let shutdown = cdp.shutdown.clone();
        tokio::spawn(run(conn, rx, events, cdp.closed.clone(), shutdown, sink));
        Ok(cdp)
    }

    /// A connection to no browser: every command is answered by `answer`
    /// (method, session, params), and it sends no events. For tests of the
    /// host and the components without a browser.
    pub fn scripted(answer: Scripted) -> Self {
        Self::scripted_late(answer, None)
    }

    /// [`Cdp::scripted`], with the replies to `Input.*` commands sent
    /// `late` after they were answered (commands are still answered in
    /// the order sent; later ones may be answered meanwhile). This is how
    /// the browser answers an input: once the page has handled it.
    pub fn scripted_late(answer: Scripted, late: Option<Duration>) -> Self {
        let (tx, mut rx) = mpsc::unbounded_channel::<Request>();
        let (events, _) = broadcast::channel(16);
        let cdp = Self {
            tx,
            events,
            sent: Arc::default(),
            closed: Arc::default(),
            shutdown: Arc::default(),
        };
        tokio::spawn(async move {
            while let Some(req) = rx.recv().await {
                let out = answer(&req.method, req.session.as_deref(), &req.params);
                match late.filter(|_| req.method.starts_with("Input.")) {
                    Some(late) => {
                        tokio::spawn(async move {
                            tokio::time::sleep(late).await;
                            let _ = req.reply.send(out);
                        });
                    }
                    None => {
                        let _ = req.reply.send(out);
                    }
                }
            }
        });
        cdp
    }

    /// Send `method` (on `session`, or the browser when `None`) and wait for
    /// its result.
    pub async fn call(
        &self,
        method: &str,
        session: Option<&str>,
        params: Value,
    ) -> BpResult<Value> {
        self.call_timeout(method, session, params, COMMAND_TIMEOUT)
            .await
    }

    /// [`Cdp::call`] with an explicit timeout.
    pub async fn call_timeout(
        &self,
        method: &str,
        session: Option<&str>,
        params: Value,
        timeout: Duration,
    ) -> BpResult<Value> {
        let rx = self.send_now(method, session, params)?;
        Self::reply(method, rx, timeout).await
    }

    /// Send `method` at once, its reply to be awaited later with
    /// [`Cdp::reply`] (or dropped): later commands go out after it.
    pub fn send_now(
        &self,
        method: &str,
        session: Option<&str>,
        params: Value,
    ) -> BpResult<Pending> {
        if self.is_closed() {
            return Err(BpError::disconnected());
        }
        let (reply, rx) = oneshot::channel();
        let req = Request {
            method: method.to_string(),
            session: session.map(str::to_string),
            params,
            reply,
        };
        self.tx.send(req).map_err(|_| BpError::disconnected())?;
        self.sent.fetch_add(1, Ordering::Relaxed);
        tracing::trace!(method, "CDP command sent");
        Ok(rx)
    }

    /// The reply to a command sent with [`Cdp::send_now`].
    pub async fn reply(method: &str, rx: Pending, timeout: Duration) -> BpResult<Value> {
        let reply = tokio::time::timeout(timeout, rx).await;
        tracing::trace!(method, "CDP reply received");
        match reply {
            Err(_) => Err(errors::unresponsive(method, timeout)),
            Ok(Err(_)) => Err(BpError::disconnected()),
            Ok(Ok(Err(message))) => Err(errors::refused(method, &message)),
            Ok(Ok(Ok(value))) => Ok(value),
        }
    }

    /// Receive every event from now on.
    pub fn subscribe(&self) -> broadcast::Receiver<Arc<CdpEvent>> {
        self.events.subscribe()
    }

    /// Commands sent over this connection so far.
    pub fn commands_sent(&self) -> u64 {
        self.sent.load(Ordering::Relaxed)
    }

    /// The live count behind [`Cdp::commands_sent`] (tests read it from
    /// inside a scripted answer).
    #[cfg(test)]
    pub(crate) fn issued(&self) -> Arc<AtomicU64> {
        self.sent.clone()
    }

    /// Close the WebSocket now, even while clones of this handle live:
    /// pending and later calls fail with `browser_disconnected`.
    pub fn close(&self) {
        self.shutdown.notify_one();
    }

    /// Whether the WebSocket has closed.
    pub fn is_closed(&self) -> bool {
        self.closed.load(Ordering::Relaxed)
    }
}

/// A command's reply channel.
type Reply = oneshot::Sender<Result<Value, String>>;

/// Answer every command pending on `session` with `why`: Chromium never
/// answers them once the session detached (its tab closed, or it was let
/// go) or its renderer crashed, so they fail now rather than at their
/// timeout.
fn fail_pending(
    pending: &mut HashMap<CallId, (Option<String>, Reply)>,
    session: &str,
    why: &'static str,
) {
    let gone: Vec<CallId> = pending
        .iter()
        .filter(|(_, (s, _))| s.as_deref() == Some(session))
        .map(|(id, _)| *id)
        .collect();
    for id in gone {
        if let Some((_, reply)) = pending.remove(&id) {
            let _ = reply.send(Err(why.to_string()));
        }
    }
}

/// What a command pending on a detached session is answered with (it
/// reads as `stale_ref` with reason `session_replaced`).
const DETACHED: &str = "Session with given id not found: it detached while the command was pending";

/// What a command pending on a crashed renderer is answered with (it
/// reads as `stale_ref` with reason `target_crashed`).
pub(crate) const CRASHED: &str = "Target crashed while the command was pending";

/// The session whose pending commands `ev` ends, and why: the session
/// that detached, or the one whose renderer crashed (Chromium reports the
/// crash on the session itself).
fn session_gone(ev: &CdpEvent) -> Option<(&str, &'static str)> {
    // Matched by type; the session is read from the JSON, borrowed (the
    // registry's sink reads the same event typed).
    match ev.method.as_str() {
        EventDetachedFromTarget::IDENTIFIER => Some((ev.params["sessionId"].as_str()?, DETACHED)),
        EventTargetCrashed::IDENTIFIER => Some((ev.session_id.as_deref()?, CRASHED)),
        _ => None,
    }
}

/// Open the WebSocket, telling a refusal or an unanswered handshake (the
/// browser asking its user) apart from an unreachable endpoint.
async fn open_socket(ws_url: &str) -> BpResult<socket::Ws> {
    use async_tungstenite::tungstenite::Error as WsError;
    match tokio::time::timeout(CONNECT_TIMEOUT, socket::open(ws_url)).await {
        Ok(Ok(ws)) => Ok(ws),
        Err(_) => Err(BpError::new(
            Code::BrowserNotAuthorized,
            "the browser did not accept the DevTools connection within 20 s: it is probably \
             asking its user to allow it. Click Allow in the browser, then run `bp connect` again",
        )
        .with_context(serde_json::json!({"authorization": "waiting_for_user"}))),
        Ok(Err(WsError::Http(resp))) if matches!(resp.status().as_u16(), 401 | 403) => {
            let status = resp.status().as_u16();
            Err(BpError::new(
                Code::BrowserNotAuthorized,
                format!(
                    "the browser refused the DevTools connection (HTTP {status}): the user \
                     declined it or remote debugging is off; turn it on (chrome://inspect/#remote-debugging \
                     or --remote-debugging-port) and allow the client"
                ),
            )
            .with_context(serde_json::json!({"authorization": "refused", "httpStatus": status})))
        }
        Ok(Err(e)) => Err(BpError::new(
            Code::BrowserNotFound,
            format!("cannot open the DevTools WebSocket: {e}"),
        )
        .with_context(serde_json::json!({"reason": "unreachable"}))),
    }
}

async fn run(
    ws: socket::Ws,
    mut rx: mpsc::UnboundedReceiver<Request>,
    events: broadcast::Sender<Arc<CdpEvent>>,
    closed: Arc<AtomicBool>,
    shutdown: Arc<tokio::sync::Notify>,
    sink: EventSink,
) {
    let (write_half, mut read_half) = ws.split();
    let stop = Arc::new(AtomicBool::new(false));
    let (out, mut writer) = socket::spawn_writer(write_half, stop.clone());
    // Each command's reply channel, with the session it was sent on.
    let mut pending: HashMap<CallId, (Option<String>, Reply)> = HashMap::new();
    let mut next_id: usize = 0;
    loop {
        tokio::select! {
            _ = shutdown.notified() => break,
            _ = &mut writer => break,
            req = rx.recv() => {
                let Some(req) = req else { break };
                let id = CallId::new(next_id);
                next_id = next_id.wrapping_add(1);
                let call = MethodCall {
                    id,
                    method: req.method.into(),
                    session_id: req.session.clone(),
                    params: req.params,
                };
                match serde_json::to_string(&call) {
                    Ok(text) => {
                        pending.insert(id, (req.session, req.reply));
                        if out.send(text).is_err() {
                            break;
                        }
                    }
                    Err(e) => { let _ = req.reply.send(Err(e.to_string())); }
                }
            }
            msg = read_half.next() => match msg {
                Some(Ok(WsMessage::Text(text))) => on_text(&text, &mut pending, &sink, &events),
                Some(Ok(WsMessage::Close(_))) | None => break,
                // Pings are answered by tungstenite; nothing else is sent.
                Some(Ok(_)) => {}
                Some(Err(e)) => {
                    tracing::warn!("CDP WebSocket failed: {e}");
                    break;
                }
            }
        }
    }
    stop.store(true, Ordering::SeqCst);
    writer.abort();
    closed.store(true, Ordering::Relaxed);
    // Dropping the reply senders tells every waiting caller the connection
    // is gone (`browser_disconnected`), not that the browser refused.
    pending.clear();
    let disconnected = CdpEvent::disconnected();
    sink(&disconnected);
    let _ = events.send(Arc::new(CdpEvent::disconnected()));
    tracing::info!("CDP connection closed");
}

/// One text message from the browser: a reply to its caller, or an event
/// to the sink and the subscribers.
fn on_text(
    text: &str,
    pending: &mut HashMap<CallId, (Option<String>, Reply)>,
    sink: &EventSink,
    events: &broadcast::Sender<Arc<CdpEvent>>,
) {
    match serde_json::from_str::<Message<CdpEvent>>(text) {
        Ok(Message::Response(resp)) => {
            tracing::trace!(id = ?resp.id, "CDP reply arrived");
            if let Some((_, reply)) = pending.remove(&resp.id) {
                let out = match (resp.result, resp.error) {
                    (_, Some(err)) => Err(err.message),
                    (Some(result), None) => Ok(result),
                    (None, None) => Ok(Value::Null),
                };
                let _ = reply.send(out);
            }
        }
        Ok(Message::Event(ev)) => {
            tracing::trace!(method = %ev.method, "CDP event arrived");
            // The sink first: a waiter woken below finds the
            // registry already saying why.
            sink(&ev);
            if let Some((session, why)) = session_gone(&ev) {
                fail_pending(pending, session, why);
            }
            let _ = events.send(Arc::new(ev));
        }
        Err(e) => tracing::debug!("ignoring unparsable CDP message: {e}"),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::error::StaleReason;

    #[test]
    fn commands_pending_on_a_detached_session_fail_at_once() {
        let mut pending = HashMap::new();
        let mut waiting = Vec::new();
        for (i, session) in [Some("gone"), Some("kept"), None, Some("gone")]
            .into_iter()
            .enumerate()
        {
            let (tx, rx) = oneshot::channel();
            pending.insert(CallId::new(i), (session.map(str::to_string), tx));
            waiting.push(rx);
        }
        fail_pending(&mut pending, "none", DETACHED);
        assert_eq!(pending.len(), 4);
        fail_pending(&mut pending, "gone", DETACHED);
        assert_eq!(pending.len(), 2);
        for i in [0, 3] {
            let answer = waiting[i].try_recv().expect("answered");
            let message = answer.expect_err("an error");
            let e = errors::refused("Runtime.callFunctionOn", &message);
            assert_eq!(e.code, Code::StaleRef, "{}", e.message);
            assert_eq!(e.stale, Some(StaleReason::SessionReplaced));
        }
        assert!(waiting[1].try_recv().is_err() && waiting[2].try_recv().is_err());
    }
}
