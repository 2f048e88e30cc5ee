//! JavaScript dialogs: held until answered, never auto-accepted, visible and
//! answerable only by the workspace that controls the tab.
#![allow(clippy::unwrap_used, clippy::expect_used)] // tests may panic

mod support;
use serde_json::json;
use support::bridge::two_clients;
use support::{find_ref, poll_until, Env, POLL_LIMIT};

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
        // The click returns while the dialog is still open (it does not
        // wait for an answer): it reports the dialog, which stays pending.
        let clicked = env.json(&["click", &find_ref(&obs, "button", button)]);
        assert_eq!(
            clicked["evidence"]["signals"],
            json!(["dialog_opened"]),
            "{clicked}"
        );
        // Still pending: nothing answered it, before or after a refused
        // observation.
        let pending = env.json(&["dialogs"]);
        assert_eq!(pending["dialogs"].as_array().unwrap().len(), 1, "{pending}");
        let (code, run) = env.err(&["snapshot", "--json"]);
        assert_eq!(code, "action_not_verified", "{}", run.stderr());
        let refused: serde_json::Value = serde_json::from_str(run.stdout().trim()).unwrap();
        assert_eq!(
            refused["error"]["context"]["reason"], "dialog_open",
            "{refused}"
        );
        assert_eq!(env.json(&["dialogs"])["dialogs"], pending["dialogs"]);
        env.ok(&answer);
        let text = env.ok(&["read"]);
        assert!(text.contains(expected), "{button}: {text}");
        assert_eq!(env.json(&["dialogs"])["dialogs"], json!([]));
    }
    let (code, _) = env.err(&["dialog", "accept"]);
    assert_eq!(code, "invalid_argument");
}

#[test]
fn a_dialog_opened_as_the_pointer_arrives_leaves_the_click_unknown() {
    let env = Env::new();
    env.launch();
    env.open("dialogs.html");
    let obs = env.snapshot(None);
    let hover = find_ref(&obs, "button", "Hover alert");
    let (code, run) = env.err(&["click", &hover, "--json"]);
    assert_eq!(code, "unknown_outcome", "{}", run.stdout());
    let v: serde_json::Value = serde_json::from_str(run.stdout().trim()).unwrap();
    let context = &v["error"]["context"];
    assert_eq!(context["reason"], "dialog_opened", "{v}");
    assert_eq!(
        env.json(&["dialogs"])["dialogs"].as_array().unwrap().len(),
        1
    );
    // The report says how far the click got: the press sent behind the
    // move (which the browser may deliver after the answer, or drop), or
    // not sent at all.
    let press_sent = match context["step"].as_str().unwrap() {
        "mouseMoved" => {
            assert_eq!(context["dispatchedSteps"], 2, "{v}");
            true
        }
        "mousePressed" => {
            assert_eq!(context["dispatchedSteps"], 1, "{v}");
            false
        }
        other => panic!("unexpected step {other}: {v}"),
    };
    // Answered, the page goes on; the button can be clicked for real now.
    // Each press retitles the page, so the click is verified whether or not
    // the first press reached the page (if it did, the button already has
    // the focus and focus alone would show nothing).
    env.ok(&["dialog", "accept"]);
    let clicked = env.json(&["click", &hover]);
    assert_eq!(clicked["evidence"]["status"], "verified", "{clicked}");
    let signals = clicked["evidence"]["signals"].as_array().unwrap();
    assert!(signals.contains(&json!("title_changed")), "{clicked}");
    // One press from this click, and one more only if the first was sent.
    let text = env.ok(&["read"]);
    let presses = if text.contains("Hover button pressed 2") {
        2
    } else {
        assert!(text.contains("Hover button pressed 1"), "{text}");
        1
    };
    assert!(
        presses == 1 || press_sent,
        "a press that was never sent arrived: {text}"
    );
}

/// A press handler that opens a dialog: the pointer move and the press
/// both reached the page, so the click is done and says the dialog
/// opened (the move is not blamed, though the press went out before the
/// move was answered).
#[test]
fn a_dialog_opened_by_the_press_is_the_clicks_own_effect() {
    let env = Env::new();
    env.launch();
    env.open("dialogs.html");
    for round in 0..3 {
        let obs = env.snapshot(None);
        let press = find_ref(&obs, "button", "Press alert");
        let clicked = env.json(&["click", &press]);
        assert_eq!(
            clicked["evidence"]["status"], "verified",
            "round {round}: {clicked}"
        );
        assert_eq!(
            clicked["evidence"]["signals"],
            json!(["dialog_opened"]),
            "round {round}: {clicked}"
        );
        let dialogs = env.json(&["dialogs"]);
        assert_eq!(
            dialogs["dialogs"][0]["message"], "Button pressed",
            "{dialogs}"
        );
        env.ok(&["dialog", "accept"]);
        assert!(env.ok(&["read"]).contains("Press alert answered"));
    }
}

/// A focus handler that opens a dialog: `type` reports that its focus
/// step was dispatched and nothing was typed, and the field takes text
/// once the dialog is answered.
#[test]
fn a_dialog_opened_by_focusing_leaves_the_typing_unknown() {
    let env = Env::new();
    env.launch();
    env.open("dialogs.html");
    let obs = env.snapshot(None);
    let field = find_ref(&obs, "textbox", "Nickname");
    let (code, run) = env.err(&["type", &field, "Ada", "--clear", "--json"]);
    assert_eq!(code, "unknown_outcome", "{}", run.stdout());
    let v: serde_json::Value = serde_json::from_str(run.stdout().trim()).unwrap();
    let context = &v["error"]["context"];
    assert_eq!(context["reason"], "dialog_opened", "{v}");
    assert_eq!(context["step"], "select_all", "{v}");
    assert_eq!(context["dispatchedSteps"], 1, "{v}");
    assert_eq!(context["remainingStepsStopped"], 3, "{v}");
    let dialogs = env.json(&["dialogs"]);
    assert_eq!(
        dialogs["dialogs"][0]["message"], "Field focused",
        "{dialogs}"
    );
    env.ok(&["dialog", "accept"]);
    let typed = env.json(&["type", &field, "Ada"]);
    assert_eq!(typed["evidence"]["status"], "verified", "{typed}");
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
    // Input while it is open is refused before any key is sent.
    for (tool, args) in [
        ("browser.press", json!({"key": "Enter"})),
        ("browser.keyboard", json!({"text": "x"})),
    ] {
        let r = a.tool(&sa, tool, args);
        assert_eq!(r["error"]["code"], "action_not_verified", "{tool}: {r}");
        assert_eq!(
            r["error"]["context"]["reason"], "dialog_open",
            "{tool}: {r}"
        );
    }
    // Left pending, the watchdog speaks once; the dialog stays pending.
    let spoke = a.wait_event(&sa.workspace, &sa.cursor, "watchdog.dialog_unhandled");
    assert_eq!(spoke["payload"]["dialogId"], id.as_str(), "{spoke}");
    // "Once": the broker's sweeper looks every second; let it look twice
    // more. This wait is the point of the check, not a guess at readiness.
    std::thread::sleep(std::time::Duration::from_millis(2_200));
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
    // The navigation returns (bounded by the run limit) with the dialog as
    // its reason, while the dialog is still pending.
    let (code, run) = env.err(&["open", &env.url("next.html"), "--json"]);
    assert_eq!(code, "unknown_outcome", "{}", run.stdout());
    let v: serde_json::Value = serde_json::from_str(run.stdout().trim()).unwrap();
    assert_eq!(v["error"]["context"]["reason"], "dialog_opened", "{v}");
    assert_eq!(v["error"]["context"]["step"], "goto");
    let pending = env.json(&["dialogs"]);
    assert_eq!(pending["dialogs"][0]["type"], "beforeunload", "{pending}");
    // Leaving is the user's (or agent's) answer; then the page changes.
    env.ok(&["dialog", "accept"]);
    // While the new page commits a read may fail; try again.
    poll_until(POLL_LIMIT, "the next page after leaving", || {
        let run = env.run(&["read"]);
        run.ok() && run.stdout().contains("You arrived")
    });
}

/// Opening a page again right after leaving it through a `beforeunload`
/// dialog loads it: the navigation the answer let go commits first (else
/// Chromium could leave the new one unanswered for 30 s). Several rounds,
/// as the race does not lose every time.
#[test]
fn reopening_after_an_accepted_beforeunload_loads_promptly() {
    let env = Env::new();
    env.launch();
    let url = env.url("dialogs.html");
    for round in 1..=5 {
        env.open("dialogs.html");
        let obs = env.snapshot(None);
        env.ok(&["click", &find_ref(&obs, "button", "Warn before leaving")]);
        let (code, run) = env.err(&["open", &url, "--json"]);
        assert_eq!(code, "unknown_outcome", "round {round}: {}", run.stdout());
        assert!(
            run.stdout().contains("dialog_opened"),
            "round {round}: {}",
            run.stdout()
        );
        env.ok(&["dialog", "accept"]);
        let started = std::time::Instant::now();
        let opened = env.json(&["open", &url]);
        assert_eq!(opened["title"], "Dialogs", "round {round}: {opened}");
        assert!(
            started.elapsed() < std::time::Duration::from_secs(10),
            "round {round}: the second open took {:?}",
            started.elapsed()
        );
        let pending = env.json(&["dialogs"]);
        assert_eq!(pending["dialogs"], json!([]), "round {round}: {pending}");
    }
}
