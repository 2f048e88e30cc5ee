//! `browser.takeover` (capability `window`): hand the workspace's tab to a
//! person (a sign-in, a CAPTCHA). The window comes to the front in its
//! normal state, `takeover.requested {reason}` goes to the workspace's
//! journal, and the call waits until the person says so (`takeover/done`,
//! what `bp takeover done` sends), the page reaches `until` (a URL glob or
//! a text), or the deadline passes; the result says which. A cancel
//! (`commands/cancel`) stops the wait too. Every ending is also a
//! `takeover.ended` event.

use super::window;
use crate::broker::args::{object_args, only_keys, str_arg};
use crate::broker::call::types::CallScope;
use crate::broker::Broker;
use crate::browser::connection::BrowserConn;
use crate::error::{BpError, BpResult};
use chromiumoxide::cdp::browser_protocol::target::{GetTargetInfoParams, TargetId};
use chromiumoxide::cdp::js_protocol::runtime::EvaluateParams;
use serde_json::{json, Value};
use std::collections::HashMap;
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};
use tokio::sync::oneshot;

/// Longest wait a takeover may ask for.
pub const MAX_TIMEOUT_MS: u64 = 600_000;
/// The wait when none is given.
pub const DEFAULT_TIMEOUT_MS: u64 = 300_000;
/// Longest reason kept (characters).
pub const MAX_REASON: usize = 500;
/// How often the page is looked at for `until`.
const POLL: Duration = Duration::from_millis(250);
/// Most page text read per look for a text `until`.
const TEXT_LIMIT: usize = 200_000;

/// What ends a takeover besides the person.
#[derive(Debug, Clone, PartialEq)]
pub enum Until {
    /// The tab's URL matches this glob (`*` any run of characters).
    Url(String),
    /// The tab's visible text holds this.
    Text(String),
}

/// A takeover waiting: the connection principal that asked, and where
/// its ending goes.
type Pending = (String, oneshot::Sender<&'static str>);

/// The takeovers waiting for a person, broker-wide: `takeover/done` ends
/// the one it names, or all of them; a client that goes away abandons
/// its own.
#[derive(Default)]
pub struct Takeovers {
    next: AtomicU64,
    pending: Mutex<HashMap<u64, Pending>>,
}

impl Takeovers {
    fn begin(&self, principal: &str) -> (u64, oneshot::Receiver<&'static str>) {
        let id = self.next.fetch_add(1, Ordering::SeqCst) + 1;
        let (tx, rx) = oneshot::channel();
        self.lock().insert(id, (principal.to_string(), tx));
        (id, rx)
    }

    /// The connection of `principal` closed: its takeovers end
    /// `abandoned` (nobody would hear the answer).
    pub fn client_gone(&self, principal: &str) {
        let gone: Vec<u64> = self
            .lock()
            .iter()
            .filter(|(_, (p, _))| p == principal)
            .map(|(id, _)| *id)
            .collect();
        for id in gone {
            self.end(Some(id), "abandoned");
        }
    }

    fn forget(&self, id: u64) {
        self.lock().remove(&id);
    }

    /// End the takeover `id`, or every pending one, as the person's
    /// answer; how many ended.
    pub fn done(&self, id: Option<u64>) -> usize {
        self.end(id, "done")
    }

    fn end(&self, id: Option<u64>, how: &'static str) -> usize {
        let ended: Vec<oneshot::Sender<&'static str>> = {
            let mut pending = self.lock();
            match id {
                Some(id) => pending.remove(&id).into_iter().map(|(_, tx)| tx).collect(),
                None => pending.drain().map(|(_, (_, tx))| tx).collect(),
            }
        };
        ended
            .into_iter()
            .filter(|tx| !tx.is_closed())
            .map(|tx| tx.send(how))
            .filter(Result::is_ok)
            .count()
    }

    fn lock(&self) -> std::sync::MutexGuard<'_, HashMap<u64, Pending>> {
        self.pending
            .lock()
            .unwrap_or_else(std::sync::PoisonError::into_inner)
    }
}

/// The checked arguments of one takeover.
#[derive(Debug, PartialEq)]
pub struct Ask {
    pub reason: String,
    pub until: Option<Until>,
    pub timeout_ms: u64,
}

/// Check `browser.takeover`'s arguments (nothing happens on bad input).
pub fn parse(args: &Value) -> BpResult<Ask> {
    object_args(args)?;
    only_keys(args, &["reason", "until", "timeoutMs", "targetId"])?;
    let reason: String = str_arg(args, "reason")?
        .unwrap_or_default()
        .chars()
        .filter(|c| !c.is_control())
        .collect();
    let reason = reason.trim().to_string();
    if reason.is_empty() {
        return Err(BpError::invalid(
            "`reason` is required: tell the person what to do",
        ));
    }
    if reason.chars().count() > MAX_REASON {
        return Err(BpError::invalid(format!(
            "`reason` may hold {MAX_REASON} characters"
        )));
    }
    let timeout_ms = match args.get("timeoutMs").filter(|v| !v.is_null()) {
        None => DEFAULT_TIMEOUT_MS,
        Some(v) => v
            .as_u64()
            .filter(|t| (1..=MAX_TIMEOUT_MS).contains(t))
            .ok_or_else(|| {
                BpError::invalid(format!("`timeoutMs` must be 1 to {MAX_TIMEOUT_MS}"))
            })?,
    };
    Ok(Ask {
        reason,
        until: parse_until(args.get("until").filter(|v| !v.is_null()))?,
        timeout_ms,
    })
}

fn parse_until(v: Option<&Value>) -> BpResult<Option<Until>> {
    let Some(v) = v else { return Ok(None) };
    let bad = || BpError::invalid("`until` must be {\"url\": GLOB} or {\"text\": TEXT}");
    let obj = v.as_object().ok_or_else(bad)?;
    let one = |k: &str| obj.get(k).and_then(Value::as_str).filter(|s| !s.is_empty());
    match (obj.len(), one("url"), one("text")) {
        (1, Some(url), None) => Ok(Some(Until::Url(url.to_string()))),
        (1, None, Some(text)) => Ok(Some(Until::Text(text.to_string()))),
        _ => Err(bad()),
    }
}

/// `takeover/done {takeoverId?}`: end that takeover, or every pending
/// one; `{ended: N}` (0 when none was waiting).
pub fn done_method(broker: &Broker, params: &Value) -> BpResult<Value> {
    let id = match params.get("takeoverId").filter(|v| !v.is_null()) {
        None => None,
        Some(v) => Some(
            v.as_u64()
                .ok_or_else(|| BpError::invalid("`takeoverId` must be a number"))?,
        ),
    };
    Ok(json!({"ended": broker.takeovers.done(id)}))
}

/// Publishes `takeover.ended` however the wait ends (a cancel drops it).
struct Ending {
    broker: Arc<Broker>,
    id: u64,
    ws: String,
    lease: String,
    raw: String,
    how: &'static str,
}

impl Drop for Ending {
    fn drop(&mut self) {
        self.broker.takeovers.forget(self.id);
        let payload = json!({"takeoverId": self.id, "ended": self.how});
        self.broker.state().publish(
            &self.ws,
            "takeover.ended",
            Some(&self.lease),
            Some(&self.raw),
            payload,
        );
    }
}

/// Run `browser.takeover`.
pub(super) async fn call(broker: &Arc<Broker>, scope: &CallScope, args: &Value) -> BpResult<Value> {
    let ask = parse(args)?;
    let (raw, public) = window::target(broker, scope, args)?;
    let conn = broker.browser().await?;
    scope.same_generation(conn.generation)?;
    let window = window::bring_to_front(&conn, &raw).await?;
    let (id, mut done) = broker.takeovers.begin(&scope.principal);
    let mut ending = Ending {
        broker: broker.clone(),
        id,
        ws: scope.workspace_id.to_string(),
        lease: scope.lease_id.to_string(),
        raw: raw.to_string(),
        how: "cancelled",
    };
    let until = match &ask.until {
        Some(Until::Url(g)) => json!({"url": g}),
        Some(Until::Text(t)) => json!({"text": t}),
        None => Value::Null,
    };
    broker.state().publish(
        &scope.workspace_id,
        "takeover.requested",
        Some(&scope.lease_id),
        Some(&raw),
        json!({"takeoverId": id, "reason": ask.reason, "until": until, "timeoutMs": ask.timeout_ms}),
    );
    let started = Instant::now();
    let deadline = started + Duration::from_millis(ask.timeout_ms);
    // Set once the answer channel has completed, so it is not polled again.
    let mut answered = false;
    ending.how = loop {
        if reached(&conn, &raw, ask.until.as_ref()).await {
            break "until";
        }
        let now = Instant::now();
        if now >= deadline {
            break "timeout";
        }
        tokio::select! {
            r = &mut done, if !answered => match r {
                Ok(how) => break how,
                Err(_) => answered = true,
            },
            () = tokio::time::sleep(POLL.min(deadline - now)) => {}
        }
    };
    let url = page_url(&conn, &raw).await.unwrap_or_default();
    Ok(
        json!({"targetId": public, "takeoverId": id, "ended": ending.how,
              "waitedMs": started.elapsed().as_millis() as u64, "url": url, "window": window}),
    )
}

/// Whether the page is where `until` asks (false while it cannot be read).
async fn reached(conn: &BrowserConn, raw: &str, until: Option<&Until>) -> bool {
    match until {
        None => false,
        Some(Until::Url(glob)) => page_url(conn, raw)
            .await
            .is_some_and(|u| crate::store::network::glob(glob, &u)),
        Some(Until::Text(text)) => page_text(conn, raw)
            .await
            .is_some_and(|t| squash(&t).contains(&squash(text))),
    }
}

fn squash(s: &str) -> String {
    s.split_whitespace().collect::<Vec<_>>().join(" ")
}

async fn page_url(conn: &BrowserConn, raw: &str) -> Option<String> {
    let info = GetTargetInfoParams {
        target_id: Some(TargetId::new(raw)),
    };
    Some(conn.cdp.send(&info, None).await.ok()?.target_info.url)
}

async fn page_text(conn: &BrowserConn, raw: &str) -> Option<String> {
    let session = conn.attach(raw).await.ok()?;
    let expression =
        format!("String(document.body ? document.body.innerText : '').slice(0, {TEXT_LIMIT})");
    let mut read = EvaluateParams::new(expression);
    read.return_by_value = Some(true);
    // Raw: an evaluation's result is page data.
    let v = conn.cdp.send_raw(&read, Some(&session)).await.ok()?;
    v["result"]["value"].as_str().map(str::to_string)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn arguments_are_checked_before_anything_happens() {
        let ok = parse(&json!({"reason": " sign\u{7} in ", "until": {"url": "*/done*"}})).unwrap();
        assert_eq!(ok.reason, "sign in");
        assert_eq!(ok.until, Some(Until::Url("*/done*".into())));
        assert_eq!(ok.timeout_ms, DEFAULT_TIMEOUT_MS);
        for bad in [
            json!({}),
            json!({"reason": "  "}),
            json!({"reason": "x".repeat(MAX_REASON + 1)}),
            json!({"reason": "x", "timeoutMs": 0}),
            json!({"reason": "x", "timeoutMs": MAX_TIMEOUT_MS + 1}),
            json!({"reason": "x", "until": {"url": "a", "text": "b"}}),
            json!({"reason": "x", "until": {"title": "a"}}),
            json!({"reason": "x", "until": "a"}),
            json!({"reason": "x", "extra": 1}),
        ] {
            assert_eq!(
                parse(&bad).unwrap_err().code.as_str(),
                "invalid_argument",
                "{bad}"
            );
        }
    }

    #[test]
    fn done_ends_the_named_takeover_or_all() {
        let t = Takeovers::default();
        let (a, mut ra) = t.begin("one#1");
        let (_b, mut rb) = t.begin("two#2");
        let (_c, mut rc) = t.begin("two#2");
        assert_eq!(t.done(Some(a)), 1);
        assert_eq!(ra.try_recv(), Ok("done"));
        assert!(rb.try_recv().is_err());
        assert_eq!(t.done(Some(a)), 0);
        t.client_gone("one#1");
        assert!(rb.try_recv().is_err());
        t.client_gone("two#2");
        assert_eq!(rb.try_recv(), Ok("abandoned"));
        assert_eq!(rc.try_recv(), Ok("abandoned"));
        assert_eq!(t.done(None), 0);
    }
}
