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

    // Back and forward between entries of one document (a fragment, a
    // pushState) load nothing: they answer once the URL has moved.
    let form = env.url("form.html");
    navigate(&mut b, &s, json!({"url": form}));
    let r = navigate(&mut b, &s, json!({"url": format!("{form}#details")}));
    assert_eq!(r["url"], format!("{form}#details"), "{r}");
    let r = navigate(&mut b, &s, json!({"action": "back"}));
    assert_eq!(r["url"], form, "{r}");
    assert_eq!(r["status"], 200, "{r}");
    let r = navigate(&mut b, &s, json!({"action": "forward"}));
    assert_eq!(r["url"], format!("{form}#details"), "{r}");
    // The same fragment again moves nowhere, and still answers.
    let r = navigate(&mut b, &s, json!({"url": format!("{form}#details")}));
    assert_eq!(r["url"], format!("{form}#details"), "{r}");
    assert_eq!(r["title"], "Sign in form", "{r}");

    // A page may refuse a move within its document: the answer says it
    // stayed where it was, instead of waiting for a move that never comes
    // (the navigation timed out as stalled).
    let guarded = env.url("guarded-fragment.html");
    navigate(&mut b, &s, json!({"url": guarded}));
    let r = navigate(&mut b, &s, json!({"url": format!("{guarded}#blocked")}));
    assert_eq!(r["url"], guarded, "{r}");
    assert_eq!(r["title"], "Guarded fragment (refused)", "{r}");
    let r = navigate(&mut b, &s, json!({"url": format!("{guarded}#open")}));
    assert_eq!(r["url"], format!("{guarded}#open"), "{r}");

    // A title longer than the browser keeps in its history comes whole.
    let long = "T".repeat(5000);
    let r = navigate(
        &mut b,
        &s,
        json!({"url": format!("data:text/html,<title>{long}</title>")}),
    );
    assert_eq!(r["title"], long.as_str(), "a title of 5000 characters");

    // A dialog holds the page while it loads: the browser still says
    // where the tab is and what the page is called.
    let alerting = "data:text/html,<title>Alerting</title><script>alert('loading')</script>";
    let r = navigate(&mut b, &s, json!({"url": alerting}));
    assert_eq!(r["title"], "Alerting", "{r}");
    assert!(
        r["url"].as_str().unwrap().starts_with("data:text/html,"),
        "{r}"
    );
    let listed = b.tool_ok(&s, "browser.dialogs.list", json!({}));
    let id = listed["dialogs"][0]["dialogId"].as_str().expect("a dialog");
    b.tool_ok(
        &s,
        "browser.dialogs.respond",
        json!({"dialogId": id, "accept": true}),
    );
    b.finish();
}

/// (taken from the read sent with the text, read again, sent again
/// early) so far.
fn readbacks(b: &mut Bridge) -> (u64, u64, u64) {
    counted(b, "typedReadbacks", "withText")
}

/// (taken from the read sent with the release, read again, sent again
/// early) so far.
fn click_readbacks(b: &mut Bridge) -> (u64, u64, u64) {
    counted(b, "clickReadbacks", "withRelease")
}

/// (taken, read again once the input was answered, sent again while it
/// was not: the one before came back too early) so far, for `kind`.
fn counted(b: &mut Bridge, kind: &str, taken: &str) -> (u64, u64, u64) {
    let status = b.call("broker/status", json!({}));
    let r = &status["browser"][kind];
    (
        r[taken].as_u64().expect("taken"),
        r["readAgain"].as_u64().expect("readAgain"),
        r["sentAgainEarly"].as_u64().expect("sentAgainEarly"),
    )
}

/// A bridge session on a launched browser with `page` open in a tab of
/// its own, and that page's first observation.
fn observed(env: &Env, key: &str, page: &str) -> (Bridge, Session, Value) {
    env.launch();
    let mut b = Bridge::start(env);
    let s = b.session(key, 60_000);
    b.tool_ok(&s, "browser.tabs.open", json!({"url": env.url(page)}));
    let obs = b.tool_ok(&s, "browser.observe", json!({}));
    (b, s, obs)
}

fn commands(b: &mut Bridge) -> u64 {
    let status = b.call("broker/status", json!({}));
    status["cdpCommandsSent"].as_u64().expect("cdpCommandsSent")
}

#[test]
fn a_click_is_read_after_only_by_a_read_that_ran_after_it() {
    let env = Env::new();
    let (mut b, s, obs) = observed(&env, "click-readback", "counter.html");
    let id = obs["observationId"].clone();
    let count: u32 = find_ref(&obs, "button", "Count").parse().unwrap();
    let guarded: u32 = find_ref(&obs, "button", "Guarded count").parse().unwrap();
    let start = click_readbacks(&mut b);
    // Every click retitles the page before its handler returns, so an
    // after-read taken before the page handled the release would miss
    // the new title: the read sent with the release is taken only once
    // the page's pointerup count shows it ran after it. One page that
    // cancels pointerdown (no mouseup then) is proved the same way.
    let rounds = 24;
    for i in 1..=rounds {
        let button = if i % 4 == 0 { guarded } else { count };
        let (sent, (_, again, early)) = (commands(&mut b), click_readbacks(&mut b));
        let r = b.tool_ok(
            &s,
            "browser.click",
            json!({"observationId": id, "ref": button}),
        );
        assert_eq!(r["evidence"]["status"], "verified", "click {i}: {r}");
        let signals = r["evidence"]["signals"].to_string();
        assert!(signals.contains("title_changed"), "click {i}: {r}");
        // Five commands a click (the ref's live check with the aim, which
        // also finds the button ready for input and installs the settle
        // observer; the move, the press, the release, the read, which
        // also reads that observer), one more for each read sent again,
        // early or once the release was answered; no release of objects.
        // The click started no request: settling costs nothing.
        let (after, (_, again_after, early_after)) = (commands(&mut b), click_readbacks(&mut b));
        let extra = again_after - again + early_after - early;
        assert_eq!(after - sent, 5 + extra, "click {i}");
    }
    let (taken, again, early) = click_readbacks(&mut b);
    assert_eq!(taken + again, start.0 + start.1 + rounds);
    assert!(taken > start.0, "no read sent with a release was taken");
    eprintln!(
        "click read-backs: {} taken, {} read again, {} sent again early",
        taken - start.0,
        again - start.1,
        early - start.2
    );
    let page = b.tool_ok(&s, "browser.observe", json!({}));
    assert_eq!(page["title"], format!("Clicked {rounds}"), "{page}");
    b.finish();
}

#[test]
fn a_key_is_read_after_only_by_a_read_that_ran_after_it() {
    let env = Env::new();
    let (mut b, s, obs) = observed(&env, "key-readback", "form.html");
    let id = obs["observationId"].clone();
    let name: u32 = find_ref(&obs, "textbox", "Name").parse().unwrap();
    b.tool_ok(
        &s,
        "browser.type",
        json!({"observationId": id, "ref": name, "text": "", "clear": true}),
    );
    // Each key's focus check reads the field's document's keyup count,
    // and the next key's focus read goes out with its release, taken
    // only once that count has moved on. Every key is checked, and lands.
    let keys = "abcdefghijklmnopqrst";
    let start = counted(&mut b, "keyReadbacks", "withKey");
    let sent = commands(&mut b);
    b.tool_ok(&s, "browser.keyboard", json!({"text": keys}));
    let after = commands(&mut b);
    let (taken, again, early) = counted(&mut b, "keyReadbacks", "withKey");
    // The first key's focus check names the element afresh, which reads
    // no count: its focus is read once it is answered. Every later key's
    // read went out with its release.
    let (taken, again, early) = (taken - start.0, again - start.1, early - start.2);
    assert_eq!(taken + again, keys.len() as u64 - 1, "{taken} {again}");
    assert!(taken > 0, "no read sent with a key was taken");
    // Three commands a key (press, release, focus read), one more for
    // each read sent again, early or once the key was answered; and
    // three for the action (the page read before and after it, and the
    // first focus check, which names the element).
    eprintln!("key read-backs: {taken} taken, {again} read again, {early} sent again early");
    assert_eq!(after - sent, 3 * keys.len() as u64 + 3 + again + early);
    let page = b.tool_ok(&s, "browser.observe", json!({}));
    assert!(page.to_string().contains(keys), "{page}");
    b.finish();
}

#[test]
fn typed_text_is_read_back_only_by_a_read_that_shows_it() {
    let env = Env::new();
    let (mut b, s, obs) = observed(&env, "readback", "form.html");
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
    let (with_text, again, _) = readbacks(&mut b);
    assert_eq!(with_text + again, start.0 + start.1 + 3);

    // The field already holds the text it is cleared and typed into: no
    // read can show that this text went in, so it is always read again
    // once the text is answered.
    type_into(&mut b, name, "Grace", true);
    let before = readbacks(&mut b);
    type_into(&mut b, name, "Grace", true);
    let after = readbacks(&mut b);
    assert_eq!((after.0, after.1), (before.0, before.1 + 1));

    // Every read of a type action is by value and answered, so the call
    // leaves no remote object to release: exactly its four commands go
    // out (focus, which also checks the field is ready and installs the
    // settle observer; text; the key released after it; read-back, which
    // also finds that observer saw no mutation, so settling sends
    // nothing), and one more for each read sent again
    // (early, or once the text was answered).
    // A release would queue in the page ahead of the next call's first
    // command.
    for text in ["Ada", "Grace", "Lovelace"] {
        let (sent, (_, again, early)) = (commands(&mut b), readbacks(&mut b));
        type_into(&mut b, name, text, true);
        std::thread::sleep(std::time::Duration::from_millis(200));
        let (after, (_, again_after, early_after)) = (commands(&mut b), readbacks(&mut b));
        let extra = again_after - again + early_after - early;
        assert_eq!(after - sent, 4 + extra, "typing {text}");
    }

    let obs = b.tool_ok(&s, "browser.observe", json!({}));
    assert!(obs.to_string().contains("Lovelace"), "{obs}");
    b.finish();
}

#[test]
fn a_field_its_focus_handler_changes_is_judged_as_the_text_finds_it() {
    let env = Env::new();
    env.launch();
    let mut b = Bridge::start(&env);
    let s = b.session("focus-handler", 60_000);
    b.tool_ok(
        &s,
        "browser.tabs.open",
        json!({"url": env.url("focus-clears.html")}),
    );
    let obs = b.tool_ok(&s, "browser.observe", json!({}));
    let id = obs["observationId"].clone();
    let pin: u32 = find_ref(&obs, "textbox", "PIN").parse().unwrap();
    let amount: u32 = find_ref(&obs, "textbox", "Amount").parse().unwrap();
    let start = readbacks(&mut b);

    // The PIN empties itself on focus: four digits make four characters,
    // not the eight it held plus four. A read from before the text (still
    // empty) must not pass for the read-back either.
    let r = b.tool_ok(
        &s,
        "browser.type",
        json!({"observationId": id, "ref": pin, "text": "4321"}),
    );
    assert_eq!(r["evidence"]["status"], "verified", "{r}");

    // The amount drops its formatting on focus; the digit joins the bare
    // number.
    let r = b.tool_ok(
        &s,
        "browser.type",
        json!({"observationId": id, "ref": amount, "text": "5"}),
    );
    assert_eq!(r["evidence"]["status"], "verified", "{r}");
    let (with_text, again, _) = readbacks(&mut b);
    assert_eq!(with_text + again, start.0 + start.1 + 2);

    // The note turns read-only once focused. It was editable when focus
    // was given, so the typing goes on and the read-back tells what
    // happened: nothing went in.
    let locked: u32 = find_ref(&obs, "textbox", "Locked note").parse().unwrap();
    let r = b.tool_ok(
        &s,
        "browser.type",
        json!({"observationId": id, "ref": locked, "text": "more"}),
    );
    assert_eq!(r["evidence"]["status"], "mismatch", "{r}");

    let obs = b.tool_ok(&s, "browser.observe", json!({}));
    let shown = obs["elements"]
        .as_array()
        .unwrap()
        .iter()
        .find(|e| e["name"] == "Amount")
        .expect("the amount field")["value"]
        .as_str()
        .unwrap_or_default()
        .to_string();
    assert!(shown == "12005" || shown == "51200", "{obs}");
    b.finish();
}
