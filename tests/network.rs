//! Network journal, rules, HTTP auth, cookies and gated eval, per
//! workspace, against real Chromium and the fixture server.
#![allow(clippy::unwrap_used, clippy::expect_used)] // tests may panic

mod support;
use serde_json::json;
use std::io::Write;
use support::bridge::{two_clients, Bridge};
use support::{poll_for, Env, POLL_LIMIT};

/// Whether net.html has filled both status lines (its fetches run after
/// load).
fn settled(text: &str) -> bool {
    !text.contains("loading") && !text.contains("\n-")
}

fn read_after_load(env: &Env) -> String {
    poll_for(POLL_LIMIT, "net.html settled", || {
        Some(env.ok(&["read"])).filter(|t| settled(t))
    })
}

/// The statuses of the journal's `/auth` requests after `since`; each
/// must have one.
fn auth_statuses(env: &Env, since: &str) -> Vec<u64> {
    let log = env.json(&["net", "log", "--since", since]);
    log["requests"]
        .as_array()
        .expect("requests")
        .iter()
        .filter(|r| r["url"].as_str().is_some_and(|u| u.ends_with("/auth")))
        .map(|r| {
            r["status"]
                .as_u64()
                .unwrap_or_else(|| panic!("no status: {r}"))
        })
        .collect()
}

#[test]
fn journal_rules_and_their_effect_on_the_page() {
    let env = Env::new();
    env.launch();
    env.open("net.html");
    assert!(read_after_load(&env).contains(r#"data: {"source": "server"}"#));
    env.open("form.html");
    let log = env.json(&["net", "log"]);
    let urls: Vec<&str> = log["requests"]
        .as_array()
        .unwrap()
        .iter()
        .filter_map(|r| r["url"].as_str())
        .collect();
    assert!(
        urls.iter().any(|u| u.ends_with("/net.html"))
            && urls.iter().any(|u| u.ends_with("/form.html")),
        "the journal must survive navigation: {urls:?}"
    );
    assert!(urls.iter().any(|u| u.ends_with("/api/data")), "{urls:?}");
    let first = &log["requests"][0];
    assert!(
        first.get("headers").is_none() && first.get("body").is_none(),
        "no headers or bodies: {first}"
    );
    let since = log["nextSeq"].as_u64().unwrap().to_string();

    // Mock and header rules are visible to the page.
    env.ok(&[
        "net",
        "mock",
        "*/api/data",
        "--body",
        r#"{"source":"mock"}"#,
        "--header",
        "Content-Type:application/json",
    ]);
    env.ok(&[
        "net",
        "headers",
        "*/echo-header",
        "--header",
        "X-Agent:pilot",
    ]);
    env.open("net.html");
    let text = read_after_load(&env);
    assert!(text.contains(r#"data: {"source":"mock"}"#), "{text}");
    assert!(text.contains("X-Agent=pilot"), "{text}");
    let rules = env.json(&["net", "rules"]);
    assert_eq!(rules["rules"].as_array().unwrap().len(), 2);
    let mocked = env.json(&["net", "log", "--since", &since]);
    let api = mocked["requests"]
        .as_array()
        .unwrap()
        .iter()
        .find(|r| r["url"].as_str().unwrap().ends_with("/api/data"))
        .cloned()
        .unwrap();
    assert_eq!(api["outcome"], "mocked", "{api}");
    assert!(api["ruleId"].is_string());

    // Block.
    env.ok(&["net", "clear"]);
    env.ok(&["net", "block", "*/api/*"]);
    env.open("net.html");
    assert!(read_after_load(&env).contains("data: fetch failed"));
    let (code, _) = env.err(&["net", "block", ""]);
    assert_eq!(code, "invalid_argument");
    let (code, _) = env.err(&["net", "headers", "*", "--header", "Bad Name:x"]);
    assert_eq!(code, "invalid_argument");
}

#[test]
fn rules_stay_in_their_workspace_and_end_with_their_lease() {
    let env = Env::new();
    env.launch();
    let (mut a, sa, mut b, sb) = two_clients(&env, 60_000);
    a.tool_ok(&sa, "browser.tabs.open", json!({"url": "about:blank"}));
    let rule = a.tool_ok(
        &sa,
        "browser.network.rules.add",
        json!({"pattern": "*/api/*", "action": "block"}),
    );
    b.tool_ok(
        &sb,
        "browser.tabs.open",
        json!({"url": env.url("net.html")}),
    );
    let text = poll_for(POLL_LIMIT, "B's net.html settled", || {
        let read = b.tool_ok(&sb, "browser.read", json!({}));
        let text = read["text"].as_str().unwrap().to_string();
        settled(&text).then_some(text)
    });
    assert!(
        text.contains(r#""source": "server""#),
        "A's rule reached B: {text}"
    );
    let b_rules = b.tool_ok(&sb, "browser.network.rules.list", json!({}));
    assert_eq!(b_rules["rules"], json!([]));
    assert_eq!(
        b.tool_code(
            &sb,
            "browser.network.rules.remove",
            json!({"ruleId": rule["ruleId"]})
        ),
        "invalid_argument"
    );
    // A's journal holds only A's requests.
    let log = a.tool_ok(&sa, "browser.network.log", json!({}));
    assert!(!log.to_string().contains("net.html"), "{log}");

    // Releasing the lease removes the rules it made.
    a.call("leases/release", json!({"leaseId": sa.lease}));
    let lease = a.call("leases/create", json!({"workspaceId": sa.workspace}));
    let sa2 = support::bridge::Session {
        lease: lease["leaseId"].as_str().unwrap().into(),
        ..sa.clone()
    };
    a.tool_ok(&sa2, "browser.tabs.open", json!({}));
    assert_eq!(
        a.tool_ok(&sa2, "browser.network.rules.list", json!({}))["rules"],
        json!([])
    );
}

#[test]
fn http_auth_cookies_and_eval_gate() {
    let env = Env::new();
    env.launch();
    // Without credentials the page is refused: the server answers 401 and
    // the members' page is not shown.
    let since = env.json(&["net", "log"])["nextSeq"]
        .as_u64()
        .expect("nextSeq")
        .to_string();
    let (code, run) = env.err(&["open", &env.url("auth"), "--json"]);
    assert_eq!(code, "action_not_verified", "{}", run.stderr());
    let refused: serde_json::Value = serde_json::from_str(run.stdout().trim()).unwrap();
    assert_eq!(
        refused["error"]["context"]["reason"], "navigation_failed",
        "{refused}"
    );
    assert!(!env.ok(&["read"]).contains("Welcome agent"));
    assert_eq!(auth_statuses(&env, &since), vec![401]);
    let mut child = std::process::Command::new(support::bp_exe())
        .args([
            "auth",
            "set",
            &format!("http://127.0.0.1:{}", env.server.port),
            "--username",
            "agent",
        ])
        .env("BROWSER_PILOT_HOME", &env.home)
        .stdin(std::process::Stdio::piped())
        .stdout(std::process::Stdio::piped())
        .spawn()
        .unwrap();
    child
        .stdin
        .take()
        .unwrap()
        .write_all(b"s3cret-canary-pw\n")
        .unwrap();
    assert!(child.wait_with_output().unwrap().status.success());
    let since = env.json(&["net", "log"])["nextSeq"]
        .as_u64()
        .expect("nextSeq")
        .to_string();
    let opened = env.json(&["open", &env.url("auth")]);
    assert_eq!(opened["title"], "Members", "{opened}");
    assert!(env.ok(&["read"]).contains("Welcome agent"));
    // With them, the request ends in 200 (after the challenge).
    assert_eq!(auth_statuses(&env, &since).last(), Some(&200));

    // Cookies round trip.
    env.ok(&["cookies", "set", "session", "cookie-canary-77"]);
    let cookies = env.json(&["cookies"]);
    assert_eq!(
        cookies["cookies"][0]["value"], "cookie-canary-77",
        "{cookies}"
    );
    assert_eq!(
        env.json(&["eval", "document.cookie"])["value"],
        "session=cookie-canary-77"
    );
    assert_eq!(env.json(&["cookies", "clear"])["cleared"], 1);
    assert_eq!(env.json(&["cookies"])["cookies"], json!([]));

    // Eval needs developer.eval: the CLI asks for it, a plain client does not get it.
    let mut plain = Bridge::start(&env);
    let s = plain.session("plain", 60_000);
    let tools = plain.call("tools/list", json!({}));
    assert!(
        !tools.to_string().contains("browser.eval"),
        "eval listed without developer.eval"
    );
    plain.tool_ok(&s, "browser.tabs.open", json!({}));
    assert_eq!(
        plain.tool_code(&s, "browser.eval", json!({"expression": "1+1"})),
        "capability_denied"
    );
    let mut dev = Bridge::start(&env);
    let init = dev.call("initialize", json!({"client": {"name": "dev"}, "protocol": {"min": "1.0", "max": "1.1"}, "capabilities": ["developer.eval"]}));
    assert_eq!(init["capabilities"]["granted"], json!(["developer.eval"]));

    // Secrets never leak: not in the log, the events, errors or artifacts.
    env.open("form.html");
    let obs = env.snapshot(None);
    let password = support::find_ref(&obs, "textbox", "Password");
    env.ok(&["type", &password, "typed-canary-secret"]);
    let (_, run) = env.err(&["cookies", "set", "bad;name", "cookie-canary-77"]);
    let mut haystack = run.stderr() + &run.stdout();
    // A secret in web storage, saved into a state and loaded again: it is
    // in the state file, and in no output, error, event or log. (The
    // set's own read-back is its evidence, so its output is not searched.)
    env.ok(&["storage", "set", "token", "storage-canary-88"]);
    let state = env.home.join("canary-state.json");
    let path = state.to_str().unwrap();
    let saved = env.run(&["state", "save", path]);
    assert!(saved.ok(), "{}", saved.stderr());
    let text = std::fs::read_to_string(&state).unwrap();
    assert!(
        text.contains("storage-canary-88"),
        "the state lacks the secret"
    );
    let loaded = env.run(&["state", "load", path, "--json"]);
    assert!(loaded.ok(), "{}", loaded.stderr());
    haystack += &(saved.stdout() + &saved.stderr() + &loaded.stdout() + &loaded.stderr());
    let mut doc: serde_json::Value = serde_json::from_str(&text).unwrap();
    doc["version"] = json!(9);
    let newer = env.home.join("canary-newer.json");
    std::fs::write(&newer, doc.to_string()).unwrap();
    let (_, run) = env.err(&["state", "load", newer.to_str().unwrap()]);
    haystack += &(run.stderr() + &run.stdout());
    doc["version"] = json!(1);
    doc["origins"][0]["localStorage"][0]["value"] = json!(null);
    doc["cookies"] = json!([{"name": "c", "value": "storage-canary-88;x", "domain": "a.test"}]);
    let broken = env.home.join("canary-broken.json");
    std::fs::write(&broken, doc.to_string()).unwrap();
    let (_, run) = env.err(&["state", "load", broken.to_str().unwrap()]);
    haystack += &(run.stderr() + &run.stdout());
    // Credentials in a URL: the page loads with them, and every URL the
    // broker reports has the userinfo replaced by a marker.
    let with_creds = format!(
        "http://agent:s3cret-canary-pw@127.0.0.1:{}/auth",
        env.server.port
    );
    let opened = env.json(&["open", &with_creds]);
    assert_eq!(opened["title"], "Members", "{opened}");
    // Chromium drops the userinfo from the page's own URL; the request
    // journal sees the request as sent, and marks where it was.
    let marked = format!("http://redacted@127.0.0.1:{}/auth", env.server.port);
    let journal = env.json(&["net", "log", "--limit", "1000"]);
    assert!(journal.to_string().contains(&marked), "{journal}");
    let seen = env.snapshot(None);
    let tabs = env.json(&["tabs"]);
    haystack += &(opened.to_string() + &seen.to_string() + &tabs.to_string());
    haystack += &env.json(&["frame"]).to_string();
    let broker_log = std::fs::read_to_string(env.home.join("broker.log")).expect("broker.log");
    assert!(!broker_log.is_empty(), "the broker log is empty");
    haystack += &broker_log;
    // The CLI workspace's own events and request journal.
    let cli_ws = env.snapshot(None)["workspaceId"]
        .as_str()
        .unwrap()
        .to_string();
    // Watched read-only with the secret the CLI keeps.
    let stored: serde_json::Value = serde_json::from_str(
        &std::fs::read_to_string(env.home.join("cli-session.json")).expect("cli-session.json"),
    )
    .expect("cli-session.json is JSON");
    let mut as_cli = Bridge::start(&env);
    as_cli.initialize("watcher");
    as_cli.call(
        "workspaces/resume",
        json!({"workspaceId": cli_ws, "resumeSecret": stored["resumeSecret"], "observe": true}),
    );
    let events = as_cli.call(
        "events/poll",
        json!({"workspaceId": cli_ws, "cursor": "0", "limit": 500}),
    );
    assert!(
        events["events"].as_array().is_some_and(|e| !e.is_empty()),
        "{events}"
    );
    haystack += &events.to_string();
    haystack += &env.json(&["net", "log", "--limit", "1000"]).to_string();
    for e in support::walk(&env.home.join("artifacts")) {
        haystack += &String::from_utf8_lossy(&std::fs::read(e).unwrap_or_default());
    }
    for canary in [
        "s3cret-canary-pw",
        "cookie-canary-77",
        "typed-canary-secret",
        "storage-canary-88",
    ] {
        assert!(!haystack.contains(canary), "{canary} leaked");
    }
}

#[test]
fn denying_network_modify_removes_exactly_its_tools() {
    let mut env = Env::new();
    env.serve(&["--deny", "network-modify"]);
    let names: Vec<String> = env.json(&["tool", "list"])["tools"]
        .as_array()
        .unwrap()
        .iter()
        .map(|t| t["name"].as_str().unwrap().to_string())
        .collect();
    for gone in [
        "browser.network.rules.add",
        "browser.network.rules.remove",
        "browser.network.rules.list",
        "browser.auth.set",
        "browser.auth.clear",
    ] {
        assert!(!names.contains(&gone.to_string()), "{gone} still listed");
    }
    for kept in [
        "browser.network.log",
        "browser.cookies.get",
        "browser.cookies.set",
        "browser.eval",
        "browser.observe",
        "browser.screenshot",
    ] {
        assert!(names.contains(&kept.to_string()), "{kept} missing");
    }
    env.launch();
    env.open("form.html");
    let (code, _) = env.err(&["net", "block", "*"]);
    assert_eq!(code, "capability_denied");
}
