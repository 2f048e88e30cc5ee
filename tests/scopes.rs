//! Tools act on what they are about: workspace tools (auth, network rules,
//! the journal, dialog listing, the tab set) need no tab and no control of
//! one; target tools keep their tab rules. Policy can remove single tools.
#![allow(clippy::unwrap_used, clippy::expect_used)] // tests may panic

mod support;

use serde_json::{json, Value};
use support::bridge::Bridge;
use support::{find_ref, Env};

fn names(tools: &Value) -> Vec<String> {
    tools["tools"]
        .as_array()
        .unwrap()
        .iter()
        .map(|t| t["name"].as_str().unwrap().to_string())
        .collect()
}

#[test]
fn workspace_tools_need_no_tab_and_no_control() {
    let env = Env::new();
    env.launch();
    // Credentials before any tab is open: exactly when they are needed.
    let out = std::process::Command::new(support::bp_exe())
        .args([
            "auth",
            "set",
            &format!("http://127.0.0.1:{}", env.server.port),
        ])
        .args(["--username", "agent"])
        .env("BROWSER_PILOT_HOME", &env.home)
        .stdin(std::process::Stdio::piped())
        .stdout(std::process::Stdio::piped())
        .stderr(std::process::Stdio::piped())
        .spawn()
        .and_then(|mut c| {
            use std::io::Write;
            c.stdin.take().unwrap().write_all(b"s3cret-canary-pw\n")?;
            c.wait_with_output()
        })
        .unwrap();
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let page = env.json(&["open", &env.url("auth")]);
    assert_eq!(page["title"], "Members", "{page}");

    // Two leases of one workspace: the first controls the tab, the second
    // still manages the workspace's rules and sees its dialogs.
    let mut b = Bridge::start(&env);
    let s1 = b.session("agent", 60_000);
    let lease2 = b.call(
        "leases/create",
        json!({"workspaceId": s1.workspace, "ttlMs": 60_000}),
    );
    let s2 = support::bridge::Session {
        lease: lease2["leaseId"].as_str().unwrap().to_string(),
        ..s1.clone()
    };
    // No tab yet: listing dialogs works and finds none.
    let none = b.tool_ok(&s2, "browser.dialogs.list", json!({}));
    assert_eq!(none["dialogs"], json!([]), "{none}");
    b.tool_ok(
        &s1,
        "browser.tabs.open",
        json!({"url": env.url("dialogs.html")}),
    );
    let rule = b.tool_ok(
        &s2,
        "browser.network.rules.add",
        json!({"pattern": "*/never/*", "action": "block"}),
    );
    assert!(rule["ruleId"].is_string(), "{rule}");
    assert!(
        rule.get("targetId").is_none(),
        "a workspace tool names no tab: {rule}"
    );
    // The tab is still the first lease's.
    assert_eq!(
        b.tool_code(&s2, "browser.observe", json!({})),
        "target_busy"
    );
    let obs = b.tool_ok(&s1, "browser.observe", json!({}));
    let confirm = find_ref(&obs, "button", "Confirm").parse::<u32>().unwrap();
    b.tool_ok(
        &s1,
        "browser.click",
        json!({"observationId": obs["observationId"], "ref": confirm}),
    );
    let listed = b.tool_ok(&s2, "browser.dialogs.list", json!({}));
    assert_eq!(listed["dialogs"][0]["type"], "confirm", "{listed}");
    let id = listed["dialogs"][0]["dialogId"].clone();
    b.tool_ok(
        &s2,
        "browser.dialogs.respond",
        json!({"dialogId": id, "accept": true}),
    );
    let log = b.tool_ok(&s2, "browser.network.log", json!({}));
    assert!(
        log["requests"].as_array().is_some_and(|r| !r.is_empty()),
        "{log}"
    );

    // Every tool says what it acts on.
    let tools = b.call("tools/list", json!({}));
    let scope_of = |name: &str| {
        tools["tools"]
            .as_array()
            .unwrap()
            .iter()
            .find(|t| t["name"] == name)
            .map(|t| t["scope"].clone())
            .unwrap_or_else(|| panic!("{name} not listed"))
    };
    assert_eq!(scope_of("browser.network.rules.add"), "workspace");
    assert_eq!(scope_of("browser.dialogs.list"), "workspace");
    assert_eq!(scope_of("browser.tabs.open"), "workspace");
    assert_eq!(scope_of("browser.click"), "target");
    assert_eq!(scope_of("browser.screenshot"), "target");
}

#[test]
fn policy_removes_single_tools_before_any_browser_traffic() {
    let mut env = Env::new();
    env.serve(&[
        "--deny-tool",
        "browser.tabs.close",
        "--deny-tool",
        "browser.cookies.set",
    ]);
    env.launch();
    env.open("index.html");
    let status = env.status();
    assert_eq!(
        status["runtime"]["deniedTools"],
        json!(["browser.cookies.set", "browser.tabs.close"]),
        "{status}"
    );
    let doctor = env.json(&["doctor"]);
    assert_eq!(
        doctor["broker"]["deniedTools"],
        json!(["browser.cookies.set", "browser.tabs.close"]),
        "{doctor}"
    );
    let listed = names(&env.json(&["tool", "list"]));
    assert!(listed.contains(&"browser.tabs.open".to_string()));
    assert!(listed.contains(&"browser.cookies.get".to_string()));
    assert!(!listed.contains(&"browser.tabs.close".to_string()));
    assert!(!listed.contains(&"browser.cookies.set".to_string()));
    let before = env.cdp_commands_sent();
    let (code, run) = env.err(&["close", "--all"]);
    assert_eq!(code, "capability_denied", "{}", run.stderr());
    assert_eq!(env.cdp_commands_sent(), before, "a denied call reached CDP");
    // What stays works, and moves the counter (so it is not stuck).
    env.json(&["cookies"]);
    assert!(
        env.cdp_commands_sent() > before,
        "reading cookies sent no CDP commands"
    );

    // A removal naming no tool is a typo, and the broker refuses to start.
    let other = Env::new();
    let out = std::process::Command::new(support::bp_exe())
        .args(["broker", "serve", "--deny-tool", "browser.teleport"])
        .env("BROWSER_PILOT_HOME", &other.home)
        .output()
        .unwrap();
    assert!(!out.status.success());
    assert!(String::from_utf8_lossy(&out.stderr).contains("browser.teleport"));
}

/// Every tool, native or component, says what it acts on, and the
/// broker's own tools say it right (issue 41: they listed no scope).
#[test]
fn every_listed_tool_declares_its_scope() {
    let env = Env::new();
    let tools = env.json(&["tool", "list"]);
    let list = tools["tools"].as_array().unwrap();
    assert!(list.len() > 20, "{tools}");
    for t in list {
        assert!(
            matches!(
                t["scope"].as_str(),
                Some("browser" | "workspace" | "target")
            ),
            "{} has scope {}",
            t["name"],
            t["scope"]
        );
    }
    let scope_of = |name: &str| {
        list.iter()
            .find(|t| t["name"] == name)
            .map(|t| t["scope"].clone())
            .unwrap_or_else(|| panic!("{name} not listed"))
    };
    for name in ["browser.status", "browser.connect", "browser.disconnect"] {
        assert_eq!(scope_of(name), "browser", "{name}");
    }
    assert_eq!(scope_of("browser.tabs.list"), "workspace");
    assert_eq!(scope_of("browser.tabs.acquire"), "target");
    assert_eq!(scope_of("browser.tabs.release"), "target");
}
