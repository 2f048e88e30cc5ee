//! `browser.scroll` on real Chromium: the page scrolls and reports its
//! offsets and its bottom edge, a virtualized container scrolled by a real
//! wheel renders later rows, an infinite list reports the content it grew,
//! an element comes into view, bad input is refused with nothing moved,
//! `bp scroll` takes each motion, and `--deny page-scroll`
//! removes the tool.
#![allow(clippy::unwrap_used, clippy::expect_used)] // tests may panic

mod support;
use serde_json::{json, Value};
use support::{find_ref, Env};

/// `browser.scroll` with `input`, through `bp tool call`.
fn scroll(env: &Env, input: Value) -> Value {
    env.tool_call("browser.scroll", &input)
}

fn y(v: &Value, which: &str) -> f64 {
    v[which]["y"]
        .as_f64()
        .unwrap_or_else(|| panic!("no {which}.y in {v}"))
}

fn ref_number(r: &str) -> u64 {
    r.parse().expect("a numeric ref")
}

#[test]
fn the_page_scrolls_and_reports_offsets_and_its_bottom_edge() {
    let env = Env::new();
    env.launch();
    env.open("scroll.html");
    let v = scroll(&env, json!({"direction": "down", "amount": 500}));
    assert_eq!(v["route"], "page", "{v}");
    assert_eq!(v["scrolled"], "page", "{v}");
    assert_eq!(y(&v, "before"), 0.0, "{v}");
    assert_eq!(y(&v, "after"), 500.0, "{v}");
    assert_eq!(v["atEdge"], false, "{v}");
    let v = scroll(&env, json!({"direction": "up", "amount": 1000}));
    assert_eq!(y(&v, "after"), 0.0, "{v}");
    assert_eq!(v["atEdge"], true, "{v}");
    let v = scroll(&env, json!({"to": "bottom"}));
    assert!(y(&v, "after") > 2500.0, "{v}");
    assert_eq!(v["atEdge"], true, "{v}");
    // At the bottom nothing moves further.
    let v = scroll(&env, json!({"direction": "down"}));
    assert_eq!(y(&v, "before"), y(&v, "after"), "{v}");
    assert_eq!(v["atEdge"], true, "{v}");
}

#[test]
fn a_wheel_on_a_virtualized_list_renders_later_rows() {
    let env = Env::new();
    env.launch();
    env.open("scroll.html");
    let obs = env.snapshot(None);
    let rows = find_ref(&obs, "listbox", "Rows");
    assert!(!env.ok(&["read"]).contains("Row 120"));
    let v = scroll(
        &env,
        json!({"ref": ref_number(&rows), "direction": "down", "amount": 2400}),
    );
    // A real wheel; on a renderer too busy to move within the wheel's
    // wait, script finishes the step, to where it ends: a late wheel is
    // never doubled (seen once under load: 4,800 px for a 2,400 px step).
    let route = v["route"].as_str().unwrap_or_default();
    assert!(route == "wheel" || route == "script", "{v}");
    assert_eq!(v["scrolled"], "element", "{v}");
    assert_eq!(y(&v, "before"), 0.0, "{v}");
    assert!((2000.0..=2400.0).contains(&y(&v, "after")), "{v}");
    assert_eq!(v["atEdge"], false, "{v}");
    let text = env.ok(&["read"]);
    assert!(text.contains("Row 120"), "{text}");
    // To the bottom of the 2,000 rows.
    let v = scroll(&env, json!({"ref": ref_number(&rows), "to": "bottom"}));
    assert_eq!(v["atEdge"], true, "{v}");
    assert!(env.ok(&["read"]).contains("Row 1999"));
}

#[test]
fn an_infinite_list_reports_the_content_it_grew() {
    let env = Env::new();
    env.launch();
    env.open("scroll.html");
    let obs = env.snapshot(None);
    let feed = ref_number(&find_ref(&obs, "listbox", "Feed"));
    let v = scroll(
        &env,
        json!({"ref": feed, "direction": "down", "amount": 100}),
    );
    assert_eq!(v["contentGrew"], false, "{v}");
    let v = scroll(
        &env,
        json!({"ref": feed, "direction": "down", "amount": 1000}),
    );
    assert_eq!(v["contentGrew"], true, "{v}");
    // More came: the list is no longer at its edge.
    assert_eq!(v["atEdge"], false, "{v}");
    assert!(env.ok(&["read"]).contains("Item 40"));
}

#[test]
fn an_element_comes_into_view() {
    let env = Env::new();
    env.launch();
    env.open("scroll.html");
    let obs = env.snapshot(None);
    let bottom = ref_number(&find_ref(&obs, "button", "Bottom button"));
    let v = scroll(&env, json!({"ref": bottom, "intoView": true}));
    assert_eq!(v["route"], "intoView", "{v}");
    assert_eq!(y(&v, "before"), 0.0, "{v}");
    assert!(y(&v, "after") > 2500.0, "{v}");
}

#[test]
fn bad_input_is_refused_and_nothing_moves() {
    let env = Env::new();
    env.launch();
    env.open("scroll.html");
    let obs = env.snapshot(None);
    let plain = ref_number(&find_ref(&obs, "button", "Plain button"));
    let input = |v: Value| v.to_string();
    let cases = [
        input(json!({"ref": plain, "direction": "down"})),
        input(json!({"to": "top", "direction": "down"})),
        input(json!({"intoView": true})),
        input(json!({"amount": 10})),
        input(json!({"direction": "sideways"})),
        input(json!({})),
    ];
    for case in &cases {
        let (code, run) = env.err(&["tool", "call", "browser.scroll", "--input", case]);
        assert_eq!(code, "invalid_argument", "{case}: {}", run.stderr());
    }
    let (_, run) = env.err(&["tool", "call", "browser.scroll", "--input", &cases[0]]);
    assert!(run.stderr().contains("does not scroll"), "{}", run.stderr());
    // Nothing moved: the page is still at its top.
    let v = scroll(&env, json!({"direction": "up", "amount": 1}));
    assert_eq!(y(&v, "before"), 0.0, "{v}");
}

#[test]
fn denying_page_scroll_removes_the_tool() {
    let mut env = Env::new();
    env.serve(&["--deny", "page-scroll"]);
    let names = env.tool_names();
    assert!(!names.iter().any(|n| n == "browser.scroll"), "{names:?}");
    assert!(names.iter().any(|n| n == "browser.wait"), "{names:?}");
}

#[test]
fn bp_scroll_takes_each_motion_from_the_command_line() {
    let env = Env::new();
    env.launch();
    env.open("scroll.html");
    let v = env.json(&["scroll", "--by", "300"]);
    assert_eq!(y(&v, "after"), 300.0, "{v}");
    let v = env.json(&["scroll", "--by", "-100"]);
    assert_eq!(y(&v, "after"), 200.0, "{v}");
    let v = env.json(&["scroll", "--up", "--amount", "50"]);
    assert_eq!(y(&v, "after"), 150.0, "{v}");
    let line = env.ok(&["scroll", "--to", "bottom"]);
    assert!(line.contains("at the edge"), "{line}");
    let v = env.json(&["scroll", "--to", "top"]);
    assert_eq!(y(&v, "after"), 0.0, "{v}");
    let obs = env.snapshot(None);
    let rows = find_ref(&obs, "listbox", "Rows");
    let v = env.json(&["scroll", &rows, "--down", "--amount", "2400"]);
    assert_eq!(v["route"], "wheel", "{v}");
    assert!(env.ok(&["read"]).contains("Row 120"));
    let bottom = find_ref(&obs, "button", "Bottom button");
    let v = env.json(&["scroll", &bottom, "--into-view"]);
    assert_eq!(v["route"], "intoView", "{v}");
    // The command line refuses two motions, or into-view without a ref.
    for bad in [
        &["scroll", "--up", "--down"][..],
        &["scroll", "--into-view"][..],
        &["scroll"][..],
    ] {
        let run = env.run(bad);
        assert_eq!(
            run.output.status.code(),
            Some(2),
            "{bad:?}: {}",
            run.stderr()
        );
    }
    let plain = find_ref(&obs, "button", "Plain button");
    let (code, _) = env.err(&["scroll", &plain, "--down"]);
    assert_eq!(code, "invalid_argument");
}

#[test]
fn denying_the_tool_alone_removes_it() {
    let mut env = Env::new();
    env.serve(&["--deny-tool", "browser.scroll"]);
    let names = env.tool_names();
    assert!(!names.iter().any(|n| n == "browser.scroll"), "{names:?}");
    assert!(names.iter().any(|n| n == "browser.wait"), "{names:?}");
    let (code, _) = env.err(&["scroll", "--down"]);
    assert_eq!(code, "capability_denied");
}

/// Lazy content that comes from the server (a request answered 300 ms
/// after the scroll) is waited for, bounded: the scroll's read-back waits
/// for the requests it started, not a fixed time.
#[test]
fn a_feed_that_loads_from_the_server_reports_the_content_it_grew() {
    let env = Env::new();
    env.launch();
    env.open("lazy.html");
    let obs = env.snapshot(None);
    let feed = ref_number(&find_ref(&obs, "listbox", "Remote feed"));
    let v = scroll(
        &env,
        json!({"ref": feed, "direction": "down", "amount": 1000}),
    );
    assert_eq!(v["contentGrew"], true, "{v}");
    assert_eq!(v["atEdge"], false, "{v}");
    assert!(env.ok(&["read"]).contains("Item 40"));
}
