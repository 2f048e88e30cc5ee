//! A tool family written by a stranger: `examples/outline`, built only
//! against the published WIT and the guest SDK, loaded with
//! `--components`, called, then gone once its capability is denied.
#![allow(clippy::unwrap_used, clippy::expect_used)] // tests may panic

mod support;

use std::path::PathBuf;
use support::Env;

/// Build the example and put it beside the default components it needs
/// to open a tab (tabs, navigate) in a directory for `--components`.
fn component_set() -> PathBuf {
    let root = support::root();
    let target = root.join("target/example-outline");
    support::build_components(&root.join("examples/outline/Cargo.toml"), &target);
    let dir = target.join("set");
    std::fs::create_dir_all(&dir).unwrap();
    let built = target.join("wasm32-wasip2/release/bp_example_outline.wasm");
    std::fs::copy(&built, dir.join("outline.wasm")).unwrap();
    for name in ["tabs", "navigate"] {
        let from = root.join(format!(
            "target/tools/wasm32-wasip2/release/bp_tool_{name}.wasm"
        ));
        std::fs::copy(&from, dir.join(format!("{name}.wasm")))
            .unwrap_or_else(|e| panic!("{}: {e}", from.display()));
    }
    dir
}

#[test]
fn a_third_party_tool_family_loads_runs_and_vanishes_when_denied() {
    let dir = component_set();
    let dir = dir.to_str().unwrap();

    let mut env = Env::new();
    env.serve(&["--components", dir]);
    env.launch();
    env.open("form.html");
    let out = env.json(&["tool", "call", "example.outline"]);
    let outline: Vec<&str> = out["outline"]
        .as_array()
        .unwrap()
        .iter()
        .filter_map(|l| l.as_str())
        .collect();
    assert!(
        outline.iter().any(|l| l.contains("heading \"Sign in\"")),
        "{out}"
    );
    assert_eq!(
        out["scope"],
        serde_json::Value::Null,
        "results carry no scope"
    );
    let listed = env.json(&["tool", "list"]);
    let entry = listed["tools"]
        .as_array()
        .unwrap()
        .iter()
        .find(|t| t["name"] == "example.outline")
        .cloned()
        .unwrap_or_else(|| panic!("not listed: {listed}"));
    assert_eq!(entry["scope"], "target");
    assert_eq!(entry["capabilities"], serde_json::json!(["page-read"]));
    let bad = env.run(&["tool", "call", "example.outline", "--input", "{\"max\": 0}"]);
    assert!(!bad.ok());
    assert_eq!(bad.code(), "invalid_argument", "{}", bad.stderr());

    // The same component under a policy that denies page-read: gone.
    let mut denied = Env::new();
    denied.serve(&["--components", dir, "--deny", "page-read"]);
    let names = denied.json(&["tool", "list"]).to_string();
    assert!(!names.contains("example.outline"), "{names}");
    assert!(names.contains("browser.tabs.open"), "{names}");
    let r = denied.run(&["tool", "call", "example.outline"]);
    assert_eq!(r.code(), "capability_denied", "{}", r.stderr());
}
