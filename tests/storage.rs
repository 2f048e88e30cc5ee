//! `browser.storage.get|set|clear` on real Chromium: each area of the
//! tab's origin read and changed through the browser, every change read
//! back, long values cut and marked, `bp storage` from the command line;
//! an opaque origin, bad input and a tab the workspace does not control
//! refused with stable codes and nothing changed; `--deny` of each
//! capability and `--deny-tool` remove the tools.
#![allow(clippy::unwrap_used, clippy::expect_used)] // tests may panic

mod support;
use serde_json::{json, Value};
use support::bridge::Bridge;
use support::Env;

fn items(v: &Value) -> Vec<(String, String)> {
    v["items"]
        .as_array()
        .unwrap_or_else(|| panic!("no items in {v}"))
        .iter()
        .map(|i| {
            (
                i["key"].as_str().unwrap().to_string(),
                i["value"].as_str().unwrap().to_string(),
            )
        })
        .collect()
}

fn pairs(list: &[(&str, &str)]) -> Vec<(String, String)> {
    list.iter()
        .map(|(k, v)| (k.to_string(), v.to_string()))
        .collect()
}

/// What the page itself reads from its storage, through script.
fn page_reads(env: &Env, expression: &str) -> Value {
    env.json(&["eval", expression])["value"].clone()
}

#[test]
fn each_area_is_read_and_changed_through_the_browser_and_read_back() {
    let env = Env::new();
    env.launch();
    env.open("login.html");
    let origin = format!("http://127.0.0.1:{}", env.server.port);
    let v = env.tool_call("browser.storage.get", &json!({}));
    assert_eq!(v["origin"], origin.as_str(), "{v}");
    assert_eq!(v["area"], "local", "{v}");
    assert_eq!(v["total"], 0, "{v}");

    let v = env.tool_call("browser.storage.set", &json!({"key": "b", "value": "two"}));
    assert_eq!(items(&v), pairs(&[("b", "two")]), "{v}");
    env.tool_call("browser.storage.set", &json!({"key": "a", "value": "one"}));
    let v = env.tool_call(
        "browser.storage.set",
        &json!({"area": "session", "key": "s", "value": "tab only"}),
    );
    assert_eq!(v["area"], "session", "{v}");
    assert_eq!(v["total"], 1, "{v}");
    // The page sees what was set, each in its own area.
    assert_eq!(page_reads(&env, "localStorage.getItem('a')"), "one");
    assert_eq!(page_reads(&env, "sessionStorage.getItem('s')"), "tab only");
    assert_eq!(page_reads(&env, "sessionStorage.getItem('a')"), Value::Null);
    // All keys in key order, or one; an absent key reads as none.
    let v = env.tool_call("browser.storage.get", &json!({"area": "local"}));
    assert_eq!(items(&v), pairs(&[("a", "one"), ("b", "two")]), "{v}");
    let v = env.tool_call("browser.storage.get", &json!({"key": "b"}));
    assert_eq!(items(&v), pairs(&[("b", "two")]), "{v}");
    assert_eq!(v["total"], 2, "{v}");
    let v = env.tool_call("browser.storage.get", &json!({"key": "zz"}));
    assert_eq!(items(&v), vec![], "{v}");

    // What the page sets is read too; a value past the bound is cut and
    // marked.
    env.ok(&["eval", "localStorage.setItem('long', 'x'.repeat(9000)); 1"]);
    let v = env.tool_call("browser.storage.get", &json!({"key": "long"}));
    assert_eq!(v["items"][0]["valueCut"], true, "{v}");
    assert_eq!(v["items"][0]["value"].as_str().unwrap().len(), 8192);

    // Clear one key, then the rest of the area; the other area stays.
    let v = env.tool_call("browser.storage.clear", &json!({"key": "a"}));
    assert_eq!(v["total"], 2, "{v}");
    assert_eq!(page_reads(&env, "localStorage.getItem('a')"), Value::Null);
    let v = env.tool_call("browser.storage.clear", &json!({}));
    assert_eq!(v["total"], 0, "{v}");
    assert_eq!(page_reads(&env, "localStorage.length"), 0);
    assert_eq!(page_reads(&env, "sessionStorage.length"), 1);
}

#[test]
fn bp_storage_gets_sets_and_clears_from_the_command_line() {
    let env = Env::new();
    env.launch();
    env.open("login.html");
    let line = env.ok(&["storage", "set", "theme", "dark"]);
    assert!(line.contains("theme=dark"), "{line}");
    let line = env.ok(&["storage", "set", "draft", "hello world", "--session"]);
    assert!(line.contains("sessionStorage"), "{line}");
    let v = env.json(&["storage", "get"]);
    assert_eq!(items(&v), pairs(&[("theme", "dark")]), "{v}");
    let v = env.json(&["storage", "get", "draft", "--session"]);
    assert_eq!(items(&v), pairs(&[("draft", "hello world")]), "{v}");
    let v = env.json(&["storage", "clear", "theme"]);
    assert_eq!(v["total"], 0, "{v}");
    let v = env.json(&["storage", "clear", "--session"]);
    assert_eq!(v["total"], 0, "{v}");
    assert_eq!(page_reads(&env, "sessionStorage.length"), 0);
}

#[test]
fn opaque_origins_bad_input_and_foreign_tabs_are_refused_with_nothing_changed() {
    let env = Env::new();
    env.launch();
    env.open("login.html");
    env.ok(&["storage", "set", "keep", "me"]);
    for bad in [
        json!({"area": "disk"}),
        json!({"key": ""}),
        json!({"key": "k", "value": 3}),
        json!({"value": "v"}),
        json!({"key": "k", "value": "v", "extra": 1}),
    ] {
        let r = env.run(&[
            "tool",
            "call",
            "browser.storage.set",
            "--input",
            &bad.to_string(),
        ]);
        assert_eq!(r.code(), "invalid_argument", "{bad}: {}", r.stderr());
    }
    let r = env.run(&[
        "tool",
        "call",
        "browser.storage.clear",
        "--input",
        r#"{"area": 1}"#,
    ]);
    assert_eq!(r.code(), "invalid_argument", "{}", r.stderr());
    let v = env.json(&["storage", "get"]);
    assert_eq!(items(&v), pairs(&[("keep", "me")]), "{v}");
    // A tab this workspace does not hold: the not-owned code, for an
    // unknown ID and for another client's tab.
    let r = env.run(&[
        "tool",
        "call",
        "browser.storage.get",
        "--input",
        r#"{"targetId": "t999-nope"}"#,
    ]);
    assert_eq!(r.code(), "target_not_owned", "{}", r.stderr());
    let mut other = Bridge::start(&env);
    let s = other.session("other", 60_000);
    let tab = other.tool_ok(
        &s,
        "browser.tabs.open",
        json!({"url": env.url("login.html")}),
    );
    let foreign = tab["targetId"].as_str().expect("targetId").to_string();
    for tool in ["browser.storage.get", "browser.storage.clear"] {
        let r = env.run(&[
            "tool",
            "call",
            tool,
            "--input",
            &json!({"targetId": foreign}).to_string(),
        ]);
        assert_eq!(r.code(), "target_not_owned", "{tool}: {}", r.stderr());
    }
    assert_eq!(
        other.tool_ok(&s, "browser.storage.get", json!({"key": "keep"}))["items"][0]["value"],
        "me"
    );
    // A document with an opaque origin has no storage to name.
    env.ok(&["open", "data:text/html,<p>opaque</p>"]);
    for (tool, input) in [
        ("browser.storage.get", json!({})),
        ("browser.storage.set", json!({"key": "k", "value": "v"})),
        ("browser.storage.clear", json!({})),
    ] {
        let r = env.run(&["tool", "call", tool, "--input", &input.to_string()]);
        assert_eq!(r.code(), "invalid_argument", "{tool}: {}", r.stderr());
        assert!(r.stderr().contains("opaque origin"), "{}", r.stderr());
    }
}

#[test]
fn each_storage_capability_is_denied_apart() {
    let get = ["browser.storage.get"];
    let change = ["browser.storage.set", "browser.storage.clear"];
    for (cap, gone, kept, refused) in [
        (
            "storage-read",
            &get[..],
            &change[..],
            &["storage", "get"][..],
        ),
        (
            "storage-write",
            &change[..],
            &get[..],
            &["storage", "set", "k", "v"][..],
        ),
    ] {
        let mut env = Env::new();
        env.serve(&["--deny", cap]);
        let names = env.tool_names();
        for tool in gone {
            assert!(!names.iter().any(|n| n == tool), "{cap}: {names:?}");
        }
        for tool in kept {
            assert!(names.iter().any(|n| n == tool), "{cap}: {names:?}");
        }
        assert!(
            names.iter().any(|n| n == "browser.cookies.get"),
            "{names:?}"
        );
        let (code, _) = env.err(refused);
        assert_eq!(code, "capability_denied", "{cap}");
    }
}

#[test]
fn denying_the_set_tool_alone_keeps_the_read() {
    let mut env = Env::new();
    env.serve(&["--deny-tool", "browser.storage.set"]);
    let names = env.tool_names();
    assert!(
        !names.iter().any(|n| n == "browser.storage.set"),
        "{names:?}"
    );
    assert!(
        names.iter().any(|n| n == "browser.storage.get"),
        "{names:?}"
    );
    // What is read is page data, and says so.
    let tools = env.json(&["tool", "list"]);
    let get = tools["tools"]
        .as_array()
        .unwrap()
        .iter()
        .find(|t| t["name"] == "browser.storage.get")
        .unwrap();
    assert_eq!(
        get["sensitivity"]["output"],
        json!(["page_content"]),
        "{get}"
    );
    env.launch();
    env.open("login.html");
    let (code, _) = env.err(&["storage", "set", "k", "v"]);
    assert_eq!(code, "capability_denied");
    assert_eq!(env.json(&["storage", "get"])["total"], 0);
}
