//! `browser.state.save|load` and `bp state` on real Chromium: a sign-in
//! (a cookie and a localStorage token) saved from one launched browser
//! and loaded into a fresh one keeps the user signed in; the file is
//! owner-only and never overwritten without --force; a file that is not
//! a state, a newer version or a bad entry is refused with nothing
//! loaded; the user's own browser needs the `state.load-user` grant; the
//! capabilities and tools can be denied.
#![allow(clippy::unwrap_used, clippy::expect_used)] // tests may panic

mod support;
use serde_json::{json, Value};
use std::os::unix::fs::PermissionsExt;
use std::path::{Path, PathBuf};
use support::user_browser::UserBrowser;
use support::{find_ref, poll_for, Env, POLL_LIMIT};

/// Sign in on the fixture page as `user`.
fn sign_in(env: &Env, user: &str) {
    env.open("login.html");
    let obs = env.snapshot(None);
    env.ok(&["type", &find_ref(&obs, "textbox", "User"), user]);
    env.ok(&["click", &find_ref(&obs, "button", "Sign in")]);
    assert_eq!(status(env), format!("signed in as {user}"));
}

/// What the fixture page says of the sign-in.
fn status(env: &Env) -> String {
    env.json(&["eval", "document.getElementById('status').textContent"])["value"]
        .as_str()
        .unwrap_or_default()
        .to_string()
}

fn state_file(env: &Env, name: &str) -> PathBuf {
    env.home.join(name)
}

fn read_json(path: &Path) -> Value {
    serde_json::from_slice(&std::fs::read(path).expect("state file")).expect("JSON")
}

/// A fresh broker-launched browser in place of the current one. The
/// CLI's disconnect stops the broker too; the next command starts a new
/// one once the old one has gone (seen under load: a `connect` sent while
/// the stopping broker still accepted failed "the broker closed the
/// connection").
fn relaunch(env: &Env) {
    disconnect(env);
    env.launch();
}

/// Disconnect, and wait (bounded) until the stopped broker is gone.
fn disconnect(env: &Env) {
    env.ok(&["disconnect"]);
    support::poll_until(POLL_LIMIT, "the broker gone after disconnect", || {
        env.run(&["broker", "status"]).output.status.code() == Some(3)
    });
}

#[test]
fn a_sign_in_survives_into_a_fresh_launched_browser() {
    let env = Env::new();
    env.launch();
    sign_in(&env, "alice");
    let file = state_file(&env, "signed-in.json");
    let line = env.ok(&["state", "save", file.to_str().unwrap()]);
    assert!(line.contains("1 cookie(s)"), "{line}");
    // Owner-only, versioned, holding both halves of the sign-in.
    let mode = std::fs::metadata(&file).unwrap().permissions().mode() & 0o777;
    assert_eq!(mode, 0o600, "{mode:o}");
    let doc = read_json(&file);
    assert_eq!(doc["format"], "bp-state");
    assert_eq!(doc["version"], 1);
    let token = doc["origins"][0]["localStorage"]
        .as_array()
        .unwrap()
        .iter()
        .find(|i| i["key"] == "bp_token")
        .map(|i| i["value"].clone())
        .expect("the token saved");
    assert_eq!(doc["cookies"][0]["name"], "bp_session");
    assert_eq!(doc["cookies"][0]["value"], token);
    // Never over an existing file without --force.
    let (code, _) = env.err(&["state", "save", file.to_str().unwrap()]);
    assert_eq!(code, "invalid_argument");
    env.ok(&["state", "save", file.to_str().unwrap(), "--force"]);

    relaunch(&env);
    let v = env.json(&["state", "load", file.to_str().unwrap()]);
    assert_eq!(v["cookies"], 1, "{v}");
    assert_eq!(v["items"], 2, "{v}");
    let origin = format!("http://127.0.0.1:{}", env.server.port);
    assert_eq!(v["origins"], json!([origin]), "{v}");
    // The page the agent opens next finds the user signed in.
    env.open("login.html");
    assert_eq!(status(&env), "signed in as alice");
    // The page the broker opened to load the origin's storage is gone.
    let root = format!("{origin}/");
    let tabs = poll_for(POLL_LIMIT, "the loading page gone", || {
        let tabs = env.json(&["tabs"]);
        let gone = !tabs["tabs"]
            .as_array()
            .unwrap()
            .iter()
            .any(|t| t["url"] == root.as_str());
        gone.then_some(tabs)
    });
    let pages = tabs["tabs"].as_array().unwrap();
    assert_eq!(
        pages.iter().filter(|t| t["controlled"] == true).count(),
        1,
        "{tabs}"
    );
}

#[test]
fn bad_state_files_are_refused_with_nothing_loaded() {
    let env = Env::new();
    env.launch();
    sign_in(&env, "bob");
    let good = state_file(&env, "good.json");
    env.ok(&["state", "save", good.to_str().unwrap()]);
    let doc = read_json(&good);
    relaunch(&env);

    let not_state = state_file(&env, "notes.txt");
    std::fs::write(&not_state, "just some notes").unwrap();
    let mut newer = doc.clone();
    newer["version"] = json!(2);
    let newer_file = state_file(&env, "newer.json");
    std::fs::write(&newer_file, newer.to_string()).unwrap();
    // Good cookies, then one bad origin: the whole file is refused.
    let mut half = doc.clone();
    half["origins"]
        .as_array_mut()
        .unwrap()
        .push(json!({"origin": "not an origin", "localStorage": []}));
    let half_file = state_file(&env, "half.json");
    std::fs::write(&half_file, half.to_string()).unwrap();
    let other_json = state_file(&env, "other.json");
    std::fs::write(&other_json, r#"{"format": "something-else", "version": 1}"#).unwrap();

    for (file, says) in [
        (&not_state, "not a saved state"),
        (&other_json, "not a saved state"),
        (&newer_file, "version 2"),
        (&half_file, "origin 1"),
    ] {
        let (code, run) = env.err(&["state", "load", file.to_str().unwrap()]);
        assert_eq!(
            code,
            "invalid_argument",
            "{}: {}",
            file.display(),
            run.stderr()
        );
        assert!(run.stderr().contains(says), "{}", run.stderr());
    }
    let (code, _) = env.err(&["state", "load", "/nonexistent/state.json"]);
    assert_eq!(code, "invalid_argument");
    let r = env.run(&[
        "tool",
        "call",
        "browser.state.load",
        "--input",
        r#"{"artifactId": "art_nope"}"#,
    ]);
    assert_eq!(r.code(), "invalid_argument", "{}", r.stderr());
    assert!(r.stderr().contains("no such artifact"), "{}", r.stderr());
    // Nothing of the good cookies or storage reached the browser.
    env.open("login.html");
    assert_eq!(status(&env), "signed out");
    assert_eq!(env.json(&["cookies"])["cookies"], json!([]));
    assert_eq!(env.json(&["storage", "get"])["total"], 0);
}

#[test]
fn the_users_own_browser_takes_a_state_only_with_the_grant() {
    let env = Env::new();
    env.launch();
    sign_in(&env, "carol");
    let file = state_file(&env, "carol.json");
    env.ok(&["state", "save", file.to_str().unwrap()]);
    disconnect(&env);

    let user = UserBrowser::start("state", "about:blank");
    env.ok(&["connect", "--endpoint", &user.endpoint()]);
    let (code, run) = env.err(&["state", "load", file.to_str().unwrap()]);
    assert_eq!(code, "capability_denied", "{}", run.stderr());
    assert!(run.stderr().contains("state.load-user"), "{}", run.stderr());
    // Nothing was loaded: the user's browser has no cookie of the page.
    env.open("login.html");
    assert_eq!(status(&env), "signed out");
    env.ok(&["close", "--all"]);
    // Asked for, the grant lets it in.
    let v = env.json(&[
        "state",
        "load",
        file.to_str().unwrap(),
        "--into-own-browser",
    ]);
    assert_eq!(v["cookies"], 1, "{v}");
    env.open("login.html");
    let signed_in = poll_for(POLL_LIMIT, "the page signed in", || {
        let s = status(&env);
        (s == "signed in as carol").then_some(s)
    });
    assert_eq!(signed_in, "signed in as carol");
    // Saved from the user's own browser: the cookies this CLI's tab would
    // be sent, and its origin's storage.
    let again = state_file(&env, "carol-again.json");
    env.ok(&["state", "save", again.to_str().unwrap()]);
    let doc = read_json(&again);
    let names: Vec<&str> = doc["cookies"]
        .as_array()
        .unwrap()
        .iter()
        .filter_map(|c| c["name"].as_str())
        .collect();
    assert_eq!(names, ["bp_session"], "{doc}");
    assert_eq!(
        doc["origins"][0]["localStorage"].as_array().unwrap().len(),
        2
    );
    env.ok(&["close", "--all"]);
    env.ok(&["disconnect"]);
}

#[test]
fn denying_the_state_capabilities_or_tools_removes_them() {
    for cap in ["state-save", "state-load"] {
        let mut env = Env::new();
        env.serve(&["--deny", cap]);
        let names = env.tool_names();
        for tool in ["browser.state.save", "browser.state.load"] {
            assert!(!names.iter().any(|n| n == tool), "{cap}: {names:?}");
        }
        assert!(
            names.iter().any(|n| n == "browser.storage.get"),
            "{names:?}"
        );
        let file = env.home.join("s.json");
        let (code, _) = env.err(&["state", "save", file.to_str().unwrap()]);
        assert_eq!(code, "capability_denied", "{cap}");
        assert!(!file.exists());
    }
    let mut env = Env::new();
    env.serve(&["--deny-tool", "browser.state.load"]);
    let names = env.tool_names();
    assert!(
        !names.iter().any(|n| n == "browser.state.load"),
        "{names:?}"
    );
    assert!(names.iter().any(|n| n == "browser.state.save"), "{names:?}");
    env.launch();
    env.open("login.html");
    let file = env.home.join("s.json");
    env.ok(&["state", "save", file.to_str().unwrap()]);
    let (code, _) = env.err(&["state", "load", file.to_str().unwrap()]);
    assert_eq!(code, "capability_denied");
}
