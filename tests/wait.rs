//! `bp wait` on real Chromium: each condition is met when the page gets
//! there (and not before), a wait that never ends fails `timeout` in about
//! its bound, bad input is refused before anything waits, a cancel stops
//! a wait at once, and `--deny page-wait` removes the tool.
#![allow(clippy::unwrap_used, clippy::expect_used)] // tests may panic

mod support;
use serde_json::Value;
use std::time::{Duration, Instant};
use support::{find_ref, Env};

fn waited(v: &Value) -> u64 {
    v["waitedMs"].as_u64().expect("waitedMs")
}

#[test]
fn each_condition_is_met_when_the_page_gets_there() {
    let env = Env::new();
    env.launch();
    env.open("wait.html?delay=1200");
    let obs = env.snapshot(None);
    let pay = find_ref(&obs, "button", "Pay");
    let details = find_ref(&obs, "link", "Details");
    // The text comes 1.2 s after load: the wait must have waited for it.
    let v = env.json(&["wait", "--text", "Order placed", "--timeout", "20000"]);
    assert_eq!(v["satisfied"], true, "{v}");
    assert_eq!(v["condition"], "text");
    assert!(env.ok(&["read"]).contains("Order placed"));
    let v = env.json(&[
        "wait",
        "--ref",
        &pay,
        "--state",
        "enabled",
        "--timeout",
        "20000",
    ]);
    assert_eq!(v["condition"], "state", "{v}");
    let v = env.json(&["wait", "--gone", "Spinner", "--timeout", "20000"]);
    assert_eq!(v["condition"], "textGone", "{v}");
    let v = env.json(&[
        "wait",
        "--url",
        "*/wait.html?step=done",
        "--timeout",
        "20000",
    ]);
    assert_eq!(v["condition"], "url", "{v}");
    let v = env.json(&[
        "wait",
        "--ref",
        &details,
        "--state",
        "detached",
        "--timeout",
        "20000",
    ]);
    assert_eq!(v["condition"], "state", "{v}");
    // Everything has happened: a second wait for the text is immediate.
    let v = env.json(&["wait", "--text", "Order placed"]);
    assert!(waited(&v) < 500, "{v}");
    assert_eq!(v["polls"], 1, "{v}");
}

#[test]
fn a_wait_for_the_text_really_waits_for_it() {
    let env = Env::new();
    env.launch();
    env.open("wait.html?delay=2500");
    // Before the page writes it, the text is not there.
    assert!(!env.ok(&["read"]).contains("Order placed"));
    let v = env.json(&["wait", "--text", "Order placed", "--timeout", "10000"]);
    assert!(waited(&v) > 300, "{v}");
    assert!(env.ok(&["read"]).contains("Order placed"));
}

#[test]
fn a_streamed_reply_is_stable_once_it_stops() {
    let env = Env::new();
    env.launch();
    env.open("wait.html");
    let obs = env.snapshot(None);
    let start = find_ref(&obs, "button", "Start");
    let reply = find_ref(&obs, "textbox", "Reply");
    env.ok(&["click", &start]);
    let v = env.json(&[
        "wait",
        "--stable",
        &reply,
        "--quiet",
        "400",
        "--timeout",
        "20000",
    ]);
    assert_eq!(v["condition"], "stable", "{v}");
    // The reply streams for about 0.9 s: stable means it was all there.
    let text = env.json(&["read", &reply]);
    assert!(
        text["text"]
            .as_str()
            .unwrap_or_default()
            .ends_with("and then stops"),
        "{text}"
    );
    assert!(waited(&v) >= 400, "{v}");
}

#[test]
fn a_wait_that_never_ends_fails_timeout_in_about_its_bound() {
    let env = Env::new();
    env.launch();
    env.open("wait.html");
    let began = Instant::now();
    let (code, run) = env.err(&["wait", "--text", "never written", "--timeout", "800"]);
    let took = began.elapsed();
    assert_eq!(code, "timeout", "{}", run.stderr());
    assert!(run.stderr().contains("800 ms"), "{}", run.stderr());
    assert!(took >= Duration::from_millis(800), "{took:?}");
    assert!(took < Duration::from_secs(10), "{took:?}");
}

#[test]
fn bad_input_is_refused_before_anything_waits() {
    let env = Env::new();
    env.launch();
    env.open("wait.html");
    env.snapshot(None);
    let cases: &[(&[&str], &str)] = &[
        (&["wait", "--ref", "99", "--state", "visible"], "stale_ref"),
        (
            &["wait", "--text", "x", "--timeout", "0"],
            "invalid_argument",
        ),
        (
            &["wait", "--text", "x", "--timeout", "30001"],
            "invalid_argument",
        ),
        (
            &["tool", "call", "browser.wait", "--input", "{}"],
            "invalid_argument",
        ),
        (
            &[
                "tool",
                "call",
                "browser.wait",
                "--input",
                r#"{"text":"a","url":"*"}"#,
            ],
            "invalid_argument",
        ),
        (
            &[
                "tool",
                "call",
                "browser.wait",
                "--input",
                r#"{"state":"visible"}"#,
            ],
            "invalid_argument",
        ),
    ];
    for (args, expected) in cases {
        let began = Instant::now();
        let (code, run) = env.err(args);
        assert_eq!(&code, expected, "{args:?}: {}", run.stderr());
        assert!(began.elapsed() < Duration::from_secs(5), "{args:?} waited");
    }
    // The command line refuses two conditions itself.
    let run = env.run(&["wait", "--text", "a", "--gone", "b"]);
    assert_eq!(run.output.status.code(), Some(2), "{}", run.stderr());
}

#[test]
fn denying_page_wait_removes_the_tool() {
    let mut env = Env::new();
    env.serve(&["--deny", "page-wait"]);
    let names = env.tool_names();
    assert!(!names.iter().any(|n| n == "browser.wait"), "{names:?}");
    assert!(names.iter().any(|n| n == "browser.observe"), "{names:?}");
    let (code, _) = env.err(&["wait", "--text", "x"]);
    assert_eq!(code, "capability_denied");
}

#[test]
fn denying_the_tool_alone_removes_it() {
    let mut env = Env::new();
    env.serve(&["--deny-tool", "browser.wait"]);
    let names = env.tool_names();
    assert!(!names.iter().any(|n| n == "browser.wait"), "{names:?}");
    let (code, _) = env.err(&["wait", "--text", "x"]);
    assert_eq!(code, "capability_denied");
}
