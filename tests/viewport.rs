//! The page area on real Chromium: a broker-launched browser opens at
//! 1280x800 CSS px unless `--window-size` says otherwise, and a bad size is
//! refused before any browser starts; `browser.viewport` and
//! `browser.emulate` change the size and media features with the page's
//! own read-back as evidence, refuse bad input with nothing changed, are
//! removed by `--deny emulation` and `--deny-tool`, and their overrides
//! on a user's own tab go when the workspace lets go of it.
#![allow(clippy::unwrap_used, clippy::expect_used)] // tests may panic

mod support;
use serde_json::{json, Value};
use support::user_browser::UserBrowser;
use support::{Env, POLL_LIMIT};

/// Wait (bounded) until the page's line starting with `prefix` reads
/// `want`; fails with the last line read.
fn reports(env: &Env, prefix: &str, want: &str) {
    let started = std::time::Instant::now();
    loop {
        let text = env.ok(&["read"]);
        let line = text.lines().map(str::trim).find(|l| l.starts_with(prefix));
        if line == Some(want) {
            return;
        }
        assert!(
            started.elapsed() < POLL_LIMIT,
            "the page reports {line:?}, not `{want}`, after {} s",
            POLL_LIMIT.as_secs()
        );
        std::thread::sleep(std::time::Duration::from_millis(50));
    }
}

/// The media line `viewport.html` reports about itself.
fn reported_media(env: &Env) -> String {
    let text = env.ok(&["read"]);
    text.lines()
        .find(|l| l.contains("scheme "))
        .unwrap_or_else(|| panic!("no media line in {text}"))
        .trim()
        .to_string()
}

/// `bp tool call NAME --input INPUT`, its result.
fn call(env: &Env, name: &str, input: Value) -> Value {
    env.tool_call(name, &input)
}

/// The size line `viewport.html` reports about itself.
/// A user's tab may still be loading when it is taken: its text is read
/// again (bounded) until the line is there.
fn reported_size(env: &Env) -> String {
    support::poll_for(support::POLL_LIMIT, "the page's size line", || {
        let text = env.ok(&["read"]);
        text.lines()
            .find(|l| l.contains("size "))
            .map(|l| l.trim().to_string())
    })
}

#[test]
fn a_launched_browser_opens_at_a_desktop_size() {
    let env = Env::new();
    env.launch();
    env.open("viewport.html");
    reports(&env, "size ", "size 1280x800 dpr 1");
}

#[test]
fn window_size_sets_the_launched_page_area() {
    let env = Env::new();
    env.ok(&[
        "connect",
        "--launch",
        "--headless",
        "--window-size",
        "1024,700",
    ]);
    env.open("viewport.html");
    reports(&env, "size ", "size 1024x700 dpr 1");
}

#[test]
fn a_bad_window_size_is_refused_and_nothing_starts() {
    let env = Env::new();
    for bad in ["0,800", "100000,800", "1280", "wide,tall"] {
        let (code, run) = env.err(&["connect", "--launch", "--headless", "--window-size", bad]);
        assert_eq!(code, "invalid_argument", "{bad}: {}", run.stderr());
    }
    for bad in [
        r#"{"launch": {"windowSize": {"width": 0, "height": 800}}}"#,
        r#"{"launch": {"windowSize": {"width": 100000, "height": 100000}}}"#,
        r#"{"launch": {"windowSize": "1280,800"}}"#,
    ] {
        let (code, run) = env.err(&["tool", "call", "browser.connect", "--input", bad]);
        assert_eq!(code, "invalid_argument", "{bad}: {}", run.stderr());
    }
    // No browser was started by any of them.
    let (code, _) = env.err(&["open", &env.url("viewport.html")]);
    assert_ne!(code, "", "a page opened without a browser");
    // --window-size belongs to --launch.
    let (code, _) = env.err(&["connect", "--window-size", "800,600"]);
    assert_eq!(code, "invalid_argument");
}

#[test]
fn bp_viewport_sets_the_size_the_page_reports_and_resets_it() {
    let env = Env::new();
    env.launch();
    env.open("viewport.html");
    let v = env.json(&["viewport", "1000x700"]);
    assert_eq!(
        (v["innerWidth"].as_u64(), v["innerHeight"].as_u64()),
        (Some(1000), Some(700)),
        "{v}"
    );
    reports(&env, "size ", "size 1000x700 dpr 1");
    let v = env.json(&["viewport", "800x600", "--scale", "2"]);
    assert_eq!(v["devicePixelRatio"], 2.0, "{v}");
    reports(&env, "size ", "size 800x600 dpr 2");
    let line = env.ok(&["viewport", "375x667", "--mobile", "--scale", "3"]);
    assert!(line.contains("375x667"), "{line}");
    let line = env.ok(&["viewport", "--reset"]);
    assert!(line.contains("1280x800"), "{line}");
    reports(&env, "size ", "size 1280x800 dpr 1");
}

#[test]
fn bp_emulate_sets_media_features_the_page_reads_back() {
    let env = Env::new();
    env.launch();
    env.open("viewport.html");
    reports(&env, "scheme ", "scheme light motion normal");
    let v = env.json(&[
        "emulate",
        "--color-scheme",
        "dark",
        "--reduced-motion",
        "reduce",
    ]);
    assert_eq!(v["colorScheme"], "dark", "{v}");
    assert_eq!(v["reducedMotion"], "reduce", "{v}");
    reports(&env, "scheme ", "scheme dark motion reduce");
    // A feature left out is no longer emulated.
    let v = call(&env, "browser.emulate", json!({"colorScheme": "light"}));
    assert_eq!(v["colorScheme"], "light", "{v}");
    assert_eq!(v["reducedMotion"], "no-preference", "{v}");
    reports(&env, "scheme ", "scheme light motion normal");
}

#[test]
fn bad_viewport_input_is_refused_and_nothing_changes() {
    let env = Env::new();
    env.launch();
    env.open("viewport.html");
    for bad in ["0x800", "100000x100000", "10001x10", "wide", "12x"] {
        let (code, run) = env.err(&["viewport", bad]);
        assert_eq!(code, "invalid_argument", "{bad}: {}", run.stderr());
    }
    for bad in [
        json!({"width": 0, "height": 800}),
        json!({"width": 100000, "height": 100000}),
        json!({"width": 800}),
        json!({"width": 800, "height": 600, "deviceScaleFactor": 9}),
        json!({"reset": true, "width": 800, "height": 600}),
        json!({"width": 800, "height": 600, "zoom": 2}),
    ] {
        let input = bad.to_string();
        let (code, run) = env.err(&["tool", "call", "browser.viewport", "--input", &input]);
        assert_eq!(code, "invalid_argument", "{bad}: {}", run.stderr());
    }
    for bad in [
        json!({"colorScheme": "sepia"}),
        json!({"reducedMotion": true}),
    ] {
        let input = bad.to_string();
        let (code, run) = env.err(&["tool", "call", "browser.emulate", "--input", &input]);
        assert_eq!(code, "invalid_argument", "{bad}: {}", run.stderr());
    }
    // Nothing changed.
    assert_eq!(reported_size(&env), "size 1280x800 dpr 1");
    assert_eq!(reported_media(&env), "scheme light motion normal");
}

#[test]
fn denying_emulation_removes_both_tools() {
    let mut env = Env::new();
    env.serve(&["--deny", "emulation"]);
    let names = env.tool_names();
    assert!(!names.iter().any(|n| n == "browser.viewport"), "{names:?}");
    assert!(!names.iter().any(|n| n == "browser.emulate"), "{names:?}");
    assert!(names.iter().any(|n| n == "browser.scroll"), "{names:?}");
    let (code, _) = env.err(&["viewport", "800x600"]);
    assert_eq!(code, "capability_denied");
    // The agents guide leaves out what cannot be used.
    let guide = env.ok(&["help", "agents"]);
    assert!(!guide.contains("bp viewport"), "{guide}");
}

#[test]
fn denying_the_viewport_tool_alone_keeps_emulate() {
    let mut env = Env::new();
    env.serve(&["--deny-tool", "browser.viewport"]);
    let names = env.tool_names();
    assert!(!names.iter().any(|n| n == "browser.viewport"), "{names:?}");
    assert!(names.iter().any(|n| n == "browser.emulate"), "{names:?}");
    let guide = env.ok(&["help", "agents"]);
    assert!(guide.contains("bp emulate"), "{guide}");
    let (code, _) = env.err(&["viewport", "--reset"]);
    assert_eq!(code, "capability_denied");
}

/// The public ID of the user's tab showing `page`.
fn user_tab(env: &Env, page: &str) -> String {
    let tabs = env.json(&["tabs"]);
    tabs["tabs"]
        .as_array()
        .unwrap()
        .iter()
        .find(|t| t["url"].as_str().is_some_and(|u| u.ends_with(page)))
        .and_then(|t| t["targetId"].as_str())
        .unwrap_or_else(|| panic!("no tab at {page}: {tabs}"))
        .to_string()
}

#[test]
fn overrides_on_a_users_tab_go_when_the_workspace_releases_it() {
    let env = Env::new();
    let user = UserBrowser::start("viewport", &env.url("viewport.html"));
    env.ok(&["connect", "--endpoint", &user.endpoint()]);
    let tab = user_tab(&env, "viewport.html");
    env.ok(&["tab", &tab]);
    let own = reported_size(&env);
    assert_ne!(own, "size 640x480 dpr 1");
    env.ok(&["viewport", "640x480"]);
    env.ok(&["emulate", "--color-scheme", "dark"]);
    reports(&env, "size ", "size 640x480 dpr 1");
    reports(&env, "scheme ", "scheme dark motion normal");
    let input = json!({"targetId": tab}).to_string();
    let v = env.json(&["tool", "call", "browser.tabs.release", "--input", &input]);
    assert_eq!(v["controlledByThisLease"], false, "{v}");
    // Taken again: the user's own size and scheme are back.
    env.ok(&["tab", &tab]);
    reports(&env, "size ", &own);
    reports(&env, "scheme ", "scheme light motion normal");
}
