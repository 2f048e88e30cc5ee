//! `browser.window` and `browser.takeover` (capability `window`) on a
//! headless Chromium: the window's state is set and read back from the
//! browser; a takeover emits `takeover.requested` and ends when a person
//! runs `bp takeover done` from another process, when the page reaches
//! `until` (a URL, a text), at its deadline, on a cancel, or when its
//! client goes away; bad input changes nothing; `--deny window` and
//! `--deny-tool` remove the tools.
#![allow(clippy::unwrap_used, clippy::expect_used)] // tests may panic

mod support;
use serde_json::{json, Value};
use support::bridge::{Bridge, Session};
use support::Env;

/// A bridge client with its own tab at `page`; returns the tab's ID.
fn client_with_tab(env: &Env, page: &str) -> (Bridge, Session, String) {
    let mut b = Bridge::start(env);
    let s = b.session("agent", 120_000);
    let opened = b.tool_ok(&s, "browser.tabs.open", json!({"url": env.url(page)}));
    let tab = opened["targetId"]
        .as_str()
        .or_else(|| opened["tab"]["targetId"].as_str())
        .unwrap_or_else(|| panic!("no targetId in {opened}"))
        .to_string();
    (b, s, tab)
}

fn takeover_result(b: &mut Bridge, id: u64) -> Value {
    let v = b.wait(id);
    let r = &v["result"];
    assert!(r.get("error").is_none(), "takeover failed: {v}");
    r["result"].clone()
}

#[test]
fn the_window_state_is_set_and_read_back_from_the_browser() {
    let env = Env::new();
    env.launch();
    env.open("index.html");
    let read = env.json(&["window"]);
    assert_eq!(read["window"]["state"], "normal", "{read}");
    assert!(read["window"]["windowId"].as_i64().is_some(), "{read}");
    for state in ["maximized", "minimized", "normal"] {
        let v = env.json(&["window", state]);
        assert_eq!(v["asked"], state, "{v}");
        // Whatever the browser says is what is reported, and `applied`
        // agrees with it.
        assert_eq!(v["applied"], v["window"]["state"] == state, "{v}");
        let again = env.json(&["window"]);
        assert_eq!(again["window"]["state"], v["window"]["state"], "{again}");
    }
    let (code, _) = env.err(&[
        "tool",
        "call",
        "browser.window",
        "--input",
        r#"{"state": "fullscreen"}"#,
    ]);
    assert_eq!(code, "invalid_argument");
}

#[test]
fn a_person_hands_the_browser_back_with_bp_takeover_done() {
    let env = Env::new();
    env.launch();
    let (mut b, s, tab) = client_with_tab(&env, "index.html");
    b.tool_ok(
        &s,
        "browser.window",
        json!({"targetId": tab, "state": "minimized"}),
    );
    let id = b.send_tool(
        &s,
        "browser.takeover",
        json!({"targetId": tab, "reason": "Please sign in", "timeoutMs": 60000}),
        json!({}),
    );
    let asked = b.wait_event(&s.workspace, &s.cursor, "takeover.requested");
    assert_eq!(asked["payload"]["reason"], "Please sign in", "{asked}");
    // A second process (the person's shell) ends it.
    let out = env.ok(&["takeover", "done"]);
    assert!(out.contains("1 takeover ended"), "{out}");
    let r = takeover_result(&mut b, id);
    assert_eq!(r["ended"], "done", "{r}");
    // The window came back to the normal state for the person.
    assert_eq!(r["window"]["state"], "normal", "{r}");
    let w = b.tool_ok(&s, "browser.window", json!({"targetId": tab}));
    assert_eq!(w["window"]["state"], "normal", "{w}");
    let ended = b.wait_event(&s.workspace, &s.cursor, "takeover.ended");
    assert_eq!(ended["payload"]["ended"], "done", "{ended}");
    // Nothing is waiting any more.
    assert!(env
        .ok(&["takeover", "done"])
        .contains("no takeover was waiting"));
}

#[test]
fn a_takeover_ends_when_the_page_reaches_until() {
    let env = Env::new();
    env.launch();
    let (mut b, s, tab) = client_with_tab(&env, "takeover.html#navigate");
    let r = b.tool_ok(
        &s,
        "browser.takeover",
        json!({"targetId": tab, "reason": "sign in", "until": {"url": "*/next.html?signed-in"}, "timeoutMs": 30000}),
    );
    assert_eq!(r["ended"], "until", "{r}");
    assert!(
        r["url"].as_str().unwrap().ends_with("next.html?signed-in"),
        "{r}"
    );
    let (mut b, s, tab) = client_with_tab(&env, "takeover.html");
    let r = b.tool_ok(
        &s,
        "browser.takeover",
        json!({"targetId": tab, "reason": "sign in", "until": {"text": "Welcome back"}, "timeoutMs": 30000}),
    );
    assert_eq!(r["ended"], "until", "{r}");
}

#[test]
fn a_takeover_times_out_or_is_cancelled_and_bad_input_changes_nothing() {
    let env = Env::new();
    env.launch();
    env.open("index.html");
    let (code, run) = env.err(&["takeover", "nobody comes", "--timeout", "600"]);
    assert_eq!(code, "timeout", "{}", run.stderr());
    let (mut b, s, tab) = client_with_tab(&env, "index.html");
    let id = b.send_tool(
        &s,
        "browser.takeover",
        json!({"targetId": tab, "reason": "wait", "timeoutMs": 60000}),
        json!({"commandId": "takeover-1"}),
    );
    b.wait_event(&s.workspace, &s.cursor, "takeover.requested");
    b.call(
        "commands/cancel",
        json!({"commandId": "takeover-1", "workspaceId": s.workspace}),
    );
    let v = b.wait(id);
    assert_eq!(v["result"]["error"]["code"], "command_cancelled", "{v}");
    let ended = b.wait_event(&s.workspace, &s.cursor, "takeover.ended");
    assert_eq!(ended["payload"]["ended"], "cancelled", "{ended}");
    // Bad input: refused before the window moves or an event is sent.
    b.tool_ok(
        &s,
        "browser.window",
        json!({"targetId": tab, "state": "minimized"}),
    );
    let takeover_events = |b: &mut Bridge| {
        b.events(&s)
            .iter()
            .filter(|e| {
                e["type"]
                    .as_str()
                    .is_some_and(|t| t.starts_with("takeover."))
            })
            .count()
    };
    let before = takeover_events(&mut b);
    for bad in [
        json!({"targetId": tab}),
        json!({"targetId": tab, "reason": "x", "timeoutMs": 600001}),
        json!({"targetId": tab, "reason": "x", "until": {"url": "a", "text": "b"}}),
    ] {
        assert_eq!(b.tool_code(&s, "browser.takeover", bad), "invalid_argument");
    }
    let w = b.tool_ok(&s, "browser.window", json!({"targetId": tab}));
    assert_eq!(w["window"]["state"], "minimized", "{w}");
    assert_eq!(takeover_events(&mut b), before);
}

#[test]
fn denying_window_removes_both_tools_and_deny_tool_one() {
    let mut env = Env::new();
    env.serve(&["--deny", "window"]);
    let names = env.tool_names();
    assert!(
        !names
            .iter()
            .any(|n| n == "browser.window" || n == "browser.takeover"),
        "{names:?}"
    );
    assert!(names.iter().any(|n| n == "browser.viewport"), "{names:?}");
    let mut env = Env::new();
    env.serve(&["--deny-tool", "browser.takeover"]);
    let names = env.tool_names();
    assert!(!names.iter().any(|n| n == "browser.takeover"), "{names:?}");
    assert!(names.iter().any(|n| n == "browser.window"), "{names:?}");
    let (code, _) = env.err(&["takeover", "x"]);
    assert_eq!(code, "capability_denied");
}

#[test]
fn a_takeover_whose_client_went_away_stops_waiting() {
    let env = Env::new();
    env.launch();
    let (mut b, s, tab) = client_with_tab(&env, "index.html");
    b.send_tool(
        &s,
        "browser.takeover",
        json!({"targetId": tab, "reason": "sign in", "timeoutMs": 60000}),
        json!({}),
    );
    b.wait_event(&s.workspace, &s.cursor, "takeover.requested");
    b.kill();
    // Its connection closed (the bridge process is gone): the broker
    // ends the takeover as soon as it reads the end of the stream.
    std::thread::sleep(std::time::Duration::from_secs(1));
    let out = env.ok(&["takeover", "done"]);
    assert!(out.contains("no takeover was waiting"), "{out}");
}
