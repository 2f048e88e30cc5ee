//! Network signals: the request journal, and answering intercepted
//! requests and auth challenges with the controlling workspace's rules and
//! credentials (or passing them through unchanged).

use super::Broker;
use crate::browser::registry::NetEvent;
use crate::network::{Action, Entry};
use base64::Engine as _;
use serde_json::{json, Value};
use std::sync::Arc;

/// The workspace controlling `raw` and its ID for it.
fn owner(broker: &Broker, raw: &str) -> Option<(String, String)> {
    let mut st = broker.state();
    let lease = st.controllers.get(raw).cloned()?;
    let ws = st.leases.get(&lease)?.workspace_id.clone();
    let public = st.workspaces.get_mut(&ws)?.public_id(raw);
    Some((ws, public))
}

fn header_list(h: &[(String, String)]) -> Vec<Value> {
    h.iter()
        .map(|(n, v)| json!({"name": n, "value": v}))
        .collect()
}

/// Handle one network signal of `raw` (on `session`).
pub async fn handle(broker: &Arc<Broker>, raw: String, session: String, event: NetEvent) {
    let owner = owner(broker, &raw);
    let net = &broker.network;
    let reply: Option<(&str, Value)> = match event {
        NetEvent::Request {
            id,
            url,
            method,
            kind,
        } => {
            if let Some((ws, public)) = &owner {
                let entry = Entry {
                    seq: 0,
                    raw: raw.clone(),
                    target_id: public.clone(),
                    request_id: id,
                    url,
                    method,
                    status: None,
                    resource_type: kind,
                    outcome: "pending".into(),
                    rule_id: None,
                };
                net.record(ws, entry);
            }
            None
        }
        NetEvent::Response { id, status } => {
            if let Some((ws, _)) = &owner {
                net.update(ws, &raw, &id, |e| e.status = Some(status));
            }
            None
        }
        NetEvent::Finished { id } => {
            if let Some((ws, _)) = &owner {
                net.update(ws, &raw, &id, |e| {
                    if e.outcome == "pending" {
                        e.outcome = "completed".into();
                    }
                });
            }
            None
        }
        NetEvent::Failed { id, blocked } => {
            if let Some((ws, _)) = &owner {
                net.update(ws, &raw, &id, |e| {
                    e.outcome = if blocked && e.rule_id.is_some() {
                        "blocked"
                    } else {
                        "failed"
                    }
                    .into();
                });
            }
            None
        }
        NetEvent::Paused {
            fetch_id,
            network_id,
            url,
            headers,
        } => {
            let rule = owner
                .as_ref()
                .and_then(|(ws, _)| net.matching_rule(ws, &raw, &url));
            if let (Some(rule), Some((ws, _)), Some(nid)) = (&rule, &owner, &network_id) {
                let outcome = match rule.action {
                    Action::Block => "blocked",
                    Action::Mock { .. } => "mocked",
                    Action::Headers(_) => "pending",
                };
                net.mark(ws, &raw, nid, &rule.id, outcome);
            }
            Some(match rule.map(|r| r.action) {
                None => ("Fetch.continueRequest", json!({"requestId": fetch_id})),
                Some(Action::Block) => (
                    "Fetch.failRequest",
                    json!({"requestId": fetch_id, "errorReason": "BlockedByClient"}),
                ),
                Some(Action::Mock {
                    status,
                    headers,
                    body,
                }) => (
                    "Fetch.fulfillRequest",
                    json!({"requestId": fetch_id, "responseCode": status, "responseHeaders": header_list(&headers),
                           "body": base64::engine::general_purpose::STANDARD.encode(body)}),
                ),
                Some(Action::Headers(extra)) => {
                    let mut merged: Vec<(String, String)> = headers
                        .as_object()
                        .into_iter()
                        .flatten()
                        .filter(|(k, _)| !extra.iter().any(|(n, _)| n.eq_ignore_ascii_case(k)))
                        .map(|(k, v)| (k.clone(), v.as_str().unwrap_or_default().to_string()))
                        .collect();
                    merged.extend(extra);
                    (
                        "Fetch.continueRequest",
                        json!({"requestId": fetch_id, "headers": header_list(&merged)}),
                    )
                }
            })
        }
        NetEvent::Auth { fetch_id, url } => {
            let known = owner
                .as_ref()
                .is_some_and(|(ws, _)| net.has_credentials(ws, &url));
            let creds = owner
                .as_ref()
                .and_then(|(ws, _)| net.credentials(ws, &raw, &url));
            let response = match (creds, known) {
                (Some((user, password)), _) => {
                    json!({"response": "ProvideCredentials", "username": user, "password": password})
                }
                // Our credentials were refused twice: stop, do not loop.
                (None, true) => json!({"response": "CancelAuth"}),
                (None, false) => json!({"response": "Default"}),
            };
            Some((
                "Fetch.continueWithAuth",
                json!({"requestId": fetch_id, "authChallengeResponse": response}),
            ))
        }
    };
    if let (Some((method, params)), Ok(conn)) = (reply, broker.browser().await) {
        // Never wait on the page here; a paused request must not stall the pump.
        tokio::spawn(async move {
            let _ = conn.cdp.call(method, Some(&session), params).await;
        });
    }
}
