//! `browser.console` on real Chromium: a page that logs at each level and
//! throws is journaled with levels, sources, URLs and lines; page text is
//! cleaned and bounded; a page that logs 5,000 messages leaves a bounded
//! journal that counts what it dropped; what the current document logged
//! before the first read is replayed into it, an earlier document's is
//! not; `bp console --errors` and `--follow`; `--deny console` and
//! `--deny-tool` remove the tool.
#![allow(clippy::unwrap_used, clippy::expect_used)] // tests may panic

mod support;
use serde_json::{json, Value};
use std::process::Command;
use std::time::Duration;
use support::{find_ref, output_bounded, poll_for, Env, POLL_LIMIT};

/// `browser.console` with `input`, its result.
fn console(env: &Env, input: Value) -> Value {
    env.tool_call("browser.console", &input)
}

fn messages(v: &Value) -> Vec<Value> {
    v["messages"].as_array().cloned().unwrap_or_default()
}

/// The first message whose text starts with `prefix`.
fn with_text<'a>(all: &'a [Value], prefix: &str) -> &'a Value {
    all.iter()
        .find(|m| m["text"].as_str().is_some_and(|t| t.starts_with(prefix)))
        .unwrap_or_else(|| panic!("no message `{prefix}` in {all:?}"))
}

/// Read the whole journal until a message starting with `prefix` is there.
fn journal_with(env: &Env, prefix: &str) -> Vec<Value> {
    poll_for(POLL_LIMIT, &format!("a console message `{prefix}`"), || {
        let all = messages(&console(env, json!({"limit": 1000})));
        all.iter()
            .any(|m| m["text"].as_str().is_some_and(|t| t.contains(prefix)))
            .then_some(all)
    })
}

#[test]
fn each_level_and_the_uncaught_errors_are_journaled() {
    let env = Env::new();
    env.launch();
    env.open("console.html");
    let all = journal_with(&env, "load boom");
    let all = if all.iter().any(|m| {
        m["text"]
            .as_str()
            .is_some_and(|t| t.contains("rejected boom"))
    }) {
        all
    } else {
        journal_with(&env, "rejected boom")
    };
    for (text, level) in [
        ("plain log first", "log"),
        ("some info first", "info"),
        ("a warning first", "warning"),
        ("an error first", "error"),
        ("debug detail first", "debug"),
    ] {
        let m = with_text(&all, text);
        assert_eq!(m["level"], level, "{m}");
        assert_eq!(m["source"], "console", "{m}");
        assert!(m["url"].as_str().unwrap().ends_with("/console.html"), "{m}");
        assert!(m["line"].as_u64().unwrap() > 10, "{m}");
    }
    assert_eq!(
        with_text(&all, "an error first")["text"],
        "an error first Object"
    );
    let thrown = with_text(&all, "TypeError: load boom");
    assert_eq!(thrown["source"], "exception", "{thrown}");
    assert_eq!(thrown["level"], "error", "{thrown}");
    assert!(
        thrown["url"].as_str().unwrap().ends_with("/console.html"),
        "{thrown}"
    );
    let rejected = all
        .iter()
        .find(|m| {
            m["text"]
                .as_str()
                .is_some_and(|t| t.contains("rejected boom"))
        })
        .unwrap();
    assert_eq!(rejected["source"], "exception", "{rejected}");
    // Page text is data: control and invisible characters removed, bounded.
    assert_eq!(with_text(&all, "bell")["text"], "bell and zerowidth");
    let long = with_text(&all, "long ")["text"]
        .as_str()
        .unwrap()
        .to_string();
    assert!(
        long.chars().count() < 2100,
        "{} characters",
        long.chars().count()
    );
    assert!(long.ends_with("more characters]"), "{long}");
    // Sequence numbers rise, and reading on from nextSeq gives nothing old.
    let seqs: Vec<u64> = all.iter().map(|m| m["seq"].as_u64().unwrap()).collect();
    assert!(seqs.windows(2).all(|w| w[0] < w[1]), "{seqs:?}");
    let page = console(&env, json!({"limit": 1000}));
    let next = page["nextSeq"].as_u64().unwrap();
    let more = console(&env, json!({"sinceSeq": next}));
    assert!(messages(&more).is_empty(), "{more}");
    // Only errors.
    let errors = messages(&console(&env, json!({"levels": ["error"], "limit": 1000})));
    assert!(errors.iter().all(|m| m["level"] == "error"), "{errors:?}");
    assert!(errors.len() >= 3, "{errors:?}");
}

#[test]
fn bp_console_prints_errors_and_follows_new_ones() {
    let env = Env::new();
    env.launch();
    env.open("console.html");
    journal_with(&env, "load boom");
    let text = env.ok(&["console", "--errors"]);
    assert!(
        text.contains("error (uncaught): TypeError: load boom"),
        "{text}"
    );
    assert!(text.contains("an error first"), "{text}");
    assert!(!text.contains("plain log"), "{text}");
    let text = env.ok(&["console"]);
    assert!(text.contains("plain log first"), "{text}");
    // A click that throws, and one that logs again.
    let obs = env.snapshot(None);
    env.ok(&["click", &find_ref(&obs, "button", "Throw")]);
    env.ok(&["click", &find_ref(&obs, "button", "Log again")]);
    let errors = journal_with(&env, "clicked boom");
    with_text(&errors, "an error again");
    // Follow a page that logs an error every 300 ms: new ones arrive, and
    // the follow ends at its timeout.
    env.open("console.html?tick");
    let mut follow = Command::new(support::bp_exe());
    follow
        .args([
            "console",
            "--follow",
            "--timeout",
            "3000",
            "--errors",
            "--json",
        ])
        .env("BROWSER_PILOT_HOME", &env.home);
    let started = std::time::Instant::now();
    let out = output_bounded(follow, "bp console --follow", Duration::from_secs(60));
    assert!(started.elapsed() >= Duration::from_secs(3));
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let lines: Vec<Value> = String::from_utf8_lossy(&out.stdout)
        .lines()
        .map(|l| serde_json::from_str(l).unwrap())
        .collect();
    assert!(lines.iter().all(|m| m["level"] == "error"), "{lines:?}");
    let ticks: Vec<u64> = lines
        .iter()
        .filter_map(|m| m["text"].as_str()?.strip_prefix("tick ")?.parse().ok())
        .collect();
    assert!(ticks.len() >= 5, "{lines:?}");
    assert!(
        ticks.windows(2).all(|w| w[0] < w[1]),
        "each once, in order: {ticks:?}"
    );
}

#[test]
fn what_the_current_document_logged_before_the_first_read_is_in_it() {
    let env = Env::new();
    env.launch();
    // Logged by an earlier document, before the workspace read its console.
    env.open("index.html");
    env.ok(&["eval", "console.error('from the first document')"]);
    env.open("console.html");
    // One read, no polling: the browser replays what the current document
    // logged when the broker starts listening, and the read waits for it.
    let all = messages(&console(&env, json!({"limit": 1000})));
    for text in ["plain log first", "an error first", "long xxx"] {
        with_text(&all, text);
    }
    assert!(
        !all.iter().any(|m| m["text"]
            .as_str()
            .is_some_and(|t| t.contains("first document"))),
        "an earlier document's messages are gone: {all:?}"
    );
    // From now on the workspace listens: a new document's messages arrive.
    env.open("console.html?tick");
    journal_with(&env, "tick 1");
}

#[test]
fn a_flood_of_messages_leaves_a_bounded_journal() {
    let env = Env::new();
    env.launch();
    // The workspace uses the console before the page loads: every message
    // is seen as it is logged (the browser replays only its last 1000).
    console(&env, json!({}));
    env.open("console-flood.html");
    poll_for(POLL_LIMIT, "the flood to end", || {
        let all = console(&env, json!({"sinceSeq": 4990}));
        messages(&all)
            .iter()
            .any(|m| m["text"] == "flood 4999")
            .then_some(())
    });
    let page = console(&env, json!({"limit": 1000}));
    let all = messages(&page);
    assert_eq!(all.len(), 1000, "the journal keeps 1000");
    assert!(
        page["dropped"].as_u64().unwrap() >= 4000,
        "{}",
        page["dropped"]
    );
    let last = all.iter().rev().find(|m| m["source"] == "console").unwrap();
    assert_eq!(last["text"], "flood 4999");
    // The broker still answers at once.
    let text = env.ok(&["read"]);
    assert!(text.contains("flooded"), "{text}");
}

#[test]
fn bad_console_input_is_refused() {
    let env = Env::new();
    env.launch();
    for bad in [
        json!({"levels": ["fatal"]}),
        json!({"levels": "error"}),
        json!({"limit": 0}),
        json!({"limit": 5000}),
        json!({"sinceSeq": -1}),
        json!({"since": 3}),
    ] {
        let input = bad.to_string();
        let (code, run) = env.err(&["tool", "call", "browser.console", "--input", &input]);
        assert_eq!(code, "invalid_argument", "{bad}: {}", run.stderr());
    }
}

#[test]
fn denying_console_removes_the_tool() {
    let mut env = Env::new();
    env.serve(&["--deny", "console"]);
    let names = env.tool_names();
    assert!(!names.iter().any(|n| n == "browser.console"), "{names:?}");
    assert!(
        names.iter().any(|n| n == "browser.network.log"),
        "{names:?}"
    );
    let (code, _) = env.err(&["console"]);
    assert_eq!(code, "capability_denied");
}

#[test]
fn denying_the_tool_alone_removes_it() {
    let mut env = Env::new();
    env.serve(&["--deny-tool", "browser.console"]);
    let names = env.tool_names();
    assert!(!names.iter().any(|n| n == "browser.console"), "{names:?}");
    let (code, _) = env.err(&["console", "--errors"]);
    assert_eq!(code, "capability_denied");
    let guide = env.ok(&["help", "agents"]);
    assert!(!guide.contains("bp console"), "{guide}");
}

/// The CLI workspace's events, read by a watcher with the CLI's secret.
fn cli_events(env: &Env) -> Vec<Value> {
    use support::bridge::Bridge;
    let ws = env.snapshot(None)["workspaceId"]
        .as_str()
        .unwrap()
        .to_string();
    let stored: Value = serde_json::from_str(
        &std::fs::read_to_string(env.home.join("cli-session.json")).expect("cli-session.json"),
    )
    .unwrap();
    let mut watcher = Bridge::start(env);
    watcher.initialize("watcher");
    watcher.call(
        "workspaces/resume",
        json!({"workspaceId": ws, "resumeSecret": stored["resumeSecret"], "observe": true}),
    );
    let mut all = Vec::new();
    let mut cursor = json!("0");
    loop {
        let page = watcher.call(
            "events/poll",
            json!({"workspaceId": ws, "cursor": cursor, "limit": 500}),
        );
        let events = page["events"].as_array().cloned().unwrap_or_default();
        if events.is_empty() {
            return all;
        }
        cursor = page["nextCursor"].clone();
        all.extend(events);
    }
}

#[test]
fn console_messages_and_page_errors_are_events_rate_bounded() {
    let env = Env::new();
    env.launch();
    env.open("console.html");
    journal_with(&env, "load boom");
    env.open("console-flood.html");
    poll_for(POLL_LIMIT, "the flood to end", || {
        messages(&console(&env, json!({"sinceSeq": 4990, "limit": 1000})))
            .iter()
            .any(|m| m["text"] == "flood 4999")
            .then_some(())
    });
    let events = cli_events(&env);
    let of = |kind: &str| -> Vec<&Value> { events.iter().filter(|e| e["type"] == kind).collect() };
    let errors = of("page.error");
    assert!(
        errors.iter().any(|e| e["payload"]["text"]
            .as_str()
            .is_some_and(|t| t.contains("load boom"))),
        "{errors:?}"
    );
    let logs = of("console.message");
    assert!(
        logs.iter()
            .any(|e| e["payload"]["text"] == "a warning first"),
        "{logs:?}"
    );
    // 5,000 messages in well under a second: at most a few seconds' worth
    // of events went out, and the next one counted the rest.
    assert!(logs.len() < 200, "{} console events", logs.len());
    assert!(
        logs.iter()
            .any(|e| e["payload"]["dropped"].as_u64().is_some_and(|d| d > 1000))
            || logs.len() < 100,
        "{logs:?}"
    );
}
