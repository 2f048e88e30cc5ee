//! JavaScript dialogs: held until answered, never auto-accepted, visible and
//! answerable only by the workspace that controls the tab.
#![allow(clippy::unwrap_used, clippy::expect_used)] // tests may panic

mod support;
use serde_json::json;
use support::bridge::two_clients;
use support::{find_ref, Env};

#[test]
fn dialogs_wait_for_an_answer_and_the_page_sees_it() {
    let env = Env::new();
    env.launch();
    env.open("dialogs.html");
    let obs = env.snapshot(None);
    for (button, answer, expected) in [
        (
            "Prompt",
            vec!["dialog", "accept", "--text", "Ada"],
            "Prompt: Ada",
        ),
        ("Confirm", vec!["dialog", "dismiss"], "Confirm: false"),
        ("Confirm", vec!["dialog", "accept"], "Confirm: true"),
        ("Alert", vec!["dialog", "accept"], "Alert closed"),
    ] {
        let started = std::time::Instant::now();
        let clicked = env.json(&["click", &find_ref(&obs, "button", button)]);
        assert!(
            started.elapsed() < std::time::Duration::from_secs(5),
            "the click hung on the dialog"
        );
        assert_eq!(
            clicked["evidence"]["signals"],
            json!(["dialog_opened"]),
            "{clicked}"
        );
        // Still pending: nothing answered it.
        std::thread::sleep(std::time::Duration::from_millis(300));
        let pending = env.json(&["dialogs"]);
        assert_eq!(pending["dialogs"].as_array().unwrap().len(), 1, "{pending}");
        let (code, run) = env.err(&["snapshot"]);
        assert_eq!(code, "action_not_verified", "{}", run.stderr());
        env.ok(&answer);
        let text = env.ok(&["read"]);
        assert!(text.contains(expected), "{button}: {text}");
        assert_eq!(env.json(&["dialogs"])["dialogs"], json!([]));
    }
    let (code, _) = env.err(&["dialog", "accept"]);
    assert_eq!(code, "invalid_argument");
}

#[test]
fn dialogs_are_private_and_watched() {
    let env = Env::new();
    env.launch();
    let (mut a, sa, mut b, sb) = two_clients(&env, 60_000);
    a.tool_ok(
        &sa,
        "browser.tabs.open",
        json!({"url": env.url("dialogs.html")}),
    );
    b.tool_ok(&sb, "browser.tabs.open", json!({}));
    let obs = a.tool_ok(&sa, "browser.observe", json!({}));
    let confirm = find_ref(&obs, "button", "Confirm").parse::<u32>().unwrap();
    a.tool_ok(
        &sa,
        "browser.click",
        json!({"observationId": obs["observationId"], "ref": confirm}),
    );
    let listed = a.tool_ok(&sa, "browser.dialogs.list", json!({}));
    let id = listed["dialogs"][0]["dialogId"]
        .as_str()
        .unwrap()
        .to_string();
    assert_eq!(listed["dialogs"][0]["type"], "confirm");
    // B sees nothing and cannot answer.
    assert_eq!(
        b.tool_ok(&sb, "browser.dialogs.list", json!({}))["dialogs"],
        json!([])
    );
    assert_eq!(
        b.tool_code(
            &sb,
            "browser.dialogs.respond",
            json!({"dialogId": id, "accept": true})
        ),
        "invalid_argument"
    );
    // Left pending, the watchdog speaks once; the dialog stays pending.
    std::thread::sleep(std::time::Duration::from_millis(7_500));
    let events = a.events(&sa);
    let kinds = a.event_kinds(&sa);
    assert_eq!(
        kinds
            .iter()
            .filter(|k| *k == "watchdog.dialog_unhandled")
            .count(),
        1,
        "{kinds:?}"
    );
    assert!(kinds.iter().any(|k| k == "dialog.opened"), "{kinds:?}");
    assert_eq!(
        a.tool_ok(&sa, "browser.dialogs.list", json!({}))["dialogs"]
            .as_array()
            .unwrap()
            .len(),
        1
    );
    a.tool_ok(
        &sa,
        "browser.dialogs.respond",
        json!({"dialogId": id, "accept": true}),
    );
    let text = a.tool_ok(&sa, "browser.read", json!({}));
    assert!(
        text["text"].as_str().unwrap().contains("Confirm: true"),
        "{text}"
    );
    assert!(
        !serde_json::to_string(&events).unwrap().contains("Proceed?"),
        "dialog text must not be in events"
    );
}

#[test]
fn navigation_held_by_beforeunload_returns_promptly() {
    let env = Env::new();
    env.launch();
    env.open("dialogs.html");
    let obs = env.snapshot(None);
    // A trusted click gives the page the user activation beforeunload needs.
    env.ok(&["click", &find_ref(&obs, "button", "Warn before leaving")]);
    let started = std::time::Instant::now();
    let (code, run) = env.err(&["open", &env.url("next.html"), "--json"]);
    assert!(
        started.elapsed() < std::time::Duration::from_secs(10),
        "the navigation hung on the dialog"
    );
    assert_eq!(code, "unknown_outcome", "{}", run.stdout());
    let v: serde_json::Value = serde_json::from_str(run.stdout().trim()).unwrap();
    assert_eq!(v["error"]["context"]["reason"], "dialog_opened", "{v}");
    assert_eq!(v["error"]["context"]["step"], "goto");
    let pending = env.json(&["dialogs"]);
    assert_eq!(pending["dialogs"][0]["type"], "beforeunload", "{pending}");
    // Leaving is the user's (or agent's) answer; then the page changes.
    env.ok(&["dialog", "accept"]);
    let mut text = String::new();
    for _ in 0..50 {
        // While the new page commits a read may fail; try again.
        let run = env.run(&["read"]);
        text = run.stdout();
        if run.ok() && text.contains("You arrived") {
            break;
        }
        std::thread::sleep(std::time::Duration::from_millis(100));
    }
    assert!(text.contains("You arrived"), "{text}");
}
