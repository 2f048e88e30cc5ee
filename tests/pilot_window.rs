//! The Pilot window (spec BR-7) of a broker-launched browser, checked
//! through the browser's own target and window lists: each workspace's
//! managed tabs share a window with a tab of the broker's own, titled with
//! the client's name and the workspace, which no agent sees or closes, and
//! which closes with its workspace.
#![allow(clippy::unwrap_used, clippy::expect_used)] // tests may panic

mod support;
use browser_pilot_host::cdp::Cdp;
use serde_json::{json, Value};
use std::sync::Arc;
use support::bridge::Bridge;
use support::{devtools_http, poll_until, Env, POLL_LIMIT};

/// The browser itself, over its own DevTools endpoint (not the broker).
struct Browser {
    rt: tokio::runtime::Runtime,
    cdp: Cdp,
}

impl Browser {
    fn open(env: &Env) -> Self {
        let version: Value =
            serde_json::from_str(&devtools_http(env, "GET", "/json/version")).unwrap();
        // The endpoint answered a Host header without a port: take the
        // path only, and the port the broker reports.
        let url = version["webSocketDebuggerUrl"].as_str().unwrap();
        let path = &url[url.find("/devtools/").unwrap()..];
        let status = env.json(&["tool", "call", "browser.status"]);
        let endpoint = status["connection"]["endpoint"].as_str().unwrap();
        let ws = format!("ws://{endpoint}{path}");
        let rt = tokio::runtime::Builder::new_current_thread()
            .enable_all()
            .build()
            .unwrap();
        let cdp = rt.block_on(Cdp::connect(&ws, Arc::new(|_| {}))).unwrap();
        Self { rt, cdp }
    }

    fn call(&self, method: &str, params: Value) -> Value {
        self.rt
            .block_on(self.cdp.call(method, None, params))
            .unwrap()
    }

    /// (target ID, title, url) of every page.
    fn pages(&self) -> Vec<(String, String, String)> {
        let v = self.call("Target.getTargets", json!({}));
        v["targetInfos"]
            .as_array()
            .unwrap()
            .iter()
            .filter(|t| t["type"] == "page")
            .map(|t| {
                let s = |k: &str| t[k].as_str().unwrap_or_default().to_string();
                (s("targetId"), s("title"), s("url"))
            })
            .collect()
    }

    fn pilots(&self) -> Vec<(String, String)> {
        self.pages()
            .into_iter()
            .filter(|(_, title, _)| title.starts_with("Browser Pilot: "))
            .map(|(id, title, _)| (id, title))
            .collect()
    }

    fn page_at(&self, url: &str) -> String {
        self.pages()
            .into_iter()
            .find(|(_, _, u)| u == url)
            .unwrap_or_else(|| panic!("no page at {url}"))
            .0
    }

    fn window(&self, target: &str) -> i64 {
        let v = self.call("Browser.getWindowForTarget", json!({"targetId": target}));
        v["windowId"].as_i64().unwrap()
    }
}

#[test]
fn each_workspace_window_names_its_client_and_no_agent_sees_that_tab() {
    let env = Env::new();
    env.launch();
    env.open("index.html");
    let mut b = Bridge::start(&env);
    let s = b.session("agent-b", 120_000);
    b.tool_ok(
        &s,
        "browser.tabs.open",
        json!({"url": env.url("next.html")}),
    );
    let browser = Browser::open(&env);
    poll_until(POLL_LIMIT, "titled Pilot tabs", || {
        browser.pilots().len() == 2
    });
    let pilots = browser.pilots();
    let cli = pilots
        .iter()
        .find(|(_, t)| !t.contains("agent-b"))
        .expect("the CLI's Pilot tab");
    let bridge = pilots
        .iter()
        .find(|(_, t)| t.starts_with("Browser Pilot: agent-b ("))
        .unwrap_or_else(|| panic!("no Pilot tab named for agent-b in {pilots:?}"));
    // Each sits in the window of its own workspace's tabs, and the two
    // windows differ.
    let cli_tab = browser.page_at(&env.url("index.html"));
    let b_tab = browser.page_at(&env.url("next.html"));
    assert_eq!(browser.window(&cli.0), browser.window(&cli_tab));
    assert_eq!(browser.window(&bridge.0), browser.window(&b_tab));
    assert_ne!(browser.window(&cli_tab), browser.window(&b_tab));
    // No agent sees it: not in bp tabs, not in another workspace's list.
    let tabs = env.json(&["tabs"]).to_string();
    assert!(!tabs.contains("Browser Pilot: "), "{tabs}");
    let listed = b.tool_ok(&s, "browser.tabs.list", json!({})).to_string();
    assert!(!listed.contains("Browser Pilot: "), "{listed}");
    // Closing all of the CLI's tabs leaves the Pilot tab while the
    // workspace lives; the next tab gets a window with a Pilot tab of its
    // own, and the old one goes: still one per workspace.
    env.ok(&["close", "--all"]);
    assert!(browser.pilots().iter().any(|p| p.0 == cli.0));
    env.open("form.html");
    // The new window's Pilot tab is made beside the new tab, not before
    // `bp open` answers: wait (bounded) for it and for the old one to go.
    poll_until(
        POLL_LIMIT,
        "the new window's Pilot tab, the old one gone",
        || {
            let pilots = browser.pilots();
            pilots.len() == 2 && !pilots.iter().any(|p| p.0 == cli.0)
        },
    );
    let pilots = browser.pilots();
    let cli_now = pilots.iter().find(|p| p.0 != bridge.0).unwrap().0.clone();
    let form = browser.page_at(&env.url("form.html"));
    assert_eq!(browser.window(&form), browser.window(&cli_now));
    // Released with its workspace.
    b.call("workspaces/release", json!({"workspaceId": s.workspace}));
    poll_until(
        POLL_LIMIT,
        "the released workspace's Pilot tab to close",
        || !browser.pilots().iter().any(|p| p.0 == bridge.0),
    );
    assert!(browser.pilots().iter().any(|p| p.0 == cli_now));
}
