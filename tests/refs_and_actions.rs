//! Refs and actions against real pages: stale refs after navigation,
//! refusal when covered, scrolling, navigation evidence, truncation.
#![allow(clippy::unwrap_used, clippy::expect_used)] // tests may panic

mod support;
use support::{find_ref, poll_for, Env, POLL_LIMIT};

#[test]
fn stale_ref_after_navigation_reports_reason() {
    let env = Env::new();
    env.launch();
    env.open("navigate.html");
    let obs = env.snapshot(None);
    let link = find_ref(&obs, "link", "Go to next page");
    let clicked = env.json(&["click", &link]);
    assert_eq!(clicked["evidence"]["status"], "verified", "{clicked}");
    let signals = clicked["evidence"]["signals"].to_string();
    assert!(signals.contains("navigation"), "{clicked}");
    assert!(env.ok(&["read"]).contains("You arrived"));

    // The old observation's refs are now stale, with the reason.
    let obs_id = obs["observationId"]
        .as_str()
        .unwrap_or_default()
        .to_string();
    let input = format!("{{\"observationId\": \"{obs_id}\", \"ref\": {link}}}");
    let (code, run) = env.err(&["tool", "call", "browser.click", "--input", &input, "--json"]);
    assert_eq!(code, "stale_ref");
    assert!(
        run.stderr().contains("reason: navigation"),
        "{}",
        run.stderr()
    );
    let json_err: serde_json::Value = serde_json::from_str(run.stdout().trim()).unwrap_or_default();
    assert_eq!(
        json_err["error"]["context"]["reason"],
        "navigation",
        "{}",
        run.stdout()
    );

    // A script navigation through the button also counts, and history works.
    env.ok(&["open", &env.url("navigate.html")]);
    let obs = env.snapshot(None);
    let button = find_ref(&obs, "button", "Next via script");
    env.ok(&["click", &button]);
    assert_eq!(
        env.json(&[
            "tool",
            "call",
            "browser.navigate",
            "--input",
            "{\"action\": \"back\"}"
        ])["title"],
        "Navigate start"
    );
}

#[test]
fn covered_button_is_refused_with_the_cover_named() {
    let env = Env::new();
    env.launch();
    env.open("overlay.html");
    let obs = env.snapshot(None);
    let buy = find_ref(&obs, "button", "Buy now");
    let (code, run) = env.err(&["click", &buy, "--json"]);
    assert_eq!(code, "action_not_verified");
    let err: serde_json::Value = serde_json::from_str(run.stdout().trim()).unwrap_or_default();
    assert_eq!(
        err["error"]["context"]["coveringRole"],
        "dialog",
        "{}",
        run.stdout()
    );
    assert_eq!(
        err["error"]["context"]["coveringName"],
        "Cookie consent",
        "{}",
        run.stdout()
    );
    assert!(
        !env.ok(&["read"]).contains("Bought"),
        "the covered button must not have been clicked"
    );

    let accept = find_ref(&obs, "button", "Accept cookies");
    env.ok(&["click", &accept]);
    let obs = env.snapshot(None);
    env.ok(&["click", &find_ref(&obs, "button", "Buy now")]);
    assert!(env.ok(&["read"]).contains("Bought"));
}

/// A control under its own parts is clicked, and the evidence says what
/// the pointer landed on; a real layer over a control is still refused.
#[test]
fn a_control_under_its_own_parts_is_clicked_and_a_real_cover_refused() {
    let env = Env::new();
    env.launch();
    env.open("own-parts.html");
    let obs = env.snapshot(None);
    // The range input is invisible under its styled track (a sibling).
    let slider = env.json(&["click", &find_ref(&obs, "slider", "Volume")]);
    assert_eq!(slider["evidence"]["hit"], "own_part", "{slider}");
    assert_eq!(slider["evidence"]["status"], "verified", "{slider}");
    assert!(env.ok(&["read"]).contains("Volume 50"));
    // The checkbox is invisible under a styled box inside its label.
    let news = env.json(&["click", &find_ref(&obs, "checkbox", "Send me news")]);
    assert_eq!(news["evidence"]["hit"], "own_label", "{news}");
    assert_eq!(news["evidence"]["status"], "verified", "{news}");
    assert!(env.ok(&["read"]).contains("News on"));
    // A plain button is hit directly: no `hit` in its evidence.
    env.open("form.html");
    let form = env.snapshot(None);
    let button = form["elements"]
        .as_array()
        .unwrap()
        .iter()
        .find(|e| e["role"] == "button")
        .map(|e| e["ref"].to_string())
        .expect("a button on form.html");
    let direct = env.json(&["click", &button]);
    assert!(direct["evidence"].get("hit").is_none(), "{direct}");
    // The button under a modal layer of its own group stays refused.
    env.open("own-parts.html");
    let obs = env.snapshot(None);
    let (code, run) = env.err(&[
        "click",
        &find_ref(&obs, "button", "Delete everything"),
        "--json",
    ]);
    assert_eq!(code, "action_not_verified", "{}", run.stdout());
    let err: serde_json::Value = serde_json::from_str(run.stdout().trim()).unwrap_or_default();
    assert_eq!(err["error"]["context"]["reason"], "covered", "{err}");
    assert_eq!(err["error"]["context"]["coveringRole"], "dialog", "{err}");
    assert!(!env.ok(&["read"]).contains("Wiped"));
}

#[test]
fn click_and_type_below_the_fold() {
    let env = Env::new();
    env.launch();
    env.open("long.html");
    let obs = env.snapshot(None);
    let field = find_ref(&obs, "textbox", "Bottom field");
    let typed = env.json(&["type", &field, "deep"]);
    assert_eq!(typed["evidence"]["status"], "verified", "{typed}");
    let clicked = env.json(&["click", &find_ref(&obs, "button", "Bottom button")]);
    assert_eq!(clicked["evidence"]["route"], "trusted_input", "{clicked}");
    assert!(env.ok(&["read"]).contains("Clicked bottom"));
}

#[test]
fn large_page_is_truncated_explicitly() {
    let env = Env::new();
    env.launch();
    env.open("rows.html");
    let obs = env.snapshot(None);
    assert_eq!(obs["elements"].as_array().map(Vec::len), Some(50));
    assert_eq!(obs["truncated"], true);
    assert_eq!(
        obs["truncationReasons"],
        serde_json::json!(["element_limit"])
    );

    let all = env.snapshot(Some(10_000));
    let count = all["elements"].as_array().map(Vec::len).unwrap_or(0);
    assert!(count >= 3_200, "expected every row control, got {count}");
    assert_eq!(all["truncated"], false, "{}", all["truncationReasons"]);
    // Refs from the big observation act on the right row.
    let ref_1500 = find_ref(&all, "button", "Row 1500");
    let checkbox = find_ref(&all, "checkbox", "Select row 1500");
    env.ok(&["click", &ref_1500]);
    let clicked = env.json(&["click", &checkbox]);
    assert!(
        clicked["evidence"]["signals"]
            .to_string()
            .contains("checked_changed"),
        "{clicked}"
    );
    let again = env.snapshot(Some(10_000));
    let row = again["elements"]
        .as_array()
        .into_iter()
        .flatten()
        .find(|e| e["name"] == "Select row 1500")
        .cloned();
    assert_eq!(
        row.map(|r| r["checked"].clone()),
        Some(serde_json::json!("true"))
    );
}

/// The error context of a failed `bp ... --json` run.
fn error_context(run: &support::Run) -> serde_json::Value {
    let v: serde_json::Value = serde_json::from_str(run.stdout().trim()).unwrap_or_default();
    v["error"]["context"].clone()
}

#[test]
fn composite_typing_stops_when_the_page_or_focus_changes_under_it() {
    let env = Env::new();
    env.launch();
    env.open("typing.html");
    let obs = env.snapshot(None);

    // The third key starts a navigation: no later key reaches the new page.
    env.ok(&["click", &find_ref(&obs, "textbox", "Code")]);
    let (code, run) = env.err(&["keyboard", "abcdefgh", "--json"]);
    assert_eq!(code, "unknown_outcome", "{}", run.stdout());
    let ctx = error_context(&run);
    assert_eq!(ctx["action"], "keyboard", "{ctx}");
    assert_eq!(ctx["step"], "key");
    assert_eq!(ctx["reason"], "navigation");
    let sent = ctx["dispatchedSteps"].as_u64().unwrap();
    assert!((3..8).contains(&sent), "{ctx}");
    assert_eq!(sent + ctx["remainingStepsStopped"].as_u64().unwrap(), 8);
    assert!(env.ok(&["read"]).contains("You arrived"));

    // The third key moves focus: the rest is not typed into the new field.
    env.open("typing.html");
    let obs = env.snapshot(None);
    env.ok(&["click", &find_ref(&obs, "textbox", "Name")]);
    let (code, run) = env.err(&["keyboard", "abcdef", "--json"]);
    assert_eq!(code, "unknown_outcome", "{}", run.stdout());
    let ctx = error_context(&run);
    assert_eq!(ctx["reason"], "focus_changed", "{ctx}");
    assert_eq!(ctx["dispatchedSteps"], 3, "{ctx}");
    assert_eq!(ctx["remainingStepsStopped"], 3, "{ctx}");
    let after = env.snapshot(None);
    assert_eq!(value_of(&after, "Name"), "abc", "{after}");
    let other = value_of(&after, "Other");
    assert!(other.is_null() || other == "", "{after}");
}

/// The observed value of the element named `name` (null if it shows none).
fn value_of(obs: &serde_json::Value, name: &str) -> serde_json::Value {
    obs["elements"]
        .as_array()
        .unwrap()
        .iter()
        .find(|e| e["name"] == name)
        .map(|e| e["value"].clone())
        .unwrap_or_else(|| panic!("no element {name:?} in {obs}"))
}

/// A field that cannot take text never gets the text, and neither does
/// the field that had focus: one inside a disabled fieldset is refused
/// `disabled` (once the wait for it to be enabled runs out), a checkbox
/// is not editable even inside an editable region, and one made inert
/// after it was observed cannot take focus.
#[test]
fn typing_never_reaches_a_field_that_cannot_take_it() {
    let env = Env::new();
    env.launch();
    env.open("typing.html");
    let obs = env.snapshot(None);
    let keeper = find_ref(&obs, "textbox", "Keeper");
    let typed = env.json(&["type", &keeper, "lock"]);
    assert_eq!(typed["evidence"]["status"], "verified", "{typed}");
    for (name, reason) in [("Frozen", "disabled"), ("Locked", "browser_refused")] {
        let field = find_ref(&obs, "textbox", name);
        let (code, run) = env.err(&[
            "tool",
            "call",
            "browser.type",
            "--input",
            &format!(
                "{{\"ref\": {field}, \"text\": \"secret\", \"clear\": true, \"waitMs\": 200}}"
            ),
            "--json",
        ]);
        assert_eq!(code, "action_not_verified", "{name}: {}", run.stdout());
        assert_eq!(error_context(&run)["reason"], reason, "{name}");
    }
    let agree = find_ref(&obs, "checkbox", "Agree");
    let (code, run) = env.err(&["type", &agree, "secret", "--json"]);
    assert_eq!(code, "action_not_verified", "Agree: {}", run.stdout());
    assert_eq!(error_context(&run)["reason"], "not_editable", "Agree");
    let after = env.snapshot(None);
    assert_eq!(value_of(&after, "Keeper"), "lock", "{after}");
    assert!(!after.to_string().contains("secret"), "{after}");
    let region = env.ok(&["eval", "document.getElementById('region').textContent"]);
    assert!(region.contains("region text"), "{region}");
    assert!(!region.contains("secret"), "{region}");
}

/// `type --clear` replaces what a field held, whatever kind it is: text,
/// password, email and number inputs, a textarea, a contenteditable
/// region; and clearing with empty text leaves the field empty.
#[test]
fn clearing_replaces_what_each_kind_of_field_held() {
    let env = Env::new();
    env.launch();
    env.open("clearing.html");
    let obs = env.snapshot(None);
    let value = |id: &str| {
        let js = format!(
            "(e => e.isContentEditable ? e.innerText : e.value)(document.getElementById('{id}'))"
        );
        env.json(&["eval", &js])["value"].clone()
    };
    for (role, name, id, text) in [
        ("textbox", "Title", "title", "new title"),
        ("textbox", "Secret", "secret", "n3w-secret"),
        ("textbox", "Mail", "mail", "ada@example.test"),
        ("spinbutton", "Count", "count", "7"),
        ("textbox", "Story", "story", "one line"),
        ("textbox", "Note", "note", "plain note"),
    ] {
        let field = find_ref(&obs, role, name);
        let typed = env.json(&["type", &field, text, "--clear"]);
        assert_eq!(typed["evidence"]["status"], "verified", "{name}: {typed}");
        assert_eq!(value(id), text, "{name}");
    }
    let title = find_ref(&obs, "textbox", "Title");
    let emptied = env.json(&["type", &title, "", "--clear"]);
    assert_eq!(emptied["evidence"]["status"], "verified", "{emptied}");
    assert_eq!(value("title"), "");
}

/// An observation read from one document and recorded after the next one
/// replaced it is refused (`action_not_verified`, reason
/// `document_changed`), never recorded against the new document.
#[test]
fn an_observation_overtaken_by_a_new_document_is_refused() {
    let env = Env::new();
    env.launch();
    env.open("reloading.html");
    // The page reloads itself every few milliseconds, so most reads are
    // overtaken; one that completes between two reloads is fine too.
    let refused = poll_for(
        POLL_LIMIT,
        "an observation refused as document_changed",
        || {
            let run = env.run(&["snapshot", "--limit", "500", "--json"]);
            if run.ok() {
                return None;
            }
            assert_eq!(run.code(), "action_not_verified", "{}", run.stdout());
            let v: serde_json::Value = serde_json::from_str(run.stdout().trim()).unwrap();
            (v["error"]["context"]["reason"] == "document_changed").then_some(v)
        },
    );
    assert_eq!(refused["error"]["retryable"], true, "{refused}");
}

/// Refs resolved since the browser connected: through the object the page
/// walk returned (held by the latest observation of the tab), and by
/// backend node ID.
fn refs_resolved(env: &Env) -> (u64, u64) {
    let status = env.status();
    let r = &status["browser"]["refsResolved"];
    (
        r["byHeldObject"].as_u64().expect("byHeldObject"),
        r["byBackendNode"].as_u64().expect("byBackendNode"),
    )
}

#[test]
fn refs_of_the_latest_observation_use_its_objects_and_older_ones_still_resolve() {
    let env = Env::new();
    env.launch();
    env.open("form.html");
    let first = env.snapshot(None);
    let name = find_ref(&first, "textbox", "Name");
    let start = refs_resolved(&env);
    let typed = env.json(&["type", &name, "Ada"]);
    assert_eq!(typed["evidence"]["status"], "verified", "{typed}");
    assert_eq!(refs_resolved(&env), (start.0 + 1, start.1));

    // A newer observation of the tab releases the first one's objects;
    // the first one's refs are resolved by backend node and act the same.
    let second = env.snapshot(None);
    let first_id = first["observationId"].as_str().unwrap();
    let input = format!(
        "{{\"observationId\": \"{first_id}\", \"ref\": {name}, \"text\": \"Grace\", \"clear\": true}}"
    );
    let typed = env.json(&["tool", "call", "browser.type", "--input", &input]);
    assert_eq!(typed["evidence"]["status"], "verified", "{typed}");
    assert_eq!(refs_resolved(&env), (start.0 + 1, start.1 + 1));
    let button = find_ref(&second, "button", "Sign in");
    env.ok(&["click", &button]);
    assert!(env.ok(&["read"]).contains("Signed in as Grace"));
    assert_eq!(refs_resolved(&env), (start.0 + 2, start.1 + 1));

    // A held element removed from the page is stale, not acted on.
    let third = env.snapshot(None);
    let remember = find_ref(&third, "checkbox", "Remember me");
    env.ok(&[
        "eval",
        "document.getElementById('remember').closest('label').remove()",
    ]);
    let (code, run) = env.err(&["click", &remember]);
    assert_eq!(code, "stale_ref", "{}", run.stderr());
}
