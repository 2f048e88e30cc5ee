//! What a navigation reports (URL, title, HTTP status) and the read-back
//! of typed text, over the real bridge against real Chromium.
#![allow(clippy::unwrap_used, clippy::expect_used)] // tests may panic

mod support;
use serde_json::{json, Value};
use support::bridge::{Bridge, Session};
use support::{find_ref, Env};

fn navigate(b: &mut Bridge, s: &Session, args: Value) -> Value {
    b.tool_ok(s, "browser.navigate", args)
}

#[test]
fn navigation_reports_the_document_as_it_stands_once_loaded() {
    let env = Env::new();
    env.launch();
    let mut b = Bridge::start(&env);
    let s = b.session("navigation", 60_000);
    b.tool_ok(&s, "browser.tabs.open", json!({}));

    // Title and URL changed by the load event itself.
    let late = env.url("late-title.html");
    let r = navigate(&mut b, &s, json!({"url": late}));
    assert_eq!(r["title"], "Set by onload", "{r}");
    assert_eq!(r["url"], format!("{late}#loaded"), "{r}");
    assert_eq!(r["status"], 200, "{r}");

    // No title at all is an empty title, not the URL a tab strip shows.
    let r = navigate(&mut b, &s, json!({"url": env.url("untitled.html")}));
    assert_eq!(r["title"], "", "{r}");
    assert_eq!(r["status"], 200, "{r}");

    let missing = env.url("status?code=404");
    let r = navigate(&mut b, &s, json!({"url": missing}));
    assert_eq!(r["status"], 404, "{r}");
    assert_eq!(r["url"], missing, "{r}");

    // Not HTTP: no status.
    let r = navigate(
        &mut b,
        &s,
        json!({"url": "data:text/html,<title>Data page</title><p>inline"}),
    );
    assert_eq!(r["title"], "Data page", "{r}");
    assert!(r["status"].is_null(), "{r}");

    // Back and forward report the document they land on.
    let r = navigate(&mut b, &s, json!({"action": "back"}));
    assert_eq!(r["url"], missing, "{r}");
    assert_eq!(r["status"], 404, "{r}");
    let r = navigate(&mut b, &s, json!({"action": "back"}));
    assert_eq!(r["title"], "", "{r}");
    assert_eq!(r["status"], 200, "{r}");
    let r = navigate(&mut b, &s, json!({"action": "forward"}));
    assert_eq!(r["status"], 404, "{r}");
    b.finish();
}

/// (taken from the read sent with the text, read again) so far.
fn readbacks(b: &mut Bridge) -> (u64, u64) {
    let status = b.call("broker/status", json!({}));
    let r = &status["browser"]["typedReadbacks"];
    (
        r["withText"].as_u64().expect("withText"),
        r["readAgain"].as_u64().expect("readAgain"),
    )
}

#[test]
fn typed_text_is_read_back_only_by_a_read_that_shows_it() {
    let env = Env::new();
    env.launch();
    let mut b = Bridge::start(&env);
    let s = b.session("readback", 60_000);
    b.tool_ok(
        &s,
        "browser.tabs.open",
        json!({"url": env.url("form.html")}),
    );
    let obs = b.tool_ok(&s, "browser.observe", json!({}));
    let id = obs["observationId"].clone();
    let name: u32 = find_ref(&obs, "textbox", "Name").parse().unwrap();
    let password: u32 = find_ref(&obs, "textbox", "Password").parse().unwrap();
    let type_into = |b: &mut Bridge, field: u32, text: &str, clear: bool| {
        let r = b.tool_ok(
            &s,
            "browser.type",
            json!({"observationId": id, "ref": field, "text": text, "clear": clear}),
        );
        assert_eq!(r["evidence"]["status"], "verified", "{r}");
    };

    // Each text is read back once, by the read sent with it or again.
    let start = readbacks(&mut b);
    type_into(&mut b, name, "Ada", true);
    type_into(&mut b, name, " Lovelace", false);
    type_into(&mut b, password, "hunter2", true);
    let (with_text, again) = readbacks(&mut b);
    assert_eq!(with_text + again, start.0 + start.1 + 3);

    // The field already holds the text it is cleared and typed into: no
    // read can show that this text went in, so it is always read again
    // once the text is answered.
    type_into(&mut b, name, "Grace", true);
    let before = readbacks(&mut b);
    type_into(&mut b, name, "Grace", true);
    let after = readbacks(&mut b);
    assert_eq!(after, (before.0, before.1 + 1));

    let obs = b.tool_ok(&s, "browser.observe", json!({}));
    assert!(obs.to_string().contains("Grace"), "{obs}");
    b.finish();
}
