//! `browser.fill_form` on real Chromium: a text field, a text area, two
//! checkboxes, a radio, a select and a range input filled in one call and
//! read back; a fill that stops at the first failing field (the fields
//! after it untouched, each earlier field's evidence and the failed
//! field's code reported); comboboxes (a text input one included)
//! chosen rather than typed into; bad input refused before anything changes;
//! `bp fill REF=VALUE...`; and the tool gone under `--deny input`,
//! `--deny page-select` and `--deny-tool browser.fill_form`.
#![allow(clippy::unwrap_used, clippy::expect_used)] // tests may panic

mod support;
use serde_json::{json, Value};
use support::{find_ref, Env};

/// `browser.fill_form` with `fields`, through `bp tool call`.
fn fill(env: &Env, fields: Value) -> Value {
    env.tool_call("browser.fill_form", &json!({"fields": fields}))
}

fn n(r: &str) -> u64 {
    r.parse().expect("a numeric ref")
}

fn summary(env: &Env) -> String {
    let text = env.ok(&["read"]);
    text.lines()
        .find(|l| l.starts_with("summary:"))
        .unwrap_or_else(|| panic!("no summary in {text}"))
        .to_string()
}

/// The refs of the fixture's fields, by name.
fn refs(env: &Env) -> impl Fn(&str, &str) -> u64 {
    let obs = env.snapshot(None);
    move |role: &str, name: &str| n(&find_ref(&obs, role, name))
}

#[test]
fn text_checkbox_radio_select_and_range_are_filled_in_order_and_read_back() {
    let env = Env::new();
    env.launch();
    env.open("fill.html");
    let r = refs(&env);
    let v = fill(
        &env,
        json!([
            {"ref": r("textbox", "Name"), "value": "Ada Lovelace"},
            {"ref": r("textbox", "Notes"), "value": "first line"},
            {"ref": r("checkbox", "Newsletter"), "value": true},
            {"ref": r("checkbox", "Terms"), "value": false},
            {"ref": r("radio", "Pro"), "value": true},
            {"ref": r("combobox", "Country"), "value": "Spain"},
            {"ref": r("slider", "Volume"), "value": 75},
        ]),
    );
    assert_eq!(v["completed"], true, "{v}");
    assert_eq!(v["filled"], 7, "{v}");
    assert_eq!(v["evidence"]["verdict"], "value_matches", "{v}");
    let kinds: Vec<&str> = v["fields"]
        .as_array()
        .unwrap()
        .iter()
        .map(|f| {
            assert_eq!(f["verdict"], "value_matches", "{f}");
            f["kind"].as_str().unwrap()
        })
        .collect();
    assert_eq!(
        kinds,
        ["text", "text", "checkbox", "checkbox", "radio", "select", "range"]
    );
    assert_eq!(v["fields"][5]["selected"][0]["value"], "es", "{v}");
    assert_eq!(v["fields"][6]["value"], 75.0, "{v}");
    assert_eq!(
        summary(&env),
        "summary: name=Ada Lovelace notes=first line news=on terms=- plan=pro country=es volume=75"
    );
}

#[test]
fn a_fill_stops_at_the_first_failing_field_and_says_which() {
    let env = Env::new();
    env.launch();
    env.open("fill.html");
    let r = refs(&env);
    // The disabled field fails (after the ready wait, as disabled); the
    // checkbox after it is not touched.
    let (name, locked, news) = (
        r("textbox", "Name"),
        r("textbox", "Locked"),
        r("checkbox", "Newsletter"),
    );
    let v = fill(
        &env,
        json!([
            {"ref": name, "value": "Bob"},
            {"ref": locked, "value": "x"},
            {"ref": news, "value": true},
        ]),
    );
    assert_eq!(v["completed"], false, "{v}");
    assert_eq!(v["filled"], 1, "{v}");
    assert_eq!(v["fields"][0]["verdict"], "value_matches", "{v}");
    assert_eq!(v["failed"]["index"], 1, "{v}");
    assert_eq!(v["failed"]["ref"], locked, "{v}");
    assert_eq!(v["failed"]["code"], "action_not_verified", "{v}");
    assert_eq!(v["failed"]["reason"], "disabled", "{v}");
    assert_eq!(v["evidence"]["verdict"], "mismatch", "{v}");
    let s = summary(&env);
    assert!(s.contains("name=Bob") && s.contains("news=-"), "{s}");
    // An option that does not exist: the options there are, as page data.
    let v = fill(
        &env,
        json!([
            {"ref": r("combobox", "Country"), "value": "Mars"},
            {"ref": news, "value": true},
        ]),
    );
    assert_eq!(v["filled"], 0, "{v}");
    assert_eq!(v["failed"]["code"], "invalid_argument", "{v}");
    assert_eq!(v["failed"]["reason"], "unknown_option", "{v}");
    assert_eq!(
        v["failed"]["pageData"]["options"][1]["label"], "Portugal",
        "{v}"
    );
    assert!(summary(&env).contains("news=-"));
    // From the command line: an error with the failed field's code.
    let (code, run) = env.err(&["fill", &format!("{name}=Carol"), &format!("{locked}=y")]);
    assert_eq!(code, "action_not_verified", "{}", run.stderr());
    assert!(run.stderr().contains("field 2"), "{}", run.stderr());
}

#[test]
fn bad_input_is_refused_before_any_field_changes() {
    let env = Env::new();
    env.launch();
    env.open("fill.html");
    let r = refs(&env);
    let name = r("textbox", "Name");
    let cases = [
        json!([]),
        json!([{"ref": name, "value": "ok"}, {"ref": r("checkbox", "Newsletter"), "value": "maybe"}]),
        json!([{"ref": name, "value": "ok"}, {"ref": r("radio", "Basic"), "value": false}]),
        json!([{"ref": name, "value": "ok"}, {"ref": r("slider", "Volume"), "value": "loud"}]),
        json!([{"ref": name, "value": "ok"}, {"ref": r("combobox", "Country"), "value": true}]),
        json!([{"ref": name, "value": "ok", "extra": 1}]),
        json!([{"ref": name}]),
    ];
    for case in cases {
        let input = json!({"fields": case}).to_string();
        let (code, run) = env.err(&["tool", "call", "browser.fill_form", "--input", &input]);
        assert_eq!(code, "invalid_argument", "{case}: {}", run.stderr());
    }
    let (code, _) = env.err(&["fill", "1"]);
    assert_eq!(code, "invalid_argument");
    let s = summary(&env);
    assert_eq!(s, "summary: none", "nothing changed");
}

#[test]
fn bp_fill_takes_ref_value_pairs() {
    let env = Env::new();
    env.launch();
    env.open("fill.html");
    let r = refs(&env);
    let line = env.ok(&[
        "fill",
        &format!("{}=Grace", r("textbox", "Name")),
        &format!("{}=true", r("checkbox", "Newsletter")),
        &format!("{}=Portugal", r("combobox", "Country")),
        &format!("{}=20", r("slider", "Volume")),
    ]);
    assert!(line.contains("filled 4 fields (value_matches)"), "{line}");
    let s = summary(&env);
    assert!(
        s.contains("name=Grace")
            && s.contains("news=on")
            && s.contains("country=pt")
            && s.contains("volume=20"),
        "{s}"
    );
}

#[test]
fn comboboxes_are_chosen_not_typed_into() {
    let env = Env::new();
    env.launch();
    env.open("select.html");
    let r = refs(&env);
    // A button combobox with a portal, an input combobox with chips, and
    // a native select, in one call.
    let v = fill(
        &env,
        json!([
            {"ref": r("combobox", "City"), "value": "Madrid"},
            {"ref": r("combobox", "Tags"), "value": ["Green", "Blue"]},
            {"ref": r("combobox", "Country"), "value": "Portugal"},
        ]),
    );
    assert_eq!(v["completed"], true, "{v}");
    for f in v["fields"].as_array().unwrap() {
        assert_eq!(f["kind"], "select", "{f}");
        assert_eq!(f["verdict"], "value_matches", "{f}");
    }
    let text = env.ok(&["read"]);
    assert!(text.contains("city: mad"), "{text}");
    assert!(text.contains("tags: green,blue"), "{text}");
    assert!(text.contains("value=pt"), "{text}");
}

#[test]
fn widget_library_comboboxes_are_filled_too() {
    let dir = support::root().join("tests/widgets");
    assert!(
        dir.join("node_modules/tom-select").is_dir(),
        "the widget libraries are not installed: npm ci --prefix tests/widgets"
    );
    let widgets = support::FixtureServer::start_at(&dir);
    let env = Env::new();
    env.launch();
    env.ok(&[
        "open",
        &format!("http://127.0.0.1:{}/select.html", widgets.port),
    ]);
    let r = refs(&env);
    let line = env.ok(&[
        "fill",
        &format!("{}=Cherry", r("combobox", "Fruit")),
        &format!("{}=Green", r("combobox", "Colours")),
    ]);
    assert!(line.contains("filled 2 fields (value_matches)"), "{line}");
    let text = env.ok(&["read"]);
    assert!(text.contains("fruit=cherry colours=green"), "{text}");
}

#[test]
fn the_tool_goes_with_input_page_select_or_its_own_denial() {
    for (flag, what, stays) in [
        ("--deny", "input", "browser.select"),
        ("--deny", "page-select", "browser.click"),
        ("--deny-tool", "browser.fill_form", "browser.select"),
    ] {
        let mut env = Env::new();
        env.serve(&[flag, what]);
        let names = env.tool_names();
        assert!(
            !names.iter().any(|n| n == "browser.fill_form"),
            "{what}: {names:?}"
        );
        assert!(names.iter().any(|n| n == stays), "{what}: {names:?}");
        let (code, _) = env.err(&["fill", "1=x"]);
        assert_eq!(code, "capability_denied", "{what}");
    }
}
