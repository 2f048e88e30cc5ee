//! Unit tests of the default components' own logic, run against scripted
//! host contexts (see `testkit`): argument validation and refusal before
//! any browser traffic, numbering and truncation of observations, and the
//! workspace tools working with no tab.

#[cfg(test)]
pub(in crate::runtime) mod hints;
#[cfg(test)]
pub(in crate::runtime) mod input;
#[cfg(test)]
pub mod testkit;

use crate::cdp::Scripted;
use crate::error::Code;
use crate::runtime::tests::testkit::{ax, runtime, TestEnv};
use serde_json::{json, Value};
use std::sync::atomic::Ordering;
use std::sync::Arc;

/// A page with a heading, a paragraph and `buttons` buttons.
fn page(buttons: usize) -> Scripted {
    Arc::new(move |method: &str, _s: Option<&str>, _p: &Value| {
        Ok(match method {
            "Runtime.evaluate" => json!({"result": {"value": ["http://t.test/", "Test page"]}}),
            "Accessibility.getFullAXTree" => {
                let ids: Vec<String> = (0..buttons).map(|i| format!("b{i}")).collect();
                let mut children: Vec<&str> = vec!["h", "p"];
                children.extend(ids.iter().map(String::as_str));
                let mut nodes = vec![
                    ax("root", "RootWebArea", "Test page", 1, &children),
                    ax("h", "heading", "Title", 2, &[]),
                    ax("p", "paragraph", "", 3, &[]),
                ];
                for (i, id) in ids.iter().enumerate() {
                    nodes.push(ax(id, "button", &format!("Button {i}"), 10 + i as i64, &[]));
                }
                json!({ "nodes": nodes })
            }
            _ => json!({}),
        })
    })
}

fn code(r: crate::error::BpResult<Value>) -> Code {
    match r {
        Ok(v) => panic!("expected an error, got {v}"),
        Err(e) => e.code,
    }
}

#[tokio::test]
async fn observe_numbers_interactive_elements_in_order() {
    let env = TestEnv::new("http://t.test/", page(3)).unwrap();
    let obs = env.target("browser.observe", json!({})).await.unwrap();
    let elements = obs["elements"].as_array().unwrap();
    let seen: Vec<(u64, &str, &str)> = elements
        .iter()
        .map(|e| {
            (
                e["ref"].as_u64().unwrap(),
                e["role"].as_str().unwrap(),
                e["name"].as_str().unwrap(),
            )
        })
        .collect();
    assert_eq!(
        seen,
        vec![
            (1, "button", "Button 0"),
            (2, "button", "Button 1"),
            (3, "button", "Button 2")
        ],
        "{obs}"
    );
    assert_eq!(obs["truncated"], false);
    assert_eq!(obs["title"], "Test page");
    // The refs were recorded against the observation.
    let id = obs["observationId"].as_str().unwrap();
    assert_eq!(env.observations.get(id).map(|o| o.refs.len()), Some(3));
}

#[tokio::test]
async fn observe_truncates_at_the_limit_and_says_why() {
    let env = TestEnv::new("http://t.test/", page(20)).unwrap();
    let obs = env
        .target("browser.observe", json!({"limit": 5}))
        .await
        .unwrap();
    assert_eq!(obs["elements"].as_array().unwrap().len(), 5);
    assert_eq!(obs["truncated"], true);
    assert!(
        !obs["truncationReasons"].as_array().unwrap().is_empty(),
        "{obs}"
    );
}

#[tokio::test]
async fn bad_arguments_are_refused_before_any_browser_traffic() {
    let env = TestEnv::new("http://t.test/", page(1)).unwrap();
    let target_cases = [
        ("browser.observe", json!({"limit": 0})),
        ("browser.observe", json!({"bogus": true})),
        ("browser.click", json!({})),
        ("browser.click", json!({"ref": "x"})),
        ("browser.type", json!({"ref": 1})),
        ("browser.press", json!({"key": 5})),
        ("browser.navigate", json!({"url": 42})),
        ("browser.navigate", json!({"url": "javascript:alert(1)"})),
        ("browser.screenshot", json!({"fullPage": "yes"})),
        ("browser.read", json!({"maxChars": -1})),
    ];
    for (tool, input) in target_cases {
        let r = env.target(tool, input.clone()).await;
        assert_eq!(code(r), Code::InvalidArgument, "{tool} {input}");
    }
    let workspace_cases = [
        ("browser.network.rules.add", json!({"pattern": "*"})),
        (
            "browser.network.rules.add",
            json!({"pattern": "*", "action": "teleport"}),
        ),
        ("browser.dialogs.respond", json!({"accept": true})),
        ("browser.auth.set", json!({"origin": "http://a.test"})),
    ];
    for (tool, input) in workspace_cases {
        let r = env.workspace_tool(tool, input.clone()).await;
        assert_eq!(code(r), Code::InvalidArgument, "{tool} {input}");
    }
    assert_eq!(
        env.sent.load(Ordering::SeqCst),
        0,
        "a refused call reached the browser"
    );
}

#[tokio::test]
async fn workspace_tools_work_with_no_tab() {
    let env = TestEnv::new("http://t.test/", page(1)).unwrap();
    let rule = env
        .workspace_tool(
            "browser.network.rules.add",
            json!({"pattern": "*/ads/*", "action": "block"}),
        )
        .await
        .unwrap();
    let id = rule["ruleId"].as_str().unwrap().to_string();
    let listed = env
        .workspace_tool("browser.network.rules.list", json!({}))
        .await
        .unwrap();
    assert_eq!(listed["rules"][0]["ruleId"], id.as_str(), "{listed}");
    let dialogs = env
        .workspace_tool("browser.dialogs.list", json!({}))
        .await
        .unwrap();
    assert_eq!(dialogs["dialogs"], json!([]));
    // "This tab only" needs a current tab, and there is none here.
    let r = env
        .workspace_tool(
            "browser.network.rules.add",
            json!({"pattern": "*", "action": "block", "targetId": "t1"}),
        )
        .await;
    assert_eq!(code(r), Code::InvalidArgument);
}

#[test]
fn every_default_tool_declares_its_scope_and_artifacts() {
    let tools = runtime().manifest(crate::granter::Grants {
        eval: true,
        page_consequential: true,
        state_load_user: true,
    });
    assert!(tools.len() >= 25, "{} tools", tools.len());
    for t in &tools {
        assert!(
            matches!(t["scope"].as_str(), Some("workspace" | "target")),
            "{t}"
        );
    }
    let kinds = |name: &str| {
        tools
            .iter()
            .find(|t| t["name"] == name)
            .map(|t| t["artifactKinds"].clone())
            .unwrap_or(Value::Null)
    };
    assert_eq!(
        kinds("browser.screenshot"),
        json!(["screenshot", "preview"])
    );
    assert_eq!(kinds("browser.pdf"), json!(["pdf"]));
    assert_eq!(kinds("browser.click"), json!([]));
}
