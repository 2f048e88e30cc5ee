//! Policy as linking: denied capabilities remove tools, calls are refused
//! before any CDP traffic, and bad policy files are rejected at start.
#![allow(clippy::unwrap_used, clippy::expect_used)] // tests may panic

mod support;
use support::{components_dir, root, Env};

fn tool_names(env: &Env) -> Vec<String> {
    let list = env.json(&["tool", "list"]);
    list["tools"]
        .as_array()
        .into_iter()
        .flatten()
        .filter_map(|t| t["name"].as_str().map(str::to_string))
        .collect()
}

#[test]
fn denying_navigation_removes_exactly_its_tools_and_sends_nothing() {
    let mut env = Env::new();
    let dir = components_dir();
    env.serve(&[
        "--deny",
        "navigation",
        "--components",
        dir.to_str().unwrap_or_default(),
    ]);
    let names = tool_names(&env);
    assert!(
        !names.contains(&"browser.navigate".to_string()),
        "{names:?}"
    );
    assert!(
        !names.contains(&"fixture.denied-navigate".to_string()),
        "{names:?}"
    );
    for kept in [
        "browser.observe",
        "browser.read",
        "browser.click",
        "browser.type",
        "browser.press",
        "browser.keyboard",
    ] {
        assert!(
            names.contains(&kept.to_string()),
            "{kept} missing: {names:?}"
        );
    }
    let status = env.status();
    let denied_component = status["runtime"]["components"]
        .as_array()
        .into_iter()
        .flatten()
        .find(|c| c["name"] == "fixture-denied")
        .cloned()
        .unwrap_or_default();
    assert_eq!(denied_component["loaded"], false, "{status}");

    env.launch();
    // Nothing a denied tool needs may reach the browser: not even the tab
    // `bp open` would create for it.
    let before = env.status()["cdpCommandsSent"].as_u64().unwrap_or(0);
    let (code, _) = env.err(&["open", &env.url("form.html")]);
    assert_eq!(code, "capability_denied");
    let (code, run) = env.err(&[
        "tool",
        "call",
        "browser.navigate",
        "--input",
        "{\"url\": \"about:blank\"}",
    ]);
    assert_eq!(code, "capability_denied", "{}", run.stderr());
    let (code, _) = env.err(&["tool", "call", "fixture.denied-navigate"]);
    assert_eq!(code, "capability_denied");
    let after = env.status()["cdpCommandsSent"].as_u64().unwrap_or(0);
    assert_eq!(before, after, "a denied call reached CDP");
    env.ok(&["tool", "call", "browser.tabs.open"]);
    // The rest still works.
    env.json(&["snapshot"]);
}

#[test]
fn policy_files_are_validated_at_start() {
    let dir = root().join("fixtures/policies");
    let mut checked = 0;
    for entry in std::fs::read_dir(&dir).expect("policies dir").flatten() {
        let path = entry.path();
        if path.extension().and_then(|e| e.to_str()) != Some("toml") {
            continue;
        }
        let expected_path = path.with_extension("toml.expected");
        let expected = std::fs::read_to_string(&expected_path)
            .expect("expected file")
            .trim()
            .to_string();
        let env = Env::new();
        if expected == "ok" {
            let mut env = env;
            env.serve(&["--policy", path.to_str().unwrap_or_default()]);
            let denied = env.status()["runtime"]["deniedCapabilities"].clone();
            let text = std::fs::read_to_string(&path).unwrap_or_default();
            for cap in denied.as_array().into_iter().flatten() {
                assert!(
                    text.contains(cap.as_str().unwrap_or("?")),
                    "{}: {denied}",
                    path.display()
                );
            }
        } else {
            let (code, run) = env.err(&[
                "broker",
                "serve",
                "--policy",
                path.to_str().unwrap_or_default(),
            ]);
            assert_eq!(code, "invalid_argument", "{}", path.display());
            assert!(
                run.stderr().contains(&expected),
                "{}: {}",
                path.display(),
                run.stderr()
            );
        }
        checked += 1;
    }
    assert!(checked >= 5, "only {checked} policy fixtures");
}

#[test]
fn unknown_deny_flag_is_an_error() {
    let env = Env::new();
    let (code, run) = env.err(&["broker", "serve", "--deny", "teleport"]);
    assert_eq!(code, "invalid_argument");
    assert!(
        run.stderr().contains("unknown capability"),
        "{}",
        run.stderr()
    );
}
