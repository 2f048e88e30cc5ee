//! A persistent profile of the agent's own (`bp connect --launch
//! --profile DIR`): owner-only, held by one broker at a time, and a cookie
//! set in one session is still there after a disconnect and a relaunch.
#![allow(clippy::unwrap_used, clippy::expect_used)] // tests may panic

mod support;
use serde_json::{json, Value};
use std::os::unix::fs::PermissionsExt;
use support::Env;

fn cookie_names(env: &Env) -> Vec<String> {
    let v = env.json(&["cookies"]);
    v["cookies"]
        .as_array()
        .into_iter()
        .flatten()
        .filter_map(|c| c["name"].as_str().map(str::to_string))
        .collect()
}

fn now_secs() -> f64 {
    std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)
        .unwrap()
        .as_secs_f64()
}

#[test]
fn a_cookie_outlives_the_browser_on_a_persistent_profile() {
    let env = Env::new();
    let dir = env.home.join("my-profile");
    let dir_s = dir.display().to_string();
    let connect = ["connect", "--launch", "--headless", "--profile", &dir_s];
    let v = env.json(&connect);
    assert_eq!(v["connection"]["profile"], dir_s.as_str(), "{v}");
    let mode = std::fs::metadata(&dir).unwrap().permissions().mode() & 0o777;
    assert_eq!(mode, 0o700);
    env.open("index.html");
    let expires = now_secs() + 3600.0;
    let set = env.tool_call(
        "browser.cookies.set",
        &json!({"cookies": [{"name": "kept", "value": "across-launches", "expires": expires}]}),
    );
    assert_eq!(set["set"], 1, "{set}");
    env.ok(&["disconnect"]);
    // The profile stays; the next launch on it has the cookie.
    assert!(dir.join("Default").exists(), "the profile was removed");
    env.ok(&connect);
    env.open("index.html");
    assert!(
        cookie_names(&env).contains(&"kept".to_string()),
        "the cookie did not survive the relaunch"
    );
    env.ok(&["disconnect"]);
    // A throwaway profile keeps nothing.
    env.launch();
    env.open("index.html");
    assert!(!cookie_names(&env).contains(&"kept".to_string()));
    env.ok(&["disconnect"]);
}

#[test]
fn a_second_broker_cannot_launch_on_a_held_profile() {
    let first = Env::new();
    let second = Env::new();
    let dir = first.home.join("shared-profile").display().to_string();
    first.ok(&["connect", "--launch", "--headless", "--profile", &dir]);
    let (code, run) = second.err(&["connect", "--launch", "--headless", "--profile", &dir]);
    assert_eq!(code, "broker_in_use", "{}", run.stderr());
    assert!(run.stderr().contains("in use"), "{}", run.stderr());
    first.ok(&["disconnect"]);
    second.ok(&["connect", "--launch", "--headless", "--profile", &dir]);
    second.ok(&["disconnect"]);
}

#[test]
fn the_default_profile_lives_in_the_home_and_bad_input_is_refused() {
    let env = Env::new();
    // Bad input first: it changes nothing.
    let (code, _) = env.err(&["connect", "--profile", "/tmp/x"]);
    assert_eq!(code, "invalid_argument");
    let (code, _) = env.err(&[
        "tool",
        "call",
        "browser.connect",
        "--input",
        r#"{"launch": {"profile": "relative/dir"}}"#,
    ]);
    assert_eq!(code, "invalid_argument");
    assert!(!env.home.join("relative").exists());
    let v: Value = env.json(&["connect", "--launch", "--headless", "--profile"]);
    let default = env.home.join("profiles").join("default");
    assert_eq!(
        v["connection"]["profile"],
        default.display().to_string().as_str(),
        "{v}"
    );
    assert!(default.join("bp-broker.lock").exists());
    env.ok(&["disconnect"]);
    assert!(default.exists(), "the default profile was removed");
}
