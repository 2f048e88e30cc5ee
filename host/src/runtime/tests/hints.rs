//! The observation hints of the observe component, against fixed
//! accessibility trees: each hint on the tree where it must appear, and
//! not on its near miss. (Real pages: `tests/hints.rs`.)

use crate::cdp::Scripted;
use crate::runtime::tests::testkit::{ax, TestEnv};
use serde_json::{json, Value};
use std::sync::Arc;

/// A page whose accessibility tree is the root plus `nodes`, in order.
fn tree(nodes: Vec<Value>) -> Scripted {
    let children: Vec<String> = nodes
        .iter()
        .filter(|n| n["parent"].is_null())
        .map(|n| n["nodeId"].as_str().unwrap_or_default().to_string())
        .collect();
    Arc::new(move |method: &str, _s: Option<&str>, _p: &Value| {
        Ok(match method {
            "Runtime.evaluate" => json!({"result": {"value": ["http://t.test/", "Hints"]}}),
            "Accessibility.getFullAXTree" => {
                let kids: Vec<&str> = children.iter().map(String::as_str).collect();
                let mut all = vec![ax("root", "RootWebArea", "Hints", 1, &kids)];
                all.extend(nodes.iter().cloned());
                json!({ "nodes": all })
            }
            _ => json!({}),
        })
    })
}

/// A node with AX properties (`expanded`, `focused`) and an optional
/// value.
fn node(id: &str, role: &str, name: &str, backend: i64, props: &[(&str, bool)]) -> Value {
    let mut n = ax(id, role, name, backend, &[]);
    n["properties"] = props
        .iter()
        .map(|(k, v)| json!({"name": k, "value": {"type": "boolean", "value": v}}))
        .collect();
    n
}

/// `parent` marks a node that is not a child of the root.
fn within(mut n: Value, parent: &str) -> Value {
    n["parent"] = json!(parent);
    n
}

async fn hints(nodes: Vec<Value>) -> Vec<Value> {
    let env = TestEnv::new("http://t.test/", tree(nodes)).unwrap();
    let obs = env.target("browser.observe", json!({})).await.unwrap();
    obs["hints"].as_array().cloned().unwrap_or_default()
}

fn find<'a>(hints: &'a [Value], code: &str) -> Option<&'a Value> {
    hints.iter().find(|h| h["code"] == code)
}

#[tokio::test]
async fn autocomplete_names_the_field_and_options_only_when_open() {
    let options = |expanded: bool| {
        let mut city = node("c", "combobox", "City", 10, &[("expanded", expanded)]);
        city["childIds"] = json!([]);
        vec![
            city,
            node("o1", "option", "Paris", 11, &[]),
            node("o2", "option", "Parma", 12, &[]),
            node("o3", "option", "Parla", 13, &[]),
        ]
    };
    let open = hints(options(true)).await;
    let h = find(&open, "autocomplete").expect("autocomplete");
    assert_eq!(h["field"], 1, "{h}");
    assert_eq!(h["options"], 3, "{h}");
    assert_eq!(h["refs"], json!([2, 3, 4]), "{h}");
    assert!(!h.to_string().contains("Paris"), "option text leaked: {h}");
    assert!(find(&hints(options(false)).await, "autocomplete").is_none());
}

#[tokio::test]
async fn a_dialog_says_what_is_inside_and_what_it_blocks() {
    let mut dialog = node("d", "dialog", "Cookies", 20, &[]);
    dialog["childIds"] = json!(["a"]);
    let nodes = vec![
        node("buy", "button", "Buy now", 10, &[]),
        dialog,
        within(node("a", "button", "Accept", 21, &[]), "d"),
    ];
    let all = hints(nodes).await;
    let h = find(&all, "modal_overlay").expect("modal_overlay");
    assert_eq!(h["refs"], json!([2]), "{h}");
    assert_eq!(h["inside"], 1, "{h}");
    assert_eq!(h["blocked"], 1, "{h}");
    // A status toast is no dialog.
    let toast = vec![
        node("buy", "button", "Buy now", 10, &[]),
        node("s", "status", "Saved", 20, &[]),
    ];
    assert!(find(&hints(toast).await, "modal_overlay").is_none());
}

#[tokio::test]
async fn filter_controls_need_a_results_page() {
    let page = |links: usize| {
        let mut nodes: Vec<Value> = (0..links)
            .map(|i| {
                node(
                    &format!("l{i}"),
                    "link",
                    &format!("Item {i}"),
                    10 + i as i64,
                    &[],
                )
            })
            .collect();
        nodes.push(node("q", "searchbox", "Search", 100, &[]));
        nodes.push(node("s", "combobox", "Sort by", 101, &[]));
        nodes.push(node("n", "textbox", "Name", 102, &[]));
        nodes
    };
    let results = hints(page(12)).await;
    let h = find(&results, "filter_controls").expect("filter_controls");
    assert_eq!(h["controls"], 2, "{h}");
    assert_eq!(h["refs"], json!([13, 14]), "{h}");
    assert!(find(&hints(page(3)).await, "filter_controls").is_none());
}

/// A results page whose boxes sit in a group named `group`.
fn grouped_boxes(group: &str) -> Vec<Value> {
    let mut nodes: Vec<Value> = (0..12)
        .map(|i| node(&format!("l{i}"), "link", &format!("Item {i}"), 10 + i, &[]))
        .collect();
    let mut fieldset = node("g", "group", group, 100, &[]);
    fieldset["childIds"] = json!(["b1", "b2"]);
    nodes.push(fieldset);
    nodes.push(within(node("b1", "checkbox", "Acme", 101, &[]), "g"));
    nodes.push(within(node("b2", "checkbox", "Globex", 102, &[]), "g"));
    nodes.push(node("after", "checkbox", "Newsletter", 103, &[]));
    nodes
}

#[tokio::test]
async fn controls_in_a_group_named_for_filtering_are_filters() {
    for name in [
        "Filter by brand",
        "Refine results",
        "Narrow by size",
        "Shop by brand",
    ] {
        let all = hints(grouped_boxes(name)).await;
        let h = find(&all, "filter_controls").unwrap_or_else(|| panic!("{name}: {all:?}"));
        // The two boxes in the group; not the one after it.
        assert_eq!(h["refs"], json!([13, 14]), "{name}: {h}");
    }
    // A group that is not about filtering: "Remember me" on a sign-in form.
    let all = hints(grouped_boxes("Sign-in options")).await;
    assert!(find(&all, "filter_controls").is_none(), "{all:?}");
}

#[tokio::test]
async fn a_password_field_is_an_auth_surface_without_its_value() {
    let mut password = node("p", "textbox", "Password", 11, &[]);
    password["value"] = json!({"type": "string", "value": "••••••"});
    let sign_in = vec![node("u", "textbox", "User", 10, &[]), password];
    let all = hints(sign_in).await;
    let h = find(&all, "auth_surface").expect("auth_surface");
    assert_eq!(h["passwordFields"], 1, "{h}");
    assert_eq!(h["refs"], json!([2]), "{h}");
    assert_eq!(h["state"], "present", "{h}");
    let plain = vec![node("u", "textbox", "User", 10, &[])];
    assert!(find(&hints(plain).await, "auth_surface").is_none());
}
