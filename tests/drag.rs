//! `browser.drag` on real Chromium: an HTML5 drag-and-drop board, a
//! pointer-driven sortable list, a native range and a role=slider, and
//! SortableJS (installed from npm into tests/widgets) in its HTML5 and its
//! pointer (`forceFallback`) mode, each reordered and checked in the next
//! snapshot; a stale ref and a drag that changes nothing are refused, and
//! bad input changes nothing.
#![allow(clippy::unwrap_used, clippy::expect_used)] // tests may panic

mod support;
use serde_json::{json, Value};
use support::{find_ref, root, Env, FixtureServer};

/// The names of the options of listbox `list`, in document order.
fn options(obs: &Value, list: &str) -> Vec<String> {
    let elements = obs["elements"].as_array().cloned().unwrap_or_default();
    let start = elements
        .iter()
        .position(|e| e["role"] == "listbox" && e["name"] == list)
        .unwrap_or_else(|| panic!("no listbox {list} in {obs}"));
    elements[start + 1..]
        .iter()
        .take_while(|e| e["role"] == "option")
        .filter_map(|e| e["name"].as_str().map(str::to_string))
        .collect()
}

fn signals(v: &Value) -> Vec<String> {
    v["signals"]
        .as_array()
        .into_iter()
        .flatten()
        .filter_map(|s| s.as_str().map(str::to_string))
        .collect()
}

#[test]
fn an_html5_board_moves_a_card_to_the_other_column() {
    let env = Env::new();
    env.launch();
    env.open("pointer.html");
    let obs = env.snapshot(None);
    let card = find_ref(&obs, "option", "Write tests");
    let done = find_ref(&obs, "listbox", "Done");
    let v = env.json(&["drag", &card, &done]);
    assert_eq!(v["route"], "html5", "{v}");
    assert_eq!(v["dropTargetChanged"], true, "{v}");
    assert!(
        signals(&v).contains(&"drop_target_changed".to_string()),
        "{v}"
    );
    let obs = env.snapshot(None);
    assert_eq!(options(&obs, "To do"), ["Fix bug"], "{obs}");
    assert_eq!(options(&obs, "Done"), ["Ship it", "Write tests"], "{obs}");
}

#[test]
fn a_pointer_sortable_list_reorders() {
    let env = Env::new();
    env.launch();
    env.open("pointer.html");
    let obs = env.snapshot(None);
    let apple = find_ref(&obs, "option", "Apple");
    let cherry = find_ref(&obs, "option", "Cherry");
    let v = env.json(&["drag", &apple, &cherry]);
    assert_eq!(v["route"], "pointer", "{v}");
    assert_eq!(v["orderChanged"], true, "{v}");
    let obs = env.snapshot(None);
    assert_eq!(
        options(&obs, "Pointer list"),
        ["Banana", "Apple", "Cherry", "Date"],
        "{obs}"
    );
}

#[test]
fn sliders_follow_a_drag_by_a_distance() {
    let env = Env::new();
    env.launch();
    env.open("pointer.html");
    let obs = env.snapshot(None);
    let volume = find_ref(&obs, "slider", "Volume");
    let brightness = find_ref(&obs, "slider", "Brightness");
    let v = env.json(&["drag", &volume, "--by", "60,0"]);
    assert_eq!(v["valueChanged"], true, "{v}");
    assert!(
        v["value"].as_str().unwrap().parse::<u32>().unwrap() > 50,
        "{v}"
    );
    let v = env.json(&["drag", &brightness, "--by", "100,0", "--steps", "5"]);
    assert_eq!(v["valueChanged"], true, "{v}");
    assert_eq!(v["moved"], true, "{v}");
    assert_ne!(v["value"], "0", "{v}");
}

#[test]
fn sortablejs_reorders_in_html5_and_in_pointer_mode() {
    let env = Env::new();
    let widgets = FixtureServer::start_at(&root().join("tests/widgets"));
    env.launch();
    let url = format!("http://127.0.0.1:{}/sortable.html", widgets.port);
    env.ok(&["open", &url]);
    let obs = env.snapshot(None);
    let alpha = find_ref(&obs, "option", "Alpha");
    let charlie = find_ref(&obs, "option", "Charlie");
    let v = env.json(&["drag", &alpha, &charlie]);
    assert_eq!(v["route"], "html5", "{v}");
    assert_eq!(v["orderChanged"], true, "{v}");
    let obs = env.snapshot(None);
    assert_eq!(
        options(&obs, "Native list"),
        ["Bravo", "Charlie", "Alpha", "Delta"],
        "{obs}"
    );
    let one = find_ref(&obs, "option", "One");
    let three = find_ref(&obs, "option", "Three");
    let v = env.json(&["drag", &one, &three]);
    assert_eq!(v["route"], "pointer", "{v}");
    assert_eq!(v["orderChanged"], true, "{v}");
    let obs = env.snapshot(None);
    assert_eq!(
        options(&obs, "Fallback list"),
        ["Two", "Three", "One", "Four"],
        "{obs}"
    );
}

#[test]
fn a_stale_ref_is_refused_and_nothing_moves() {
    let env = Env::new();
    env.launch();
    env.open("pointer.html");
    let obs = env.snapshot(None);
    let apple: u32 = find_ref(&obs, "option", "Apple").parse().unwrap();
    let cherry: u32 = find_ref(&obs, "option", "Cherry").parse().unwrap();
    env.open("pointer.html");
    let input = json!({"observationId": obs["observationId"], "from": apple, "to": cherry});
    let (code, run) = env.err(&[
        "tool",
        "call",
        "browser.drag",
        "--input",
        &input.to_string(),
    ]);
    assert_eq!(code, "stale_ref", "{}", run.stderr());
    let obs = env.snapshot(None);
    assert_eq!(
        options(&obs, "Pointer list"),
        ["Apple", "Banana", "Cherry", "Date"],
        "{obs}"
    );
}

#[test]
fn a_drag_that_changes_nothing_is_not_verified() {
    let env = Env::new();
    env.launch();
    env.open("pointer.html");
    let obs = env.snapshot(None);
    let account = find_ref(&obs, "button", "Account");
    let (code, run) = env.err(&["drag", &account, "--by", "10,0"]);
    assert_eq!(code, "action_not_verified", "{}", run.stderr());
    assert!(run.stderr().contains("nothing"), "{}", run.stderr());
}

#[test]
fn bad_input_is_refused_and_nothing_moves() {
    let env = Env::new();
    env.launch();
    env.open("pointer.html");
    let obs = env.snapshot(None);
    let id = obs["observationId"].clone();
    let apple: u32 = find_ref(&obs, "option", "Apple").parse().unwrap();
    let date: u32 = find_ref(&obs, "option", "Date").parse().unwrap();
    let cases = [
        json!({"observationId": id, "from": apple}),
        json!({"observationId": id, "from": apple, "to": date, "by": {"dx": 1, "dy": 1}}),
        json!({"observationId": id, "from": apple, "to": apple}),
        json!({"observationId": id, "from": apple, "to": date, "steps": 0}),
        json!({"observationId": id, "from": apple, "by": {"dx": "far", "dy": 1}}),
        json!({"observationId": id, "from": apple, "by": {"dx": 5000, "dy": 0}}),
    ];
    for case in &cases {
        let (code, run) = env.err(&["tool", "call", "browser.drag", "--input", &case.to_string()]);
        assert_eq!(code, "invalid_argument", "{case}: {}", run.stderr());
    }
    let (code, _) = env.err(&["drag", &apple.to_string(), "--by", "ten"]);
    assert_eq!(code, "invalid_argument");
    let obs = env.snapshot(None);
    assert_eq!(
        options(&obs, "Pointer list"),
        ["Apple", "Banana", "Cherry", "Date"],
        "{obs}"
    );
}
