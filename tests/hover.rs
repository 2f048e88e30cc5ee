//! `browser.hover` on real Chromium: a CSS :hover menu reveals its submenu
//! step by step and `bp click` then clicks the revealed item, a
//! mouseenter menu reports aria-expanded, `--at` hovers a viewport point
//! and names what is there, an off-screen point and a covered element are
//! refused with nothing moved, and `--deny pointer` / `--deny-tool
//! browser.hover` remove the tool.
#![allow(clippy::unwrap_used, clippy::expect_used)] // tests may panic

mod support;
use serde_json::Value;
use support::{find_ref, Env};

fn names(v: &Value) -> Vec<String> {
    v["appeared"]["names"]
        .as_array()
        .into_iter()
        .flatten()
        .filter_map(|n| n.as_str().map(str::to_string))
        .collect()
}

fn has(obs: &Value, name: &str) -> bool {
    obs["elements"]
        .as_array()
        .into_iter()
        .flatten()
        .any(|e| e["name"] == name)
}

#[test]
fn hover_reveals_a_submenu_item_that_click_then_clicks() {
    let env = Env::new();
    env.launch();
    env.open("pointer.html");
    let obs = env.snapshot(None);
    assert!(!has(&obs, "Hardware"), "hidden before the hover: {obs}");
    let products = find_ref(&obs, "menuitem", "Products");
    let v = env.json(&["hover", &products]);
    assert_eq!(v["hovered"], "element", "{v}");
    assert_eq!(v["under"]["name"], "Products", "{v}");
    assert!(v["appeared"]["count"].as_u64().unwrap() > 0, "{v}");
    assert!(names(&v).contains(&"Hardware".to_string()), "{v}");
    // The pointer stays: the submenu is still open for the next step.
    let obs = env.snapshot(None);
    let hardware = find_ref(&obs, "menuitem", "Hardware");
    assert!(!has(&obs, "Keyboards"), "{obs}");
    let v = env.json(&["hover", &hardware]);
    assert!(names(&v).contains(&"Keyboards".to_string()), "{v}");
    let obs = env.snapshot(None);
    let keyboards = find_ref(&obs, "menuitem", "Keyboards");
    env.ok(&["click", &keyboards]);
    let text = env.ok(&["read"]);
    assert!(text.contains("chose Keyboards"), "{text}");
}

#[test]
fn a_menu_rendered_in_a_portal_after_thousands_of_elements_is_seen() {
    let env = Env::new();
    env.launch();
    env.open("pointer_portal.html");
    let obs = env.snapshot(None);
    let options = find_ref(&obs, "button", "Options");
    let v = env.json(&["hover", &options]);
    assert!(names(&v).contains(&"Rename".to_string()), "{v}");
    assert!(names(&v).contains(&"Delete".to_string()), "{v}");
}

#[test]
fn a_mouseenter_menu_reports_that_it_expanded() {
    let env = Env::new();
    env.launch();
    env.open("pointer.html");
    let obs = env.snapshot(None);
    let account = find_ref(&obs, "button", "Account");
    let v = env.json(&["hover", &account]);
    assert_eq!(v["expandedChanged"], true, "{v}");
    assert_eq!(v["expanded"], "true", "{v}");
    assert!(names(&v).contains(&"Sign out".to_string()), "{v}");
    // Hovering it again changes nothing more.
    let v = env.json(&["hover", &account]);
    assert_eq!(v["expandedChanged"], false, "{v}");
    assert_eq!(v["appeared"]["count"], 0, "{v}");
}

#[test]
fn hover_at_a_point_names_the_element_found_there() {
    let env = Env::new();
    env.launch();
    env.open("pointer.html");
    // The Account button is at 420..540 x 10..40 CSS pixels.
    let v = env.json(&["hover", "--at", "480,25"]);
    assert_eq!(v["hovered"], "point", "{v}");
    assert_eq!(v["under"]["role"], "button", "{v}");
    assert_eq!(v["under"]["name"], "Account", "{v}");
    assert_eq!(v["expandedChanged"], true, "{v}");
    assert!(has(&env.snapshot(None), "Sign out"));
    // An empty spot: the page itself, unnamed (not all its text), and
    // the menu the pointer left is not this point's expansion.
    let v = env.json(&["hover", "--at", "700,300"]);
    assert_eq!(v["under"]["name"], "", "{v}");
    assert_eq!(v["expandedChanged"], false, "{v}");
    assert!(!has(&env.snapshot(None), "Sign out"));
}

#[test]
fn an_off_screen_point_is_refused_and_nothing_moves() {
    let env = Env::new();
    env.launch();
    env.open("pointer.html");
    env.json(&["hover", "--at", "480,25"]);
    for at in ["5000,20", "20,5000", "-1,20"] {
        let (code, run) = env.err(&["hover", "--at", at]);
        assert_eq!(code, "invalid_argument", "{at}: {}", run.stderr());
        assert!(
            run.stderr().contains("outside the viewport"),
            "{}",
            run.stderr()
        );
    }
    // The pointer did not leave the Account menu: it is still open.
    assert!(has(&env.snapshot(None), "Sign out"));
    let (code, _) = env.err(&["hover", "--at", "12"]);
    assert_eq!(code, "invalid_argument");
    for input in [
        r#"{}"#,
        r#"{"at": {"x": 1}}"#,
        r#"{"at": {"x": 1, "y": 2, "z": 3}}"#,
        r#"{"observationId": "o"}"#,
        r#"{"observationId": "o", "ref": 1, "at": {"x": 1, "y": 1}}"#,
    ] {
        let (code, run) = env.err(&["tool", "call", "browser.hover", "--input", input]);
        assert_eq!(code, "invalid_argument", "{input}: {}", run.stderr());
    }
}

#[test]
fn a_covered_element_is_refused_naming_the_cover() {
    let env = Env::new();
    // A window small enough that the page scrolls to reach the element.
    env.ok(&[
        "connect",
        "--launch",
        "--headless",
        "--window-size",
        "780,493",
    ]);
    env.open("pointer.html");
    let obs = env.snapshot(None);
    let hidden = find_ref(&obs, "button", "Hidden action");
    let (code, run) = env.err(&["hover", &hidden]);
    assert_eq!(code, "action_not_verified", "{}", run.stderr());
    assert!(run.stderr().contains("covered"), "{}", run.stderr());
    // The page scrolled to bring it into view: aim and `at` still work
    // in viewport coordinates there.
    let scrolled = env.json(&["scroll", "--by", "1"]);
    assert!(
        scrolled["before"]["y"].as_f64().unwrap() > 0.0,
        "{scrolled}"
    );
    let brightness = find_ref(&obs, "slider", "Brightness");
    let v = env.json(&["hover", &brightness]);
    assert_eq!(v["under"]["name"], "Brightness", "{v}");
    let at = format!("{},{}", v["at"]["x"], v["at"]["y"]);
    let v = env.json(&["hover", "--at", &at]);
    assert_eq!(v["under"]["name"], "Brightness", "{v}");
}

#[test]
fn denying_pointer_removes_hover_and_drag() {
    let mut env = Env::new();
    env.serve(&["--deny", "pointer"]);
    let names = env.tool_names();
    assert!(!names.iter().any(|n| n == "browser.hover"), "{names:?}");
    assert!(!names.iter().any(|n| n == "browser.drag"), "{names:?}");
    assert!(names.iter().any(|n| n == "browser.click"), "{names:?}");
    let guide = env.ok(&["help", "agents"]);
    assert!(!guide.contains("## Hover menus"), "{guide}");
    assert!(
        !guide.contains("bp hover") && !guide.contains("bp drag"),
        "{guide}"
    );
}

#[test]
fn denying_the_hover_tool_alone_removes_it() {
    let mut env = Env::new();
    env.serve(&["--deny-tool", "browser.hover"]);
    let names = env.tool_names();
    assert!(!names.iter().any(|n| n == "browser.hover"), "{names:?}");
    assert!(names.iter().any(|n| n == "browser.drag"), "{names:?}");
    let (code, _) = env.err(&["hover", "--at", "1,1"]);
    assert_eq!(code, "capability_denied");
    // The guide keeps the drag and leaves out the hover.
    let guide = env.ok(&["help", "agents"]);
    assert!(!guide.contains("bp hover 4"), "{guide}");
    assert!(guide.contains("bp drag 7 9"), "{guide}");
}

#[test]
fn bp_mcp_lists_hover_and_drag_as_acting_tools() {
    use std::io::{BufRead, Write};
    use std::process::{Command, Stdio};
    let env = Env::new();
    let mut child = Command::new(support::bp_exe())
        .arg("mcp")
        .env("BROWSER_PILOT_HOME", &env.home)
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::null())
        .spawn()
        .expect("spawn bp mcp");
    let mut stdin = child.stdin.take().unwrap();
    let stdout = child.stdout.take().unwrap();
    let (tx, rx) = std::sync::mpsc::channel();
    std::thread::spawn(move || {
        for line in std::io::BufReader::new(stdout)
            .lines()
            .map_while(Result::ok)
        {
            if tx.send(line).is_err() {
                break;
            }
        }
    });
    let init = r#"{"jsonrpc":"2.0","id":1,"method":"initialize","params":{"protocolVersion":"2025-06-18","capabilities":{},"clientInfo":{"name":"t","version":"1"}}}"#;
    let list = r#"{"jsonrpc":"2.0","id":2,"method":"tools/list","params":{}}"#;
    writeln!(stdin, "{init}").unwrap();
    writeln!(
        stdin,
        r#"{{"jsonrpc":"2.0","method":"notifications/initialized"}}"#
    )
    .unwrap();
    writeln!(stdin, "{list}").unwrap();
    stdin.flush().unwrap();
    let deadline = std::time::Instant::now() + support::POLL_LIMIT;
    let tools = loop {
        let left = deadline.saturating_duration_since(std::time::Instant::now());
        let line = rx
            .recv_timeout(left)
            .expect("bp mcp answered tools/list in time");
        let v: Value = serde_json::from_str(&line).unwrap_or_default();
        if v["id"] == 2 {
            break v["result"]["tools"].clone();
        }
    };
    drop(stdin);
    let _ = child.kill();
    let _ = child.wait();
    for name in ["browser_hover", "browser_drag"] {
        let tool = tools
            .as_array()
            .into_iter()
            .flatten()
            .find(|t| t["name"] == name)
            .unwrap_or_else(|| panic!("no {name} in {tools}"));
        assert_eq!(tool["annotations"]["readOnlyHint"], false, "{tool}");
    }
}

/// A hover waits, as a click does, for its target to be reachable: a
/// layer that covers the page for a moment is waited out (armed five times
/// as long, 1.5 s: still there when the hover starts, gone well within the
/// hover's 2 s wait), and a
/// disabled control is hovered at once (its tooltip is what a person
/// hovers it for).
#[test]
fn a_hover_waits_for_a_passing_cover_and_takes_a_disabled_control() {
    let env = Env::new();
    env.launch();
    env.open("ready.html");
    let obs = env.snapshot(None);
    let under = find_ref(&obs, "button", "Under");
    let never = find_ref(&obs, "button", "Never");
    let armed = env.ok(&["eval", "arm(5)"]);
    assert!(armed.contains("armed"), "{armed}");
    // Covered now: a hover that did not wait would be refused at once.
    let covered = env.ok(&[
        "eval",
        "document.elementFromPoint(60, document.getElementById('under').getBoundingClientRect().top + 10).id",
    ]);
    assert!(covered.contains("veil"), "{covered}");
    let v = env.json(&["hover", &under]);
    assert_eq!(v["under"]["name"], "Under", "{v}");
    let v = env.json(&["hover", &never]);
    assert_eq!(v["under"]["name"], "Never", "{v}");
}
