//! `bp back`, `bp forward` and `bp reload` on real Chromium: each lands
//! on the page it should and waits for it to load.
#![allow(clippy::unwrap_used, clippy::expect_used)] // tests may panic

mod support;
use support::Env;

/// The load count `history.html` shows.
fn loads(env: &Env) -> u32 {
    let text = env.ok(&["read"]);
    text.lines()
        .find_map(|l| l.trim().strip_prefix("loads "))
        .and_then(|n| n.parse().ok())
        .unwrap_or_else(|| panic!("no load count in {text}"))
}

#[test]
fn back_forward_and_reload_move_through_the_tabs_history() {
    let env = Env::new();
    env.launch();
    env.open("history.html");
    assert!(env.ok(&["read"]).contains("loads 1"));
    env.open("viewport.html");
    let v = env.json(&["back"]);
    assert!(v["url"].as_str().unwrap().ends_with("/history.html"), "{v}");
    assert_eq!(v["title"], "History", "{v}");
    let v = env.json(&["forward"]);
    assert!(
        v["url"].as_str().unwrap().ends_with("/viewport.html"),
        "{v}"
    );
    let line = env.ok(&["back"]);
    assert!(
        line.starts_with("went back to ") && line.contains("History"),
        "{line}"
    );
    let before = loads(&env);
    let line = env.ok(&["reload"]);
    assert!(
        line.starts_with("reloaded ") && line.contains("/history.html"),
        "{line}"
    );
    // The page ran again: one load more.
    assert_eq!(loads(&env), before + 1);
    // Denied navigation removes all three.
    let mut denied = Env::new();
    denied.serve(&["--deny", "navigation"]);
    for cmd in ["back", "forward", "reload"] {
        let (code, _) = denied.err(&[cmd]);
        assert_eq!(code, "capability_denied", "{cmd}");
    }
}
