//! `waitMs` and `settle` on select, hover, drag and fill on real
//! Chromium, as click, type and press take them: a select whose change
//! handler saves with a request answered 400 ms later settles after it
//! (the read that follows shows what the answer brought), a hover that
//! makes a menu fetch its items reports them and its settle, a drag with
//! `settle: none` returns before the request its change started is
//! answered (and one without waits for it), a select or slider disabled
//! for a moment is chosen or dragged once enabled (and refused `disabled`
//! with `waitMs` 0), a hover waits out a passing cover (refused
//! `covered` with `waitMs` 0), and bad values are refused.
#![allow(clippy::unwrap_used, clippy::expect_used)] // tests may panic

mod support;
use serde_json::{json, Value};
use std::time::Duration;
use support::{find_ref, Env};

fn open(env: &Env) -> Value {
    env.launch();
    env.open("pace.html");
    env.snapshot(None)
}

fn eval(env: &Env, expression: &str) -> String {
    let out = env.ok(&["eval", expression]);
    out.trim().trim_matches('"').to_string()
}

fn waited(settle: &Value) -> u64 {
    settle["waitedMs"]
        .as_u64()
        .unwrap_or_else(|| panic!("no waitedMs in {settle}"))
}

/// The JSON error of a `bp ARGS --json` that must fail.
fn refusal(env: &Env, args: &[&str]) -> Value {
    let mut a = args.to_vec();
    a.push("--json");
    let (_, run) = env.err(&a);
    let v: Value = serde_json::from_str(run.stdout().trim())
        .unwrap_or_else(|e| panic!("{args:?}: not JSON ({e}): {}", run.stdout()));
    v["error"].clone()
}

#[test]
fn a_select_settles_after_the_request_its_change_handler_started() {
    let env = Env::new();
    let obs = open(&env);
    let size = find_ref(&obs, "combobox", "Size");
    let v = env.json(&["select", &size, "Large"]);
    assert_eq!(v["evidence"]["verdict"], "value_matches", "{v}");
    let s = &v["evidence"]["settle"];
    assert_eq!(s["state"], "settled", "{v}");
    assert_eq!(s["requests"], 0, "{v}");
    assert!(waited(s) >= 350, "{v}");
    // What the answer brought is there for the next read.
    assert_eq!(
        eval(&env, "document.getElementById('saved').textContent"),
        "saved size l"
    );
    // `none`: no wait, no report.
    let v = env.json(&["select", &size, "Small", "--settle", "none"]);
    assert!(v["evidence"]["settle"].is_null(), "{v}");
    assert_eq!(
        eval(&env, "document.getElementById('saved').textContent"),
        "saved size l"
    );
}

#[test]
fn a_select_disabled_for_a_moment_is_chosen_once_enabled() {
    let env = Env::new();
    let obs = open(&env);
    let later = find_ref(&obs, "combobox", "Later");
    assert_eq!(eval(&env, "arm(10)"), "armed");
    let e = refusal(&env, &["select", &later, "Two", "--wait-ms", "0"]);
    assert_eq!(e["code"], "action_not_verified", "{e}");
    assert_eq!(e["context"]["reason"], "disabled", "{e}");
    assert_eq!(
        eval(&env, "document.getElementById('later').value"),
        "One",
        "nothing chosen"
    );
    assert_eq!(eval(&env, "arm(1)"), "armed");
    let v = env.json(&["select", &later, "Two"]);
    assert_eq!(v["evidence"]["verdict"], "value_matches", "{v}");
    assert_eq!(eval(&env, "document.getElementById('later').value"), "Two");
}

#[test]
fn a_hover_that_makes_a_menu_fetch_its_items_reports_them_settled() {
    let env = Env::new();
    let obs = open(&env);
    let menu = find_ref(&obs, "button", "Menu");
    let v = env.json(&["hover", &menu]);
    let names = v["appeared"]["names"].to_string();
    assert!(names.contains("Fetched first"), "{v}");
    assert_eq!(v["expandedChanged"], true, "{v}");
    assert_eq!(v["settle"]["state"], "settled", "{v}");
    assert!(waited(&v["settle"]) >= 350, "{v}");
}

#[test]
fn a_hover_waits_out_a_cover_and_is_refused_covered_without_the_wait() {
    let env = Env::new();
    let obs = open(&env);
    let size = find_ref(&obs, "combobox", "Size");
    assert_eq!(eval(&env, "veil(10)"), "veiled");
    let e = refusal(&env, &["hover", &size, "--wait-ms", "0"]);
    assert_eq!(e["code"], "action_not_verified", "{e}");
    assert_eq!(e["context"]["reason"], "covered", "{e}");
    assert_eq!(eval(&env, "veil(1)"), "veiled");
    let v = env.json(&["hover", &size, "--settle", "dom"]);
    assert_eq!(v["under"]["tag"], "select", "{v}");
    assert_eq!(v["settle"]["state"], "settled", "{v}");
}

#[test]
fn a_drag_with_settle_none_does_not_wait_for_the_request_it_started() {
    let env = Env::new();
    let obs = open(&env);
    let volume = find_ref(&obs, "slider", "Volume");
    let v = env.json(&["drag", &volume, "--by", "60,0", "--settle", "none"]);
    assert_eq!(v["valueChanged"], true, "{v}");
    assert!(v.get("settle").is_none(), "{v}");
    // The save is answered 1.5 s after the release: not yet.
    assert_eq!(
        eval(&env, "document.getElementById('volume-out').textContent"),
        "volume not saved"
    );
    // Once that save is answered, a drag that settles waits for its own.
    support::poll_until(Duration::from_secs(5), "the first save", || {
        eval(&env, "document.getElementById('volume-out').textContent") != "volume not saved"
    });
    let v = env.json(&["drag", &volume, "--by", "40,0"]);
    assert_eq!(v["valueChanged"], true, "{v}");
    assert_eq!(v["settle"]["state"], "settled", "{v}");
    // How long the settle itself waited depends on how long the drag's
    // moves took (the save is answered 1.5 s after the release); that the
    // page shows this drag's value saved at once is the proof it waited.
    assert!(waited(&v["settle"]) > 0, "{v}");
    let out = eval(&env, "document.getElementById('volume-out').textContent");
    let value = v["value"].as_str().unwrap();
    assert_eq!(out, format!("saved volume {value}"), "{v}");
}

#[test]
fn a_slider_disabled_for_a_moment_is_dragged_once_enabled() {
    let env = Env::new();
    let obs = open(&env);
    let volume = find_ref(&obs, "slider", "Volume");
    assert_eq!(eval(&env, "arm(10)"), "armed");
    let e = refusal(&env, &["drag", &volume, "--by", "60,0", "--wait-ms", "0"]);
    assert_eq!(e["code"], "action_not_verified", "{e}");
    assert_eq!(e["context"]["reason"], "disabled", "{e}");
    assert_eq!(eval(&env, "document.getElementById('volume').value"), "10");
    assert_eq!(eval(&env, "arm(1)"), "armed");
    let v = env.json(&["drag", &volume, "--by", "60,0", "--settle", "none"]);
    assert_eq!(v["valueChanged"], true, "{v}");
}

#[test]
fn a_fill_settles_once_after_its_last_field() {
    let env = Env::new();
    let obs = open(&env);
    let size = find_ref(&obs, "combobox", "Size");
    let v = env.json(&["fill", &format!("{size}=Large")]);
    let s = &v["evidence"]["settle"];
    assert_eq!(s["state"], "settled", "{v}");
    assert!(waited(s) >= 350, "{v}");
    assert_eq!(
        eval(&env, "document.getElementById('saved').textContent"),
        "saved size l"
    );
}

#[test]
fn bad_pace_values_are_refused_and_nothing_changes() {
    let env = Env::new();
    let obs = open(&env);
    let size: u64 = find_ref(&obs, "combobox", "Size").parse().unwrap();
    let volume: u64 = find_ref(&obs, "slider", "Volume").parse().unwrap();
    let cases = [
        (
            "browser.select",
            json!({"ref": size, "labels": ["Large"], "settle": "later"}),
        ),
        (
            "browser.select",
            json!({"ref": size, "labels": ["Large"], "waitMs": 20000}),
        ),
        ("browser.hover", json!({"ref": size, "settle": "soon"})),
        (
            "browser.drag",
            json!({"from": volume, "by": {"dx": 50, "dy": 0}, "waitMs": -1}),
        ),
        (
            "browser.fill_form",
            json!({"fields": [{"ref": size, "value": "Large"}], "settle": 3}),
        ),
    ];
    for (tool, input) in cases {
        let (code, run) = env.err(&["tool", "call", tool, "--input", &input.to_string()]);
        assert_eq!(code, "invalid_argument", "{tool} {input}: {}", run.stdout());
    }
    assert_eq!(eval(&env, "document.getElementById('size').value"), "");
    assert_eq!(eval(&env, "document.getElementById('volume').value"), "10");
}
