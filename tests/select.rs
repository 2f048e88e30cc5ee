//! `browser.select` on real Chromium: native single and multiple selects
//! (set with `input` and `change`, read back), an ARIA combobox whose
//! listbox is created in a portal at the end of `<body>` only when it
//! opens, a chips multi-select, two real widget libraries from npm (Tom
//! Select and Choices.js, their own values read back by the page), bad
//! input refused with nothing changed, `bp select` from the command line,
//! and `--deny page-select` / `--deny-tool browser.select` removing it.
#![allow(clippy::unwrap_used, clippy::expect_used)] // tests may panic

mod support;
use serde_json::{json, Value};
use support::{find_ref, root, Env, FixtureServer};

/// `browser.select` with `input`, through `bp tool call`.
fn select(env: &Env, input: Value) -> Value {
    env.tool_call("browser.select", &input)
}

/// The failure of `browser.select` with `input`: its JSON error.
fn refused(env: &Env, input: Value) -> Value {
    let case = input.to_string();
    let (_, run) = env.err(&["tool", "call", "browser.select", "--input", &case, "--json"]);
    let v: Value = serde_json::from_str(run.stdout().trim())
        .unwrap_or_else(|e| panic!("{case}: not JSON ({e}): {}", run.stdout()));
    v["error"].clone()
}

fn n(r: &str) -> u64 {
    r.parse().expect("a numeric ref")
}

fn labels(v: &Value) -> Vec<String> {
    v["selected"]
        .as_array()
        .unwrap_or_else(|| panic!("no selected in {v}"))
        .iter()
        .map(|c| c["label"].as_str().unwrap_or_default().to_string())
        .collect()
}

fn verdict(v: &Value) -> &str {
    v["evidence"]["verdict"].as_str().unwrap_or_default()
}

#[test]
fn native_selects_are_set_with_input_and_change_and_read_back() {
    let env = Env::new();
    env.launch();
    env.open("select.html");
    let obs = env.snapshot(None);
    let country = n(&find_ref(&obs, "combobox", "Country"));
    let v = select(&env, json!({"ref": country, "labels": ["France"]}));
    assert_eq!(verdict(&v), "value_matches", "{v}");
    assert_eq!(v["widget"], "native_single", "{v}");
    assert_eq!(
        v["selected"],
        json!([{"label": "France", "value": "fr"}]),
        "{v}"
    );
    assert!(env
        .ok(&["read"])
        .contains("events: input=1 change=1 value=fr"));
    // By value; a multiple select becomes exactly the options named.
    let toppings = n(&find_ref(&obs, "listbox", "Toppings"));
    let v = select(&env, json!({"ref": toppings, "values": ["ham", "olives"]}));
    assert_eq!(verdict(&v), "value_matches", "{v}");
    assert_eq!(labels(&v), vec!["Ham", "Olives"], "{v}");
    assert_eq!(v["widget"], "native_multiple", "{v}");
}

#[test]
fn a_combobox_whose_listbox_is_made_in_a_portal_is_opened_chosen_and_closed() {
    let env = Env::new();
    env.launch();
    env.open("select.html");
    let obs = env.snapshot(None);
    let city = n(&find_ref(&obs, "combobox", "City"));
    let v = select(&env, json!({"ref": city, "labels": ["Porto"]}));
    assert_eq!(verdict(&v), "value_matches", "{v}");
    assert_eq!(v["widget"], "combobox", "{v}");
    assert_eq!(
        v["selected"],
        json!([{"label": "Porto", "value": "por"}]),
        "{v}"
    );
    assert_eq!(v["evidence"]["route"], "trusted_input", "{v}");
    assert!(env.ok(&["read"]).contains("city: por"));
    // The portal is gone again: no option is left in the page.
    let after = env.snapshot(None);
    assert!(!after["elements"].to_string().contains("Lisbon"), "{after}");
    // Chips: each label in turn; its listbox stays open, so Escape closes it.
    let tags = n(&find_ref(&obs, "combobox", "Tags"));
    let v = select(&env, json!({"ref": tags, "labels": ["Red", "Blue"]}));
    assert_eq!(verdict(&v), "value_matches", "{v}");
    assert_eq!(labels(&v), vec!["Red", "Blue"], "{v}");
    let signals = v["evidence"]["signals"].to_string();
    assert!(signals.contains("popup_closed"), "{v}");
    assert!(env.ok(&["read"]).contains("tags: red,blue"));
    // Its options toggle: one already chosen is not clicked off again.
    let v = select(&env, json!({"ref": tags, "labels": ["Blue", "Green"]}));
    assert_eq!(verdict(&v), "value_matches", "{v}");
    assert!(env.ok(&["read"]).contains("tags: red,blue,green"));
    // A listbox in the page: its option clicked, aria-selected read back.
    let size = n(&find_ref(&obs, "listbox", "Size"));
    let v = select(&env, json!({"ref": size, "labels": ["Medium"]}));
    assert_eq!(verdict(&v), "value_matches", "{v}");
    assert_eq!(v["widget"], "listbox", "{v}");
    assert_eq!(
        v["selected"],
        json!([{"label": "Medium", "value": "m"}]),
        "{v}"
    );
}

#[test]
fn bad_input_is_refused_and_nothing_changes() {
    let env = Env::new();
    env.launch();
    env.open("select.html");
    let obs = env.snapshot(None);
    let r = |name: &str| n(&find_ref(&obs, "combobox", name));
    // An option that does not exist: the labels there are, as page data.
    let e = refused(&env, json!({"ref": r("Country"), "labels": ["Atlantis"]}));
    assert_eq!(e["code"], "invalid_argument", "{e}");
    assert_eq!(e["context"]["reason"], "unknown_option", "{e}");
    assert_eq!(
        e["context"]["pageData"]["options"][1]["label"], "Portugal",
        "{e}"
    );
    assert!(!e["message"].to_string().contains("Portugal"), "{e}");
    // In the portal too, once opened to look; closed again after.
    let e = refused(&env, json!({"ref": r("City"), "labels": ["Berlin"]}));
    assert_eq!(e["context"]["reason"], "unknown_option", "{e}");
    let listed = e["context"]["pageData"]["options"].to_string();
    assert!(listed.contains("Lisbon"), "{e}");
    assert!(!env.snapshot(None)["elements"]
        .to_string()
        .contains("Lisbon"));
    // Several options for a one-choice select; not a select at all.
    let plain = n(&find_ref(&obs, "button", "Plain button"));
    for bad in [
        json!({"ref": r("Country"), "labels": ["Spain", "France"]}),
        json!({"ref": plain, "labels": ["Spain"]}),
        json!({"ref": r("Country"), "labels": ["Spain"], "values": ["es"]}),
        json!({"ref": r("Country"), "labels": []}),
        json!({"ref": r("Country")}),
    ] {
        assert_eq!(
            refused(&env, bad.clone())["code"],
            "invalid_argument",
            "{bad}"
        );
    }
    // Disabled: a select, an option, an ARIA combobox, a portal option.
    for bad in [
        json!({"ref": r("Locked"), "labels": ["Other"]}),
        json!({"ref": r("Planet"), "labels": ["Mars"]}),
        json!({"ref": r("Frozen"), "labels": ["Any"]}),
        json!({"ref": r("City"), "labels": ["Atlantis"]}),
    ] {
        let e = refused(&env, bad.clone());
        assert_eq!(e["code"], "action_not_verified", "{bad}: {e}");
        assert_eq!(e["context"]["reason"], "disabled", "{bad}: {e}");
    }
    // Nothing changed anywhere.
    let text = env.ok(&["read"]);
    assert!(text.contains("events: none"), "{text}");
    assert!(text.contains("city: none"), "{text}");
    let after = env.snapshot(None);
    assert!(!after["elements"].to_string().contains("Lisbon"), "{after}");
    let planet = after["elements"]
        .as_array()
        .into_iter()
        .flatten()
        .find(|e| e["name"] == "Planet")
        .cloned()
        .unwrap_or_default();
    assert_eq!(planet["value"], "Earth", "{planet}");
}

#[test]
fn bp_select_takes_labels_or_values_from_the_command_line() {
    let env = Env::new();
    env.launch();
    env.open("select.html");
    let obs = env.snapshot(None);
    let country = find_ref(&obs, "combobox", "Country");
    let line = env.ok(&["select", &country, "Spain"]);
    assert!(line.contains("\"Spain\" (value_matches)"), "{line}");
    let v = env.json(&["select", &country, "pt", "--by", "value"]);
    assert_eq!(
        v["selected"],
        json!([{"label": "Portugal", "value": "pt"}]),
        "{v}"
    );
    let (code, _) = env.err(&["select", &country, "Nowhere"]);
    assert_eq!(code, "invalid_argument");
    let run = env.run(&["select", &country]);
    assert_eq!(run.output.status.code(), Some(2), "{}", run.stderr());
}

/// The ref of the unnamed combobox whose value starts with `value`
/// (Choices.js gives its combobox no accessible name), or with no value.
fn unnamed_combobox(obs: &Value, value: Option<&str>) -> String {
    obs["elements"]
        .as_array()
        .into_iter()
        .flatten()
        .find(|e| {
            e["role"] == "combobox"
                && e["name"] == ""
                && match value {
                    Some(v) => e["value"].as_str().is_some_and(|s| s.starts_with(v)),
                    None => e.get("value").is_none(),
                }
        })
        .map(|e| e["ref"].to_string())
        .unwrap_or_else(|| panic!("no unnamed combobox {value:?} in {obs}"))
}

#[test]
fn real_widget_libraries_tom_select_and_choices() {
    let dir = root().join("tests/widgets");
    assert!(
        dir.join("node_modules/tom-select").is_dir()
            && dir.join("node_modules/choices.js").is_dir(),
        "the widget libraries are not installed: npm ci --prefix tests/widgets"
    );
    let widgets = FixtureServer::start_at(&dir);
    let env = Env::new();
    env.launch();
    env.ok(&[
        "open",
        &format!("http://127.0.0.1:{}/select.html", widgets.port),
    ]);
    let obs = env.snapshot(None);
    // Tom Select: its control input is the combobox.
    let fruit = find_ref(&obs, "combobox", "Fruit");
    let v = env.json(&["select", &fruit, "Banana"]);
    assert_eq!(verdict(&v), "value_matches", "{v}");
    let colours = find_ref(&obs, "combobox", "Colours");
    let v = env.json(&["select", &colours, "Red", "Blue"]);
    assert_eq!(verdict(&v), "value_matches", "{v}");
    assert_eq!(labels(&v), vec!["Red", "Blue"], "{v}");
    // Choices.js: its outer box is the (unnamed) combobox.
    let city = unnamed_combobox(&obs, Some("Pick a city"));
    let v = env.json(&["select", &city, "Porto"]);
    assert_eq!(verdict(&v), "value_matches", "{v}");
    let tags = unnamed_combobox(&obs, None);
    let v = env.json(&["select", &tags, "sport", "music", "--by", "value"]);
    assert_eq!(verdict(&v), "value_matches", "{v}");
    // Each library's own value, as the page reads it from the library.
    let text = env.ok(&["read"]);
    assert!(
        text.contains("values: fruit=banana colours=red+blue city=por tags=sport+music"),
        "{text}"
    );
    // The native selects the libraries hide are refused (a person
    // cannot choose there, and the widget would not follow).
    for hidden in [
        unnamed_combobox(&obs, Some("Pick a fruit")),
        find_ref(&obs, "combobox", "City"),
    ] {
        let (code, run) = env.err(&["select", &hidden, "Apple"]);
        assert_eq!(code, "action_not_verified", "{}", run.stderr());
        assert!(run.stderr().contains("not_visible"), "{}", run.stderr());
    }
    // An unknown option in a library's popup: refused, nothing chosen.
    let (code, _) = env.err(&["select", &fruit, "Durian"]);
    assert_eq!(code, "invalid_argument");
    assert!(env.ok(&["read"]).contains("fruit=banana"));
}

#[test]
fn denying_page_select_removes_the_tool() {
    let mut env = Env::new();
    env.serve(&["--deny", "page-select"]);
    let names = env.tool_names();
    assert!(!names.iter().any(|n| n == "browser.select"), "{names:?}");
    assert!(names.iter().any(|n| n == "browser.scroll"), "{names:?}");
    let (code, _) = env.err(&["select", "1", "x"]);
    assert_eq!(code, "capability_denied");
}

#[test]
fn denying_the_tool_alone_removes_it() {
    let mut env = Env::new();
    env.serve(&["--deny-tool", "browser.select"]);
    let names = env.tool_names();
    assert!(!names.iter().any(|n| n == "browser.select"), "{names:?}");
    let (code, _) = env.err(&["select", "1", "x"]);
    assert_eq!(code, "capability_denied");
}
