//! Settling after an action on real Chromium: a click that starts a
//! request answered 400 ms later waits for it and the DOM change it
//! brings (the next read shows it), a request that takes 5 s is reported
//! `still_loading` with its count once the 2 s budget ends, a click that
//! starts nothing returns at once, and `settle: none` does not wait.
#![allow(clippy::unwrap_used, clippy::expect_used)] // tests may panic

mod support;
use serde_json::Value;
use support::{find_ref, Env};

fn settle_of(v: &Value) -> Value {
    v["evidence"]["settle"].clone()
}

fn waited(v: &Value) -> u64 {
    settle_of(v)["waitedMs"]
        .as_u64()
        .unwrap_or_else(|| panic!("no waitedMs in {v}"))
}

fn open(env: &Env) -> Value {
    env.launch();
    env.open("settle.html");
    env.snapshot(None)
}

#[test]
fn a_click_waits_for_the_request_it_started_and_the_dom_change_after() {
    let env = Env::new();
    let obs = open(&env);
    let load = find_ref(&obs, "button", "Load");
    let v = env.json(&["click", &load]);
    let s = settle_of(&v);
    assert_eq!(s["state"], "settled", "{v}");
    assert_eq!(s["requests"], 0, "{v}");
    assert!(waited(&v) >= 350, "{v}");
    // The next observation sees what the answer brought.
    let after = env.snapshot(None);
    assert!(
        after.to_string().contains("Loaded after 400 ms") || {
            let text = env.ok(&["read"]);
            text.contains("Loaded after 400 ms")
        },
        "{after}"
    );
    let text = env.ok(&["read"]);
    assert!(text.contains("Loaded after 400 ms"), "{text}");
}

#[test]
fn a_request_that_outlasts_the_budget_is_still_loading() {
    let env = Env::new();
    let obs = open(&env);
    let stall = find_ref(&obs, "button", "Stall");
    let v = env.json(&["click", &stall]);
    let s = settle_of(&v);
    assert_eq!(s["state"], "still_loading", "{v}");
    assert_eq!(s["requests"], 1, "{v}");
    let ms = waited(&v);
    assert!((1900..4000).contains(&ms), "{v}");
    let line = env.ok(&["click", &stall]);
    assert!(
        line.contains("still_loading (1 requests pending)"),
        "{line}"
    );
}

#[test]
fn nothing_pending_costs_no_wait_and_dom_changes_get_a_short_quiet() {
    let env = Env::new();
    let obs = open(&env);
    let noop = find_ref(&obs, "button", "Noop");
    let v = env.json(&["click", &noop]);
    assert_eq!(settle_of(&v)["state"], "settled", "{v}");
    assert!(waited(&v) < 50, "{v}");
    let local = find_ref(&obs, "button", "Local");
    let v = env.json(&["click", &local, "--settle", "dom"]);
    assert_eq!(settle_of(&v)["state"], "settled", "{v}");
    assert!((50..1000).contains(&waited(&v)), "{v}");
    // `none`: no wait, no report.
    let load = find_ref(&obs, "button", "Load");
    let v = env.json(&["click", &load, "--settle", "none"]);
    assert!(settle_of(&v).is_null(), "{v}");
    // A bad mode changes nothing.
    let (code, _) = env.err(&[
        "tool",
        "call",
        "browser.click",
        "--input",
        &format!("{{\"ref\": {noop}, \"settle\": \"later\"}}"),
    ]);
    assert_eq!(code, "invalid_argument");
}

#[test]
fn typing_and_pressing_report_their_settle() {
    let env = Env::new();
    env.launch();
    env.open("typing.html");
    let obs = env.snapshot(None);
    let keeper = find_ref(&obs, "textbox", "Keeper");
    let v = env.json(&["type", &keeper, "abc"]);
    assert_eq!(settle_of(&v)["state"], "settled", "{v}");
    let v = env.json(&["press", "Tab"]);
    assert_eq!(settle_of(&v)["state"], "settled", "{v}");
}
