//! Origin scope enforcement: every paused request of a tab a scoped
//! workspace controls or manages is judged before the workspace's network
//! rules are; one out of scope is failed (`BlockedByClient`, so nothing is
//! fetched), a managed popup that opened out of scope is closed, and each
//! refusal is a `scope.blocked {origin, kind}` event (at most 50 a second
//! per workspace). Tool calls that would send a tab out of scope are
//! refused before anything is sent (`refuse_url`).

use crate::broker::state::State;
use crate::broker::Broker;
use crate::browser::connection::BrowserConn;
use crate::error::BpResult;
use crate::scope::{refusal, Verdict};
use chromiumoxide::cdp::browser_protocol::fetch;
use serde_json::json;

/// What one paused request is, as far as the scope cares.
pub struct PausedRequest<'a> {
    pub fetch_id: &'a str,
    pub url: &'a str,
    pub resource_type: &'a str,
    pub frame_id: Option<&'a str>,
    pub redirect: bool,
}

/// The workspace whose scope covers tab `raw`: the one whose lease
/// controls it, else the one whose managed tabs (popups included) hold it.
/// (A tab held by neither is judged by its opener's, in `judge_paused`.)
fn owner(st: &State, raw: &str) -> Option<String> {
    if let Some((_, ws)) = st.controller_of(raw) {
        return Some(ws.into_string());
    }
    st.workspaces
        .values()
        .find(|w| w.managed.contains(raw))
        .map(|w| w.id.to_string())
}

/// The refusal of a paused request out of scope (`Fetch.failRequest`), or
/// `None` to let the rules (or the browser) have it.
pub fn judge_paused(
    broker: &Broker,
    conn: Option<&std::sync::Arc<BrowserConn>>,
    raw: &str,
    r: &PausedRequest<'_>,
) -> Option<super::fetch_answer::FetchAnswer> {
    if !broker.scopes.any() {
        return None;
    }
    let mut st = broker.state();
    // A tab nobody holds that a held tab opened (a popup of a user tab a
    // workspace controls) is under its opener's scope.
    let opener = || conn?.registry.with(raw, |t| t.opener.clone()).flatten();
    let (ws, via_opener) = match owner(&st, raw) {
        Some(ws) => (ws, false),
        None => (owner(&st, &opener()?)?, true),
    };
    let scope = broker.scopes.of(&ws)?;
    let Verdict::Refused(origin) = scope.judge(r.url) else {
        return None;
    };
    let main_document = r.resource_type == "Document" && r.frame_id == Some(raw);
    let uncontrolled_popup = st
        .workspaces
        .get(ws.as_str())
        .is_some_and(|w| w.popups.contains(raw))
        && st.controller_of(raw).is_none();
    let kind = match (r.redirect, main_document, uncontrolled_popup || via_opener) {
        (true, _, _) => "redirect",
        (false, true, true) => "popup",
        (false, _, _) if r.resource_type == "Document" => "navigation",
        _ => "subresource",
    };
    publish(broker, &mut st, &ws, Some(raw), &origin, kind);
    drop(st);
    // A popup of the workspace's ManagedTabSet that opened out of scope is
    // closed (one of a user tab is the user's: only its request fails).
    if let (true, true, Some(conn)) = (main_document, uncontrolled_popup, conn) {
        let (conn, raw) = (conn.clone(), raw.to_string());
        tokio::spawn(async move {
            let _ = conn.close_target(&raw).await;
        });
    }
    Some(super::fetch_answer::FetchAnswer::block(r.fetch_id))
}

/// A `scope.blocked` event, within the workspace's budget.
fn publish(broker: &Broker, st: &mut State, ws: &str, raw: Option<&str>, origin: &str, kind: &str) {
    let Some(dropped) = broker.scopes.event_slot(ws) else {
        return;
    };
    let mut payload = json!({"origin": origin, "kind": kind});
    if dropped > 0 {
        payload["dropped"] = json!(dropped);
    }
    st.publish(ws, "scope.blocked", None, raw, payload);
}

/// Refuse a tool call that would send a tab of workspace `ws` to `url`
/// outside its scope (`capability_denied`, reason `origin_not_allowed`),
/// with its event. A URL that does not parse is left to the tool to
/// refuse.
pub fn refuse_url(broker: &Broker, ws: &str, raw: Option<&str>, url: &str) -> BpResult<()> {
    let Some(scope) = broker.scopes.of(ws) else {
        return Ok(());
    };
    if url::Url::parse(url.trim()).is_err() {
        return Ok(());
    }
    match scope.judge(url.trim()) {
        Verdict::Allowed => Ok(()),
        Verdict::Refused(origin) => {
            publish(broker, &mut broker.state(), ws, raw, &origin, "navigate");
            Err(refusal(&origin))
        }
    }
}

/// Turn on browser-wide interception for the scopes, once per connection:
/// the one place a popup's first request can be held before it leaves.
/// Requests of tabs no scoped workspace holds are let through unchanged.
pub async fn arm(broker: &Broker, conn: &BrowserConn) {
    if !broker.scopes.any() || !broker.scopes.arm(conn.generation) {
        return;
    }
    let enable = fetch::EnableParams {
        patterns: Some(vec![fetch::RequestPattern {
            url_pattern: Some("*".into()),
            resource_type: None,
            request_stage: Some(fetch::RequestStage::Request),
        }]),
        handle_auth_requests: None,
    };
    if let Err(e) = conn.cdp.send(&enable, None).await {
        tracing::warn!("browser-wide interception unavailable: {}", e.message);
        broker.scopes.disarm(conn.generation);
    }
}
