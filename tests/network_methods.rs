//! Requests with bodies (POST, PUT, DELETE, a `keepalive` fetch and a
//! beacon) reach the workspace's request journal and its events with
//! their responses, as a GET does; against real Chromium and the fixture
//! server.
#![allow(clippy::unwrap_used, clippy::expect_used)] // tests may panic

mod support;
use serde_json::{json, Value};
use support::bridge::{Bridge, Session};
use support::{find_ref, poll_for, Env, POLL_LIMIT};

/// Events of `kind` in the session's workspace whose URL ends with `tail`.
fn events_for(b: &mut Bridge, s: &Session, kind: &str, tail: &str) -> Vec<Value> {
    b.events(s)
        .into_iter()
        .filter(|e| e["type"] == kind)
        .filter(|e| {
            e["payload"]["url"]
                .as_str()
                .is_some_and(|u| u.ends_with(tail))
        })
        .collect()
}

/// Click the button named `button` and wait (bounded) until the page
/// shows `shown`.
fn click_until_shown(b: &mut Bridge, s: &Session, button: &str, shown: &str) {
    let obs = b.tool_ok(s, "browser.observe", json!({}));
    let r: u64 = find_ref(&obs, "button", button).parse().unwrap();
    b.tool_ok(
        s,
        "browser.click",
        json!({"observationId": obs["observationId"], "ref": r}),
    );
    poll_for(POLL_LIMIT, &format!("the page to show {shown:?}"), || {
        let text = b.tool_ok(s, "browser.read", json!({}));
        text.to_string().contains(shown).then_some(())
    });
}

#[test]
fn requests_with_bodies_get_their_responses_in_journal_and_events() {
    let env = Env::new();
    env.launch();
    let mut b = Bridge::start(&env);
    let s = b.session("net-methods", 60_000);
    let page = env.url("net-methods.html");
    b.tool_ok(&s, "browser.tabs.open", json!({"url": page}));
    // (button, URL tail, method, what the page shows once answered)
    let cases = [
        ("Send GET", "/api/data", "GET", "GET done"),
        ("Send POST", "/api/x?y=1", "POST", "POST done: 200 POST"),
        ("Send PUT", "/api/x?y=2", "PUT", "PUT done: 200 PUT"),
        (
            "Send DELETE",
            "/api/x?y=3",
            "DELETE",
            "DELETE done: 200 DELETE",
        ),
        (
            "Send keepalive",
            "/api/keep?y=4",
            "POST",
            "keepalive done: 200 POST",
        ),
        (
            "Send beacon",
            "/api/beacon?y=5",
            "POST",
            "beacon queued: true",
        ),
    ];
    for (button, tail, method, shown) in cases {
        click_until_shown(&mut b, &s, button, shown);
        // The response event comes once the request is over (bounded).
        let response = poll_for(
            POLL_LIMIT,
            &format!("a network.response for {tail}"),
            || events_for(&mut b, &s, "network.response", tail).pop(),
        );
        let p = &response["payload"];
        assert_eq!(p["method"], method, "{response}");
        assert_eq!(p["status"], 200, "{response}");
        assert_eq!(p["outcome"], "completed", "{response}");
        let requests = events_for(&mut b, &s, "network.request", tail);
        assert_eq!(
            requests.len(),
            1,
            "one request event for {tail}: {requests:?}"
        );
        assert_eq!(requests[0]["payload"]["seq"], p["seq"], "{requests:?}");
        // The journal agrees.
        let log = b.tool_ok(&s, "browser.network.log", json!({}));
        let entry = log["requests"]
            .as_array()
            .unwrap()
            .iter()
            .find(|r| r["url"].as_str().is_some_and(|u| u.ends_with(tail)))
            .cloned()
            .unwrap_or_else(|| panic!("no journal entry for {tail}: {log}"));
        assert_eq!(entry["status"], 200, "{entry}");
        assert_eq!(entry["outcome"], "completed", "{entry}");
    }
    b.finish();
}

/// Every hop of a redirected request ends: the redirect's own entry gets
/// its 3xx status and `redirected`, and a `network.response` event.
#[test]
fn a_redirected_post_ends_each_hop() {
    let env = Env::new();
    env.launch();
    let mut b = Bridge::start(&env);
    let s = b.session("net-redirects", 60_000);
    let page = env.url("net-methods.html");
    b.tool_ok(&s, "browser.tabs.open", json!({"url": page}));
    // (button, first hop, its status, the next hop, its method, page text)
    let cases = [
        (
            "Send redirected POST",
            "/api/moved?code=307",
            307,
            "/api/x?moved=307",
            "POST",
            "moved POST done: 200 POST",
        ),
        (
            "Send POST see other",
            "/api/moved?code=303",
            303,
            "/api/data",
            "GET",
            "see other done",
        ),
    ];
    for (button, first, code, next, method, shown) in cases {
        click_until_shown(&mut b, &s, button, shown);
        let hop = poll_for(
            POLL_LIMIT,
            &format!("a network.response for {first}"),
            || events_for(&mut b, &s, "network.response", first).pop(),
        );
        assert_eq!(hop["payload"]["method"], "POST", "{hop}");
        assert_eq!(hop["payload"]["status"], code, "{hop}");
        assert_eq!(hop["payload"]["outcome"], "redirected", "{hop}");
        let last = poll_for(
            POLL_LIMIT,
            &format!("a network.response for {next}"),
            || events_for(&mut b, &s, "network.response", next).pop(),
        );
        assert_eq!(last["payload"]["method"], method, "{last}");
        assert_eq!(last["payload"]["status"], 200, "{last}");
        assert_eq!(last["payload"]["outcome"], "completed", "{last}");
        let log = b.tool_ok(&s, "browser.network.log", json!({}));
        let pending: Vec<&Value> = log["requests"]
            .as_array()
            .unwrap()
            .iter()
            .filter(|r| r["outcome"] == "pending")
            .collect();
        assert!(pending.is_empty(), "requests left pending: {pending:?}");
    }
    b.finish();
}
