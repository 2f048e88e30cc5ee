//! Frames: same-origin and out-of-process (cross-site) iframe content and
//! open shadow roots in observations, refs that act in their own frame,
//! frame selection, and the selected frame detaching.
#![allow(clippy::unwrap_used, clippy::expect_used)] // tests may panic

mod support;
use serde_json::{json, Value};
use support::bridge::{Bridge, Session};
use support::{devtools_http, find_ref, poll_for, poll_until, Env, FixtureServer, POLL_LIMIT};

fn click(b: &mut Bridge, s: &Session, obs: &Value, name: &str) {
    let r = find_ref(obs, "button", name).parse::<u32>().unwrap();
    b.tool_ok(
        s,
        "browser.click",
        json!({"observationId": obs["observationId"], "ref": r}),
    );
}

/// Wait for `needle` in the page text: a frame tells its parent with
/// `postMessage`, which the parent handles a moment after the click.
fn wait_text(b: &mut Bridge, s: &Session, needle: &str) {
    poll_until(POLL_LIMIT, &format!("{needle:?} in the page"), || {
        page_text(b, s).contains(needle)
    });
}

fn page_text(b: &mut Bridge, s: &Session) -> String {
    b.tool_ok(s, "browser.read", json!({}))["text"]
        .as_str()
        .unwrap()
        .to_string()
}

fn has_button(obs: &Value, name: &str) -> bool {
    obs["elements"]
        .as_array()
        .unwrap()
        .iter()
        .any(|e| e["role"] == "button" && e["name"] == name)
}

/// Observe until every named button is there (frames load after the page).
fn observe_with(b: &mut Bridge, s: &Session, names: &[&str]) -> Value {
    poll_for(POLL_LIMIT, &format!("{names:?} observed"), || {
        let obs = b.tool_ok(s, "browser.observe", json!({}));
        names.iter().all(|n| has_button(&obs, n)).then_some(obs)
    })
}

#[test]
fn cross_origin_frame_and_shadow_root_buttons_click_through_refs() {
    let env = Env::new();
    env.launch();
    // A second local port on `localhost`: another site, so Chromium runs
    // that frame in its own process.
    let other = FixtureServer::start();
    let mut b = Bridge::start(&env);
    let s = b.session("frames", 60_000);
    b.tool_ok(
        &s,
        "browser.tabs.open",
        json!({"url": format!("{}?x={}", env.url("frames.html"), other.port)}),
    );
    let buttons = [
        "Main button",
        "Shadow button",
        "Frame button (same)",
        "Frame button (cross)",
    ];
    let obs = observe_with(&mut b, &s, &buttons);
    click(&mut b, &s, &obs, "Frame button (cross)");
    wait_text(&mut b, &s, "Frame clicked: cross");
    click(&mut b, &s, &obs, "Frame button (same)");
    wait_text(&mut b, &s, "Frame clicked: same");
    click(&mut b, &s, &obs, "Shadow button");
    wait_text(&mut b, &s, "Shadow clicked");
    // Typing reaches a field in each frame (revalidated, read and focused
    // in steps there, where a main-frame field takes one page call).
    for side in ["cross", "same"] {
        let field = find_ref(&obs, "textbox", &format!("Frame note ({side})"));
        let typed = b.tool_ok(
            &s,
            "browser.type",
            json!({"observationId": obs["observationId"], "ref": field.parse::<u32>().unwrap(),
                   "text": format!("note {side}"), "clear": true}),
        );
        assert_eq!(typed["evidence"]["status"], "verified", "{side}: {typed}");
    }

    let frames = b.tool_ok(&s, "browser.frames.list", json!({}))["frames"].clone();
    let frames = frames.as_array().unwrap();
    assert_eq!(frames.len(), 3, "{frames:?}");
    assert!(frames[0]["parentFrameId"].is_null() && frames[0]["selected"] == true);
    let cross = frames
        .iter()
        .find(|f| f["name"] == "cross")
        .unwrap_or_else(|| panic!("{frames:?}"));
    assert_eq!(cross["parentFrameId"], frames[0]["frameId"]);
    assert!(cross["url"]
        .as_str()
        .unwrap()
        .starts_with(&format!("http://localhost:{}/", other.port)));

    // Selecting the cross-site frame scopes observations to it.
    b.tool_ok(
        &s,
        "browser.frames.select",
        json!({"frameId": cross["frameId"]}),
    );
    let scoped = b.tool_ok(&s, "browser.observe", json!({}));
    assert!(has_button(&scoped, "Frame button (cross)"), "{scoped}");
    assert!(!has_button(&scoped, "Main button"), "{scoped}");
    click(&mut b, &s, &scoped, "Frame button (cross)");
    b.tool_ok(&s, "browser.frames.select", json!({"frameId": null}));
    assert!(has_button(
        &b.tool_ok(&s, "browser.observe", json!({})),
        "Main button"
    ));
    for bad in [
        json!({"frameId": "f99-nope"}),
        json!({"frameId": 5}),
        json!({"frame": "x"}),
    ] {
        assert_eq!(
            b.tool_code(&s, "browser.frames.select", bad),
            "invalid_argument"
        );
    }
}

#[test]
fn detaching_the_selected_frame_clears_it_and_warns() {
    let env = Env::new();
    env.launch();
    let mut b = Bridge::start(&env);
    let s = b.session("detach", 60_000);
    b.tool_ok(
        &s,
        "browser.tabs.open",
        json!({"url": env.url("frames.html")}),
    );
    observe_with(&mut b, &s, &["Frame button (same)"]);
    let frames = b.tool_ok(&s, "browser.frames.list", json!({}))["frames"].clone();
    let inner = frames
        .as_array()
        .unwrap()
        .iter()
        .find(|f| f["name"] == "inner")
        .unwrap()["frameId"]
        .clone();
    b.tool_ok(&s, "browser.frames.select", json!({"frameId": inner}));
    let obs = b.tool_ok(&s, "browser.observe", json!({}));
    assert!(!has_button(&obs, "Main button"), "{obs}");
    // The frame removes itself a moment after this click.
    click(&mut b, &s, &obs, "Remove this frame");

    b.wait_event(&s.workspace, &s.cursor, "watchdog.frame_detached");
    let kinds: Vec<(Value, Value)> = b
        .events(&s)
        .iter()
        .map(|e| (e["type"].clone(), e["payload"].clone()))
        .collect();
    let watchdog: Vec<&Value> = kinds
        .iter()
        .filter(|(t, _)| t == "watchdog.frame_detached")
        .map(|(_, p)| p)
        .collect();
    assert_eq!(watchdog.len(), 1, "{kinds:?}");
    assert_eq!(watchdog[0]["frameId"], inner);
    assert!(kinds.iter().any(|(t, p)| t == "observation.invalidated"
        && p["reason"] == "frame_detached"
        && p["observationId"] == obs["observationId"]));

    // The selection is back on the main frame, and the old refs are stale.
    let frames = b.tool_ok(&s, "browser.frames.list", json!({}))["frames"].clone();
    assert!(frames
        .as_array()
        .unwrap()
        .iter()
        .all(|f| f["frameId"] != inner));
    assert_eq!(frames[0]["selected"], true);
    let r = find_ref(&obs, "button", "Frame button (same)")
        .parse::<u32>()
        .unwrap();
    let stale = b.tool(
        &s,
        "browser.click",
        json!({"observationId": obs["observationId"], "ref": r}),
    );
    assert_eq!(stale["error"]["code"], "stale_ref", "{stale}");
    assert_eq!(stale["error"]["context"]["reason"], "frame_detached");
    assert!(has_button(
        &b.tool_ok(&s, "browser.observe", json!({})),
        "Main button"
    ));
}

#[test]
fn bp_frame_lists_and_selects() {
    let env = Env::new();
    env.launch();
    env.open("frames.html");
    let inner_of = |v: &Value| {
        v["frames"]
            .as_array()
            .unwrap()
            .iter()
            .find(|f| f["name"] == "inner")
            .and_then(|f| f["frameId"].as_str())
            .map(str::to_string)
    };
    let listed = poll_for(POLL_LIMIT, "the inner frame listed", || {
        let listed = env.json(&["frame"]);
        inner_of(&listed).is_some().then_some(listed)
    });
    // The main frame, the same-origin frame and the (empty) cross frame.
    assert_eq!(listed["frames"].as_array().unwrap().len(), 3, "{listed}");
    let inner = inner_of(&listed).unwrap();
    assert!(env.ok(&["frame"]).contains("(inner)"));
    env.ok(&["frame", &inner]);
    let obs = env.snapshot(None);
    assert!(has_button(&obs, "Frame button (same)") && !has_button(&obs, "Main button"));
    env.ok(&["frame", "--main"]);
    assert!(has_button(&env.snapshot(None), "Main button"));
    let (code, _) = env.err(&["frame", "f42-nope"]);
    assert_eq!(code, "invalid_argument");
}

#[test]
fn network_rules_reach_out_of_process_frames() {
    let env = Env::new();
    env.launch();
    let other = FixtureServer::start();
    let mut b = Bridge::start(&env);
    let s = b.session("rules", 60_000);
    b.tool_ok(&s, "browser.tabs.open", json!({}));
    // Only the cross-site frame's request matches.
    let pattern = format!("http://localhost:{}/api/data", other.port);
    b.tool_ok(
        &s,
        "browser.network.rules.add",
        json!({"pattern": pattern, "action": "mock",
               "mock": {"status": 200, "headers": {"Content-Type": "application/json"}, "body": "{\"source\":\"mock\"}"}}),
    );
    b.tool_ok(
        &s,
        "browser.navigate",
        json!({"url": format!("{}?x={}", env.url("frames.html"), other.port)}),
    );
    observe_with(&mut b, &s, &["Data: cross mock", "Data: same server"]);
    let log = b.tool_ok(&s, "browser.network.log", json!({}));
    let mocked: Vec<&Value> = log["requests"]
        .as_array()
        .unwrap()
        .iter()
        .filter(|r| r["outcome"] == "mocked")
        .collect();
    assert_eq!(mocked.len(), 1, "{log}");
    assert_eq!(mocked[0]["url"], pattern.as_str());
}

/// Open a tab the way a user would (DevTools HTTP endpoint), not through
/// the broker: the broker first attaches to it with its frames loaded.
fn user_tab(env: &Env, url: &str) {
    devtools_http(env, "PUT", &format!("/json/new?{url}"));
}

#[test]
fn a_user_tab_with_frames_already_loaded_is_observed_and_clicked() {
    let env = Env::new();
    env.launch();
    let other = FixtureServer::start();
    let url = format!("{}?x={}", env.url("frames.html"), other.port);
    user_tab(&env, &url);
    let mut b = Bridge::start(&env);
    let s = b.session("late", 60_000);
    let target = poll_for(POLL_LIMIT, "the user tab listed", || {
        let tabs = b.tool_ok(&s, "browser.tabs.list", json!({}));
        tabs["tabs"]
            .as_array()
            .unwrap()
            .iter()
            .find(|t| t["url"] == url.as_str() && t["origin"] == "user_tab")
            .map(|t| t["targetId"].clone())
    });
    // Its cross-site frame is there (its own DevTools target) before this
    // workspace takes the tab.
    let cross = format!("localhost:{}/frame-inner.html", other.port);
    poll_until(POLL_LIMIT, "the cross-site frame target", || {
        let list: Value = serde_json::from_str(&devtools_http(&env, "GET", "/json/list")).unwrap();
        list.as_array()
            .unwrap()
            .iter()
            .any(|t| t["type"] == "iframe" && t["url"].as_str().is_some_and(|u| u.contains(&cross)))
    });
    b.tool_ok(&s, "browser.tabs.acquire", json!({"targetId": target}));
    let obs = observe_with(&mut b, &s, &["Frame button (cross)", "Data: cross server"]);
    click(&mut b, &s, &obs, "Frame button (cross)");
    wait_text(&mut b, &s, "Frame clicked: cross");
}

#[test]
fn a_dialog_in_a_cross_site_frame_is_held_and_answered() {
    let env = Env::new();
    env.launch();
    let other = FixtureServer::start();
    let mut b = Bridge::start(&env);
    let s = b.session("frame-dialog", 60_000);
    b.tool_ok(
        &s,
        "browser.tabs.open",
        json!({"url": format!("{}?x={}", env.url("frames.html"), other.port)}),
    );
    // The frame's data button is renamed once its request answers, and
    // the longer name wraps it onto the alert button's line, which moves
    // that button right by the data button's width (measured: 8 -> 136
    // px). Clicking before then can land on the data button instead.
    let obs = observe_with(&mut b, &s, &["Frame alert (cross)", "Data: cross server"]);
    let r = find_ref(&obs, "button", "Frame alert (cross)")
        .parse::<u32>()
        .unwrap();
    // The click returns with the dialog still open (listed below).
    let clicked = b.tool_ok(
        &s,
        "browser.click",
        json!({"observationId": obs["observationId"], "ref": r}),
    );
    assert_eq!(
        clicked["evidence"]["signals"],
        json!(["dialog_opened"]),
        "{clicked}"
    );
    let listed = b.tool_ok(&s, "browser.dialogs.list", json!({}));
    assert_eq!(listed["dialogs"][0]["type"], "alert", "{listed}");
    let id = listed["dialogs"][0]["dialogId"].clone();
    b.tool_ok(
        &s,
        "browser.dialogs.respond",
        json!({"dialogId": id, "accept": true}),
    );
    observe_with(&mut b, &s, &["Frame alert answered (cross)"]);
}
