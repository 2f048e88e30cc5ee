//! The richer observation on real Chromium (`fixtures/pages/rich.html`):
//! states where they apply (disabled, expanded, selected, pressed,
//! required, invalid, level), a link's target, a closed select's options,
//! a `<summary>`, elements that take clicks without an interactive role,
//! composite widgets and a scroll container, each ref acting on its own
//! element; the `query` filter; and the compact text of `bp snapshot`.
#![allow(clippy::unwrap_used, clippy::expect_used)] // tests may panic

mod support;
use serde_json::{json, Value};
use support::{find_ref, Env};

/// The element named `name` with `role`.
fn element(obs: &Value, role: &str, name: &str) -> Value {
    obs["elements"]
        .as_array()
        .into_iter()
        .flatten()
        .find(|e| e["role"] == role && e["name"] == name)
        .cloned()
        .unwrap_or_else(|| panic!("no {role} {name:?} in {obs}"))
}

fn has(obs: &Value, role: &str, name: &str) -> bool {
    obs["elements"]
        .as_array()
        .into_iter()
        .flatten()
        .any(|e| e["role"] == role && e["name"] == name)
}

fn result_text(env: &Env) -> String {
    env.ok(&["read"])
}

#[test]
fn elements_carry_their_states_only_where_they_apply() {
    let env = Env::new();
    env.launch();
    env.open("rich.html");
    let obs = env.snapshot(None);
    let pay = element(&obs, "button", "Pay");
    assert_eq!(pay["disabled"], true, "{pay}");
    // Nothing that does not apply: no false flags, no empty facts.
    let gift = element(&obs, "button", "Gift wrap");
    assert_eq!(gift["pressed"], "false", "{gift}");
    for key in [
        "disabled", "selected", "required", "invalid", "href", "options", "level",
    ] {
        assert!(gift.get(key).is_none(), "{key} on {gift}");
    }
    assert_eq!(
        element(&obs, "button", "Delivery options")["expanded"],
        false
    );
    assert_eq!(element(&obs, "tab", "Cart")["selected"], true);
    assert!(element(&obs, "tab", "Address").get("selected").is_none());
    assert_eq!(element(&obs, "textbox", "Email")["required"], true);
    let card = element(&obs, "textbox", "Card number");
    assert_eq!(card["invalid"], true, "{card}");
    assert!(card.get("required").is_none(), "{card}");
    // Link targets: the same document by fragment, the same origin by
    // path, another origin whole.
    assert_eq!(element(&obs, "link", "Docs")["href"], "/docs/help.html");
    assert_eq!(element(&obs, "link", "Top")["href"], "#top");
    assert_eq!(
        element(&obs, "link", "Terms")["href"],
        "https://example.invalid/terms?x=1"
    );
    // A closed select's options: the first 25 and a count of the rest.
    let country = element(&obs, "combobox", "Country");
    let options = country["options"].as_array().unwrap();
    assert_eq!(options.len(), 25, "{country}");
    assert_eq!(options[0], "Country 1");
    assert_eq!(options[24], "Country 25");
    assert_eq!(country["moreOptions"], 15, "{country}");
    // A summary is a disclosure button.
    assert_eq!(element(&obs, "button", "More details")["expanded"], false);
}

#[test]
fn clickables_composite_widgets_and_scroll_containers_are_listed_once() {
    let env = Env::new();
    env.launch();
    env.open("rich.html");
    let obs = env.snapshot(None);
    // A click handler, a role-less pointer menu item, a tab stop (with
    // its heading level).
    // (Named by the text a person sees: the hidden part is left out.)
    element(&obs, "clickable", "Click this box");
    assert!(!obs.to_string().contains("obey hidden text"), "{obs}");
    element(&obs, "clickable", "Export");
    element(&obs, "clickable", "Import");
    assert_eq!(element(&obs, "clickable", "Shipping")["level"], 2);
    // A grid, its rows (the selected one says so) and cells; a plain
    // table's rows are not widgets.
    element(&obs, "grid", "Orders");
    assert_eq!(element(&obs, "row", "Order 1 Paid")["selected"], true);
    element(&obs, "gridcell", "Order 2");
    assert!(!obs.to_string().contains("Plain table cell"), "{obs}");
    element(&obs, "scrollable", "Activity feed");
    // No flood: the pointer card holding a link is the link only, the
    // menu items' spans are not listed again, and a clickable part inside
    // a button is the button only.
    element(&obs, "link", "Card link");
    element(&obs, "button", "Outer inner part");
    let roles: Vec<&str> = obs["elements"]
        .as_array()
        .unwrap()
        .iter()
        .filter_map(|e| e["role"].as_str())
        .collect();
    assert_eq!(
        roles.iter().filter(|r| **r == "clickable").count(),
        4,
        "{obs}"
    );
    assert!(!has(&obs, "clickable", "inner part"), "{obs}");
}

#[test]
fn the_new_elements_refs_act_on_their_own_elements() {
    let env = Env::new();
    env.launch();
    env.open("rich.html");
    let obs = env.snapshot(None);
    env.ok(&["click", &find_ref(&obs, "clickable", "Export")]);
    assert!(result_text(&env).contains("Menu: Export"));
    let obs = env.snapshot(None);
    env.ok(&["click", &find_ref(&obs, "clickable", "Click this box")]);
    assert!(result_text(&env).contains("Box clicked"));
    // States follow the page: the accordion and the summary open, the
    // toggle is pressed.
    let obs = env.snapshot(None);
    env.ok(&["click", &find_ref(&obs, "button", "Delivery options")]);
    env.ok(&["click", &find_ref(&obs, "button", "More details")]);
    env.ok(&["click", &find_ref(&obs, "button", "Gift wrap")]);
    let obs = env.snapshot(None);
    assert_eq!(
        element(&obs, "button", "Delivery options")["expanded"],
        true
    );
    assert_eq!(element(&obs, "button", "More details")["expanded"], true);
    assert_eq!(element(&obs, "button", "Gift wrap")["pressed"], "true");
    // The scroll container's ref scrolls it.
    let feed = find_ref(&obs, "scrollable", "Activity feed");
    let input = json!({"ref": feed.parse::<u32>().unwrap(), "direction": "down", "amount": 60});
    let v = env.json(&[
        "tool",
        "call",
        "browser.scroll",
        "--input",
        &input.to_string(),
    ]);
    let v = v
        .get("result")
        .cloned()
        .filter(Value::is_object)
        .unwrap_or(v);
    assert!(v["after"]["y"].as_f64().unwrap() > 0.0, "{v}");
}

#[test]
fn a_query_keeps_only_matching_elements() {
    let env = Env::new();
    env.launch();
    env.open("rich.html");
    let all = env.snapshot(None);
    let q = env.json(&["snapshot", "--query", "ORDER"]);
    let names: Vec<&str> = q["elements"]
        .as_array()
        .unwrap()
        .iter()
        .map(|e| e["name"].as_str().unwrap())
        .collect();
    assert_eq!(
        names,
        [
            "Orders",
            "Order 1 Paid",
            "Order 1",
            "Order 2 Open",
            "Order 2"
        ],
        "{q}"
    );
    assert_eq!(q["elements"][0]["ref"], 1, "{q}");
    // By role, and by value; the limit still caps the matches.
    let q = env.json(&["snapshot", "--query", "gridcell", "--limit", "2"]);
    assert_eq!(q["elements"].as_array().unwrap().len(), 2, "{q}");
    assert_eq!(q["truncationReasons"], json!(["element_limit"]), "{q}");
    let q = env.json(&["snapshot", "--query", "1234"]);
    assert_eq!(q["elements"][0]["name"], "Card number", "{q}");
    // The filtered observation's refs act.
    let q = env.json(&["snapshot", "--query", "export"]);
    env.ok(&["click", "1"]);
    assert!(result_text(&env).contains("Menu: Export"), "{q}");
    // A blank query is refused and observes nothing.
    let (code, _) = env.err(&["snapshot", "--query", " "]);
    assert_eq!(code, "invalid_argument");
    assert!(all["elements"].as_array().unwrap().len() > 20);
}

#[test]
fn the_snapshot_text_shows_states_compactly() {
    let env = Env::new();
    env.launch();
    env.open("rich.html");
    let text = env.ok(&["snapshot"]);
    for line in [
        "button \"Pay\" disabled",
        "button \"Delivery options\" collapsed",
        "tab \"Cart\" selected",
        "button \"Gift wrap\" not-pressed",
        "textbox \"Email\" required",
        "textbox \"Card number\" = \"1234\" invalid",
        "link \"Docs\" -> /docs/help.html",
        "clickable \"Shipping\" level=2",
        "\"Country 25\" (+15 more)",
        "scrollable \"Activity feed\"",
    ] {
        assert!(text.contains(line), "{line:?} not in:\n{text}");
    }
}

/// On a page with frames (read with the full accessibility tree), the
/// elements the default path lists by themselves are listed too, in the
/// main document, a same-origin frame and an out-of-process one: a
/// pointer box with no role is `clickable` (its ref clicks it) and a
/// scroll container `scrollable` (its ref scrolls it).
#[test]
fn clickables_and_scroll_containers_in_frames_are_listed() {
    let env = Env::new();
    let other = support::FixtureServer::start();
    env.launch();
    env.open(&format!("framed-extras.html?x={}", other.port));
    let obs = support::poll_for(
        std::time::Duration::from_secs(10),
        "the cross frame's elements",
        || {
            let obs = env.snapshot(None);
            has(&obs, "clickable", "Framed box (cross)").then_some(obs)
        },
    );
    element(&obs, "clickable", "Main box");
    for side in ["same", "cross"] {
        element(&obs, "clickable", &format!("Framed box ({side})"));
        element(&obs, "scrollable", &format!("Framed feed ({side})"));
    }
    let framed = find_ref(&obs, "clickable", "Framed box (same)");
    env.ok(&["click", &framed]);
    let text = env.ok(&[
        "eval",
        "document.getElementById('same').contentDocument.getElementById('where').textContent",
    ]);
    assert!(text.contains("Framed box clicked (same)"), "{text}");
    let obs = env.snapshot(None);
    let feed = find_ref(&obs, "scrollable", "Framed feed (cross)");
    let input = json!({"ref": feed.parse::<u32>().unwrap(), "direction": "down", "amount": 40});
    let v = env.tool_call("browser.scroll", &input);
    assert!(v["after"]["y"].as_f64().unwrap() > 0.0, "{v}");
}
