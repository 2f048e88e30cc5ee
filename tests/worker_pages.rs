//! A page whose work runs in a Web Worker (a docs site's search) still
//! answers in a fresh workspace after other workspaces have driven other
//! pages in the same broker and browser and gone away.
#![allow(clippy::unwrap_used, clippy::expect_used)] // tests may panic

mod support;
use serde_json::json;
use std::time::Duration;
use support::bridge::Bridge;
use support::{find_ref, poll_for, Env};

/// Type `query` into search.html's box, press Enter, and wait (bounded)
/// for the worker's answer on the page.
fn search(env: &Env, query: &str) -> String {
    env.open("search.html");
    let obs = env.snapshot(None);
    env.ok(&["type", &find_ref(&obs, "textbox", "Search"), query]);
    env.ok(&["press", "Enter"]);
    poll_for(Duration::from_secs(10), "the search results", || {
        Some(env.ok(&["read"])).filter(|t| t.contains("matching documents"))
    })
}

#[test]
fn a_worker_backed_search_answers_after_other_workspaces() {
    let env = Env::new();
    env.launch();
    // Other clients drive other pages (with workers of every kind, frames,
    // requests), then go away, one after another and two at once.
    let pages = [
        ["workers.html", "frames.html"],
        ["net.html", "search.html"],
        ["workers.html", "form.html"],
    ];
    for (n, [first, second]) in pages.iter().enumerate() {
        let mut b = Bridge::start(&env);
        let s = b.session(&format!("other-{n}"), 60_000);
        b.tool_ok(&s, "browser.tabs.open", json!({"url": env.url(first)}));
        b.tool_ok(&s, "browser.observe", json!({}));
        b.tool_ok(&s, "browser.navigate", json!({"url": env.url(second)}));
        b.tool_ok(&s, "browser.observe", json!({}));
        b.finish();
    }
    // And clients that go away while their page's workers are starting.
    for n in 0..2 {
        let mut b = Bridge::start(&env);
        let s = b.session(&format!("early-{n}"), 60_000);
        let url = env.url("workers.html");
        b.send_tool(&s, "browser.tabs.open", json!({"url": url}), json!({}));
        b.finish();
    }
    for round in 1..=3 {
        let text = search(&env, "broker");
        assert!(
            text.contains("1 matching documents") && text.contains("Configuring the broker"),
            "round {round}: {text}"
        );
    }
    // Workers of every kind start and answer in the fresh workspace too.
    env.open("workers.html");
    poll_for(
        Duration::from_secs(15),
        "every worker of workers.html ready",
        || {
            let text = env.ok(&["read"]);
            (text.matches(": ready").count() == 3).then_some(())
        },
    );
}
