//! Policy as linking: denied capabilities remove tools, calls are refused
//! before any CDP traffic, and bad policy files are rejected at start.
#![allow(clippy::unwrap_used, clippy::expect_used)] // tests may panic

mod support;
use std::collections::{BTreeMap, BTreeSet};
use support::{components_dir, root, Env};

fn tool_names(env: &Env) -> Vec<String> {
    tools_with_capabilities(env).into_keys().collect()
}

/// Each listed tool and the capabilities it needs.
fn tools_with_capabilities(env: &Env) -> BTreeMap<String, Vec<String>> {
    let list = env.json(&["tool", "list"]);
    let tools = list["tools"].as_array().expect("a tools array");
    assert!(!tools.is_empty(), "no tools listed: {list}");
    tools
        .iter()
        .map(|t| {
            let name = t["name"].as_str().expect("a tool name").to_string();
            let caps = t["capabilities"]
                .as_array()
                .unwrap_or_else(|| panic!("{name}: no capabilities array: {t}"))
                .iter()
                .map(|c| c.as_str().expect("a capability name").to_string())
                .collect();
            (name, caps)
        })
        .collect()
}

/// The `deny = [...]` list of a policy file (the fixtures keep it on one
/// line).
fn denied_in(text: &str) -> BTreeSet<String> {
    let line = text
        .lines()
        .find(|l| l.trim_start().starts_with("deny"))
        .unwrap_or("deny = []");
    let list = line
        .split_once('[')
        .and_then(|(_, rest)| rest.split_once(']'))
        .map(|(inner, _)| inner)
        .unwrap_or_else(|| panic!("deny is not a one-line list: {line}"));
    list.split(',')
        .map(|c| c.trim().trim_matches('"').to_string())
        .filter(|c| !c.is_empty())
        .collect()
}

/// A broker started with a policy that loads must enforce it: exactly its
/// capabilities are denied, their tools are gone from the list and refused
/// when called anyway, every other tool of `baseline` is still there, and
/// the limits it sets are the ones in force.
fn policy_is_enforced(
    env: &Env,
    path: &std::path::Path,
    text: &str,
    baseline: &BTreeMap<String, Vec<String>>,
) {
    let file = path.display();
    let deny = denied_in(text);
    let status = env.status();
    let reported: BTreeSet<String> = status["runtime"]["deniedCapabilities"]
        .as_array()
        .unwrap_or_else(|| panic!("{file}: no deniedCapabilities: {status}"))
        .iter()
        .map(|c| c.as_str().expect("a capability name").to_string())
        .collect();
    assert_eq!(reported, deny, "{file}: denied capabilities");
    let listed = tools_with_capabilities(env);
    let mut refused = 0;
    for (name, caps) in baseline {
        if caps.iter().any(|c| deny.contains(c)) {
            assert!(!listed.contains_key(name), "{file}: {name} still listed");
            let (code, run) = env.err(&["tool", "call", name, "--input", "{}"]);
            assert_eq!(
                code,
                "capability_denied",
                "{file}: {name}: {}",
                run.stderr()
            );
            refused += 1;
        } else {
            assert!(listed.contains_key(name), "{file}: {name} missing");
        }
    }
    assert_eq!(
        refused == 0,
        deny.is_empty(),
        "{file}: a denied capability must remove at least one tool"
    );
    // An allowed tool still runs.
    let ran = env.json(&["tool", "call", "browser.status"]);
    assert!(ran["connection"]["state"].is_string(), "{file}: {ran}");
    // Limits the broker reports (kebab-case in the file, camelCase in the
    // status) hold the file's values.
    let limits = &status["runtime"]["limits"];
    let mut in_limits = false;
    for line in text.lines().map(str::trim) {
        if line.starts_with('[') {
            in_limits = line == "[limits]";
            continue;
        }
        let Some((key, value)) = line.split_once('=').filter(|_| in_limits) else {
            continue;
        };
        let mut camel = String::new();
        let mut upper = false;
        for ch in key.trim().chars() {
            if ch == '-' {
                upper = true;
            } else if upper {
                camel.extend(ch.to_uppercase());
                upper = false;
            } else {
                camel.push(ch);
            }
        }
        if let Some(got) = limits.get(&camel) {
            assert_eq!(
                got.as_u64(),
                value.trim().parse::<u64>().ok(),
                "{file}: limit {key}: {limits}"
            );
        }
    }
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
    let before = env.cdp_commands_sent();
    assert!(before > 0, "the launch sent no CDP commands? {before}");
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
    let after = env.cdp_commands_sent();
    assert_eq!(before, after, "a denied call reached CDP");
    env.ok(&["tool", "call", "browser.tabs.open"]);
    // The counter is live: an allowed call that drives the page moves it,
    // so the equality above is not a stuck counter.
    assert!(
        env.cdp_commands_sent() > after,
        "opening a tab sent no CDP commands"
    );
    // The rest still works.
    env.json(&["snapshot"]);
}

#[test]
fn policy_files_are_validated_at_start() {
    let dir = root().join("fixtures/policies");
    // Every tool of the default policy, with the capabilities it needs.
    let baseline = {
        let mut env = Env::new();
        env.serve(&[]);
        tools_with_capabilities(&env)
    };
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
            let text = std::fs::read_to_string(&path).unwrap_or_default();
            policy_is_enforced(&env, &path, &text, &baseline);
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
