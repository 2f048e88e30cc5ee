//! Network signals: the request journal, and answering intercepted
//! requests and auth challenges with the controlling workspace's rules and
//! credentials (or passing them through unchanged).

use super::fetch_answer::{AuthAnswer, FetchAnswer};
use crate::broker::Broker;
use crate::browser::registry::NetEvent;
use crate::ids::{TabId, WorkspaceId};
use crate::store::network::{Action, Entry, Network};
use base64::Engine as _;
use serde_json::{json, Value};

/// The workspace controlling `raw` and its ID for it.
fn owner(broker: &Broker, raw: &str) -> Option<(WorkspaceId, TabId)> {
    let mut st = broker.state();
    let (_, ws) = st.controller_of(raw)?;
    let public = st.workspaces.get_mut(ws.as_str())?.public_id(raw);
    Some((ws, public))
}

/// Handle one network signal of `raw` (on `session`).
pub async fn handle(broker: &Broker, raw: String, session: String, event: NetEvent) {
    let owner = owner(broker, &raw);
    let ws = owner.as_ref().map(|(ws, _)| ws.as_str());
    let reply = match event {
        event @ NetEvent::Paused { .. } => {
            paused_answer(broker, ws, &raw, session.is_empty(), event).await
        }
        NetEvent::Auth { fetch_id, url } => {
            Some(answer_auth(&broker.network, ws, &raw, fetch_id, &url))
        }
        event => {
            if let Some((ws, public)) = &owner {
                // A redirect ends the previous hop (same request ID): it
                // gets its response before the next hop is journaled.
                if let NetEvent::Request {
                    id,
                    redirected_from: Some(status),
                    ..
                } = &event
                {
                    redirected(&broker.network, ws, &raw, id, *status);
                    publish(broker, ws, &raw, id, "network.response");
                }
                let (id, kind) = match &event {
                    NetEvent::Request { id, .. } => (id.clone(), "network.request"),
                    // Once the request is over: status, outcome, timing.
                    NetEvent::Finished { id } | NetEvent::Failed { id, .. } => {
                        (id.clone(), "network.response")
                    }
                    _ => (String::new(), ""),
                };
                journal(&broker.network, ws, &raw, public, event);
                if !kind.is_empty() {
                    publish(broker, ws, &raw, &id, kind);
                }
            }
            None
        }
    };
    if let (Some(answer), Ok(conn)) = (reply, broker.browser().await) {
        // Never wait on the page here; a paused request must not stall the pump.
        tokio::spawn(async move {
            let session = Some(session.as_str()).filter(|s| !s.is_empty());
            let _ = answer.send(&conn.cdp, session).await;
        });
    }
}

/// The answer to a paused request: the scope's refusal, else (on a tab's
/// own session) the workspace's rules; the browser-wide pass only judges
/// the scope.
async fn paused_answer(
    broker: &Broker,
    ws: Option<&str>,
    raw: &str,
    browser_wide: bool,
    event: NetEvent,
) -> Option<FetchAnswer> {
    let NetEvent::Paused {
        fetch_id,
        network_id,
        url,
        headers,
        resource_type,
        frame_id,
        redirect,
    } = event
    else {
        return None;
    };
    let request = super::scopeflow::PausedRequest {
        fetch_id: &fetch_id,
        url: &url,
        resource_type: &resource_type,
        frame_id: frame_id.as_deref(),
        redirect,
    };
    let conn = broker.browser().await.ok();
    if let Some(refusal) = super::scopeflow::judge_paused(broker, conn.as_ref(), raw, &request) {
        return Some(refusal);
    }
    if browser_wide {
        return Some(FetchAnswer::pass(&fetch_id));
    }
    let paused = Paused {
        fetch_id,
        network_id,
        url,
        headers,
    };
    Some(answer_paused(&broker.network, ws, raw, paused))
}

/// A `network.request` or `network.response` event from the journal entry
/// of a request: method, URL (credentials already redacted), status,
/// resource type, rule outcome and timing; never headers or bodies.
/// Gated per workspace (switchable, at most 50 a second).
fn publish(broker: &Broker, ws: &str, raw: &str, request_id: &str, kind: &str) {
    let Some(e) = broker.network.entry(ws, raw, request_id) else {
        return;
    };
    let Some(dropped) = broker.network.event_slot(ws) else {
        return;
    };
    let mut payload = json!({"seq": e.seq, "method": e.method, "url": e.url,
                             "resourceType": e.resource_type});
    if kind == "network.response" {
        payload["status"] = json!(e.status);
        payload["outcome"] = json!(e.outcome);
        payload["ruleId"] = json!(e.rule_id);
        payload["durationMs"] = json!(e.started.elapsed().as_millis() as u64);
    }
    if dropped > 0 {
        payload["dropped"] = json!(dropped);
    }
    broker.state().publish(ws, kind, None, Some(raw), payload);
}

/// The hop of request `id` that a redirect answered: its status, and
/// `redirected` as its outcome.
fn redirected(net: &Network, ws: &str, raw: &str, id: &str, status: u16) {
    net.update(ws, raw, id, |e| {
        e.status = Some(status);
        if e.outcome == "pending" {
            e.outcome = "redirected".into();
        }
    });
}

/// Record a request's progress in the controlling workspace's journal.
fn journal(net: &Network, ws: &str, raw: &str, public: &str, event: NetEvent) {
    match event {
        NetEvent::Request {
            id,
            url,
            method,
            kind,
            ..
        } => {
            let entry = Entry {
                seq: 0,
                raw: raw.to_string(),
                target_id: public.to_string(),
                request_id: id,
                url,
                method,
                status: None,
                resource_type: kind,
                outcome: "pending".into(),
                rule_id: None,
                started: std::time::Instant::now(),
            };
            net.record(ws, entry);
        }
        NetEvent::Response { id, status } => net.update(ws, raw, &id, |e| e.status = Some(status)),
        NetEvent::Finished { id } => net.update(ws, raw, &id, |e| {
            if e.outcome == "pending" {
                e.outcome = "completed".into();
            }
        }),
        NetEvent::Failed { id, blocked } => net.update(ws, raw, &id, |e| {
            let by_rule = blocked && e.rule_id.is_some();
            e.outcome = if by_rule { "blocked" } else { "failed" }.into();
        }),
        NetEvent::Paused { .. } | NetEvent::Auth { .. } => {}
    }
}

/// An intercepted request.
struct Paused {
    fetch_id: String,
    network_id: Option<String>,
    url: String,
    headers: Value,
}

/// The answer to an intercepted request: the first matching rule of the
/// controlling workspace, or continue unchanged.
fn answer_paused(net: &Network, ws: Option<&str>, raw: &str, p: Paused) -> FetchAnswer {
    let rule = ws.and_then(|ws| net.matching_rule(ws, raw, &p.url));
    if let (Some(rule), Some(ws), Some(nid)) = (&rule, ws, &p.network_id) {
        let outcome = match rule.action {
            Action::Block => "blocked",
            Action::Mock { .. } => "mocked",
            Action::Headers(_) => "pending",
        };
        net.mark(ws, raw, nid, &rule.id, outcome);
    }
    let fetch_id = p.fetch_id;
    match rule.map(|r| r.action) {
        None => FetchAnswer::pass(&fetch_id),
        Some(Action::Block) => FetchAnswer::block(&fetch_id),
        Some(Action::Mock {
            status,
            headers,
            body,
        }) => FetchAnswer::fulfil(
            &fetch_id,
            status,
            &headers,
            base64::engine::general_purpose::STANDARD.encode(body),
        ),
        Some(Action::Headers(extra)) => {
            let mut merged: Vec<(String, String)> = p
                .headers
                .as_object()
                .into_iter()
                .flatten()
                .filter(|(k, _)| !extra.iter().any(|(n, _)| n.eq_ignore_ascii_case(k)))
                .map(|(k, v)| (k.clone(), v.as_str().unwrap_or_default().to_string()))
                .collect();
            merged.extend(extra);
            FetchAnswer::with_headers(&fetch_id, &merged)
        }
    }
}

/// The answer to an auth challenge: the workspace's credentials for the
/// origin, once; cancel when they were refused; otherwise the browser's
/// default.
fn answer_auth(
    net: &Network,
    ws: Option<&str>,
    raw: &str,
    fetch_id: String,
    url: &str,
) -> FetchAnswer {
    let known = ws.is_some_and(|ws| net.has_credentials(ws, url));
    let creds = ws.and_then(|ws| net.credentials(ws, raw, url));
    let answer = match (creds, known) {
        (Some((username, password)), _) => AuthAnswer::Credentials { username, password },
        // Our credentials were refused twice: stop, do not loop.
        (None, true) => AuthAnswer::Cancel,
        (None, false) => AuthAnswer::Default,
    };
    FetchAnswer::auth(&fetch_id, answer)
}
