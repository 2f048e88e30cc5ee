//! The page area on real Chromium: a broker-launched browser opens at
//! 1280x800 CSS px unless `--window-size` says otherwise, and a bad size is
//! refused before any browser starts.
#![allow(clippy::unwrap_used, clippy::expect_used)] // tests may panic

mod support;
use support::Env;

/// The size line `viewport.html` reports about itself.
fn reported_size(env: &Env) -> String {
    let text = env.ok(&["read"]);
    text.lines()
        .find(|l| l.contains("size "))
        .unwrap_or_else(|| panic!("no size line in {text}"))
        .trim()
        .to_string()
}

#[test]
fn a_launched_browser_opens_at_a_desktop_size() {
    let env = Env::new();
    env.launch();
    env.open("viewport.html");
    assert_eq!(reported_size(&env), "size 1280x800 dpr 1");
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
    assert_eq!(reported_size(&env), "size 1024x700 dpr 1");
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
