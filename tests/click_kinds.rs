//! `bp click --double` and `--right` (issue 56, item 7): the page gets a
//! real double click and a real context-menu press, and nothing else.
#![allow(clippy::unwrap_used, clippy::expect_used)] // tests may panic

mod support;
use support::{find_ref, Env};

fn log(env: &Env) -> String {
    let out = env.ok(&["eval", "document.getElementById('log').textContent"]);
    out.trim().trim_matches('"').to_string()
}

#[test]
fn double_and_right_clicks_reach_the_page_as_such() {
    let env = Env::new();
    env.launch();
    env.open("clicks.html");
    let obs = env.snapshot(None);
    let target = find_ref(&obs, "button", "Target");
    env.ok(&["click", &target, "--double"]);
    assert_eq!(log(&env), "click click dblclick");
    env.ok(&["click", &target, "--right"]);
    assert_eq!(log(&env), "click click dblclick contextmenu");
    // A synthetic DOM click cannot be a double or right click: the
    // command line refuses it (usage, exit 2) and nothing is clicked.
    let run = env.run(&["click", &target, "--right", "--dom-event"]);
    assert_eq!(run.output.status.code(), Some(2), "{}", run.stderr());
    assert_eq!(log(&env), "click click dblclick contextmenu");
}
