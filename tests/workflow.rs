//! The main job: a broker-launched headless Chromium, a form observed,
//! typed into and submitted through the one-shot CLI.
#![allow(clippy::unwrap_used, clippy::expect_used)] // tests may panic

mod support;
use support::{find_ref, Env};

#[test]
fn form_workflow_signs_in() {
    let env = Env::new();
    env.launch();
    let opened = env.open("form.html");
    assert_eq!(opened["title"], "Sign in form");

    let obs = env.snapshot(None);
    for field in [
        "workspaceId",
        "leaseId",
        "targetId",
        "url",
        "observationId",
        "title",
        "elements",
        "truncated",
        "truncationReasons",
    ] {
        assert!(obs.get(field).is_some(), "observation lacks {field}: {obs}");
    }
    assert_eq!(obs["truncated"], false);
    let name = find_ref(&obs, "textbox", "Name");
    let password = find_ref(&obs, "textbox", "Password");
    let button = find_ref(&obs, "button", "Sign in");

    let typed = env.json(&["type", &name, "Ada", "--clear"]);
    assert_eq!(typed["evidence"]["status"], "verified", "{typed}");
    assert_eq!(
        typed["outcome"],
        serde_json::json!({"understood": true, "executed": true, "changed": true}),
        "{typed}"
    );
    let typed = env.json(&["type", &password, "hunter2-canary"]);
    assert_eq!(typed["evidence"]["status"], "verified", "{typed}");

    // The password value never appears in an observation.
    let obs2 = env.snapshot(None);
    assert!(
        !obs2.to_string().contains("hunter2-canary"),
        "password leaked: {obs2}"
    );

    let clicked = env.json(&["click", &button]);
    assert_eq!(clicked["evidence"]["route"], "trusted_input");
    let text = env.ok(&["read"]);
    assert!(text.contains("Signed in as Ada"), "page text: {text}");
    // Every command was a new connection, yet all worked in one workspace:
    // the CLI resumed it with the secret it keeps owner-only.
    assert_eq!(obs2["workspaceId"], obs["workspaceId"]);
    cli_secret_is_private_and_needed(&env, obs["workspaceId"].as_str().unwrap());
    let log = std::fs::read_to_string(env.home.join("broker.log")).expect("broker.log");
    assert!(
        !log.contains("hunter2-canary"),
        "typed text reached the broker log"
    );
}

/// The CLI's resume secret is a 0600 file, and another client calling
/// itself the CLI cannot reach the CLI's workspace without it.
fn cli_secret_is_private_and_needed(env: &Env, workspace: &str) {
    use std::os::unix::fs::PermissionsExt;
    let file = env.home.join("cli-session.json");
    let mode = std::fs::metadata(&file)
        .expect("cli-session.json")
        .permissions()
        .mode();
    assert_eq!(mode & 0o777, 0o600, "mode {mode:o}");
    let stored: serde_json::Value =
        serde_json::from_str(&std::fs::read_to_string(&file).unwrap()).unwrap();
    let secret = stored["resumeSecret"].as_str().expect("stored secret");
    let mut impostor = support::bridge::Bridge::start(env);
    impostor.initialize("browser-pilot-cli");
    let get = serde_json::json!({"workspaceId": workspace});
    let refused = impostor.call_err("workspaces/get", get.clone());
    assert_eq!(refused["code"], "workspace_not_found", "{refused}");
    let watch =
        serde_json::json!({"workspaceId": workspace, "resumeSecret": secret, "observe": true});
    impostor.call("workspaces/resume", watch);
    assert_eq!(
        impostor.call("workspaces/get", get)["workspaceId"],
        workspace
    );
    impostor.finish();
}

#[test]
fn human_output_and_submit() {
    let env = Env::new();
    env.launch();
    let opened = env.ok(&["open", &env.url("form.html")]);
    assert!(opened.contains("Sign in form"), "{opened}");
    let snap = env.ok(&["snapshot"]);
    assert!(
        snap.lines()
            .any(|l| l.ends_with("button \"Sign in\"") && l.starts_with('[')),
        "{snap}"
    );
    let name_line = snap
        .lines()
        .find(|l| l.contains("textbox \"Name\""))
        .unwrap_or_else(|| panic!("{snap}"));
    let name_ref = name_line
        .trim_start_matches('[')
        .split(']')
        .next()
        .unwrap_or_default()
        .to_string();

    let typed = env.ok(&["type", &name_ref, "Grace", "--submit"]);
    assert!(
        typed.starts_with(&format!("typed into [{name_ref}]: verified")),
        "{typed}"
    );
    assert!(env.ok(&["read"]).contains("Signed in as Grace"));

    let tabs = env.ok(&["tabs"]);
    assert!(
        tabs.lines()
            .any(|l| l.starts_with('*') && l.contains("managed") && l.contains("Sign in form")),
        "{tabs}"
    );
    let tabs_json = env.json(&["tabs"]);
    let current: Vec<_> = tabs_json["tabs"]
        .as_array()
        .into_iter()
        .flatten()
        .filter(|t| t["current"] == true)
        .collect();
    assert_eq!(current.len(), 1, "{tabs_json}");
}

#[test]
fn bad_input_gets_stable_codes() {
    let env = Env::new();
    // Nothing is connected yet.
    let (code, _) = env.err(&["snapshot"]);
    assert_eq!(code, "browser_disconnected");
    env.launch();
    env.open("form.html");
    env.snapshot(None);
    let (code, _) = env.err(&["click", "zero"]);
    assert_eq!(code, "invalid_argument");
    let (code, _) = env.err(&["click", "9999"]);
    assert_eq!(code, "stale_ref");
    let (code, run) = env.err(&["open", "javascript:alert(1)"]);
    assert_eq!(code, "invalid_argument", "{}", run.stderr());
    let (code, _) = env.err(&["snapshot", "--limit", "0"]);
    assert_eq!(code, "invalid_argument");
    let (code, _) = env.err(&["snapshot", "--limit", "10001"]);
    assert_eq!(code, "invalid_argument");
    let (code, _) = env.err(&["press", "Hyper+Q"]);
    assert_eq!(code, "invalid_argument");
    let (code, _) = env.err(&[
        "tool",
        "call",
        "browser.observe",
        "--input",
        "{\"bogus\": 1}",
    ]);
    assert_eq!(code, "invalid_argument");
    let (code, _) = env.err(&["tool", "call", "browser.nope"]);
    assert_eq!(code, "invalid_argument");
    let (code, _) = env.err(&["connect", "--endpoint", "http://192.0.2.1:9222"]);
    assert_eq!(code, "invalid_argument");
    // A second connect reuses the connection.
    let again = env.json(&["connect", "--launch", "--headless"]);
    assert_eq!(again["alreadyConnected"], true);
}
