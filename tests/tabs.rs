//! The ManagedTabSet: tabs opened by a workspace, popups adopted through
//! their opener, and closing that never reaches a user tab by accident.
#![allow(clippy::unwrap_used, clippy::expect_used)] // tests may panic

mod support;
use serde_json::{json, Value};
use support::bridge::{two_clients, Bridge, Session};
use support::{devtools_http, find_ref, poll_for, poll_until, Env, POLL_LIMIT};

fn tabs(b: &mut Bridge, s: &Session) -> Vec<Value> {
    b.tool_ok(s, "browser.tabs.list", json!({}))["tabs"]
        .as_array()
        .unwrap()
        .clone()
}

/// Poll the tab list until a tab at a URL ending in `suffix` appears.
fn wait_tab(b: &mut Bridge, s: &Session, suffix: &str) -> Value {
    poll_for(POLL_LIMIT, &format!("a tab at {suffix}"), || {
        tabs(b, s)
            .into_iter()
            .find(|t| t["url"].as_str().unwrap_or("").ends_with(suffix))
    })
}

fn click_button(b: &mut Bridge, s: &Session, target: &str, name: &str) {
    let obs = b.tool_ok(s, "browser.observe", json!({"targetId": target}));
    let r = find_ref(&obs, "button", name).parse::<u32>().unwrap();
    b.tool_ok(
        s,
        "browser.click",
        json!({"targetId": target, "observationId": obs["observationId"], "ref": r}),
    );
}

fn event_payloads(b: &mut Bridge, s: &Session, kind: &str) -> Vec<Value> {
    b.events(s)
        .iter()
        .filter(|e| e["type"] == kind)
        .map(|e| e["payload"].clone())
        .collect()
}

#[test]
fn popups_join_the_opener_set_only_through_a_managed_opener() {
    let env = Env::new();
    env.launch();
    let (mut a, sa, mut b, sb) = two_clients(&env, 60_000);
    let opened = a.tool_ok(
        &sa,
        "browser.tabs.open",
        json!({"url": env.url("popup.html")}),
    );
    assert_eq!(opened["origin"], "managed");
    let opener = opened["targetId"].as_str().unwrap().to_string();
    click_button(&mut a, &sa, &opener, "Open popup window");

    // A's popup joins A's set; B never sees it.
    let popup = wait_tab(&mut a, &sa, "/next.html");
    assert_eq!(popup["origin"], "managed_popup", "{popup}");
    let set = tabs(&mut a, &sa)
        .into_iter()
        .find(|t| t["targetId"] == opener.as_str())
        .unwrap()["managedTabSetId"]
        .clone();
    assert!(set.is_string());
    assert_eq!(popup["managedTabSetId"], set);
    let attached = event_payloads(&mut a, &sa, "target.attached");
    assert!(
        attached
            .iter()
            .any(|p| p["origin"] == "managed" && p["managedTabSetId"] == set),
        "{attached:?}"
    );
    assert!(
        attached
            .iter()
            .any(|p| p["origin"] == "managed_popup" && p["openerTargetId"] == opener.as_str()),
        "{attached:?}"
    );
    assert!(tabs(&mut b, &sb)
        .iter()
        .all(|t| !t["url"].as_str().unwrap().ends_with("/next.html")));
    assert!(event_payloads(&mut b, &sb, "target.attached")
        .iter()
        .all(|p| p["origin"] != "managed_popup"));

    // A popup of a user tab is an ordinary user tab, for everyone.
    let user = tabs(&mut b, &sb)
        .into_iter()
        .find(|t| t["origin"] == "user_tab")
        .unwrap()["targetId"]
        .as_str()
        .unwrap()
        .to_string();
    b.tool_ok(&sb, "browser.tabs.acquire", json!({"targetId": user}));
    b.tool_ok(
        &sb,
        "browser.navigate",
        json!({"targetId": user, "url": env.url("popup.html")}),
    );
    click_button(&mut b, &sb, &user, "Open popup window");
    let user_popup = wait_tab(&mut b, &sb, "/next.html");
    assert_eq!(user_popup["origin"], "user_tab", "{user_popup}");
    assert!(user_popup["managedTabSetId"].is_null());
    let for_a: Vec<Value> = tabs(&mut a, &sa)
        .into_iter()
        .filter(|t| t["url"].as_str().unwrap().ends_with("/next.html"))
        .collect();
    assert_eq!(
        for_a.len(),
        2,
        "A sees its popup and the user popup: {for_a:?}"
    );
    assert!(event_payloads(&mut b, &sb, "target.attached")
        .iter()
        .any(|p| p["origin"] == "user_tab" && p["openerTargetId"] == user.as_str()));
}

#[test]
fn close_all_closes_the_managed_set_and_never_a_user_tab() {
    let env = Env::new();
    env.launch();
    let opener = env.open("popup.html")["targetId"]
        .as_str()
        .unwrap()
        .to_string();
    // A popup of the set that closes itself: `close --all` must not trip
    // over it.
    let obs = env.snapshot(None);
    env.ok(&["click", &find_ref(&obs, "button", "Open closing popup")]);
    let closer = poll_for(POLL_LIMIT, "the closing popup", || {
        env.json(&["tabs"])["tabs"]
            .as_array()
            .unwrap()
            .iter()
            .find(|t| t["url"].as_str().unwrap_or("").ends_with("/closer.html"))
            .map(|t| t["targetId"].as_str().unwrap().to_string())
    });
    env.ok(&["tab", &closer]);
    // Chromium sometimes detaches a new popup's page session a few tens
    // of milliseconds after the broker attached (seen about once in 20
    // runs, with the popup already showing closer.html). The next call
    // attaches again, and refs observed under the first session are
    // refused as `session_replaced`, as they must be: observe again then.
    let click_close = || {
        let obs = env.snapshot(None);
        let close = find_ref(&obs, "button", "Close this window");
        env.run(&["click", &close, "--json"])
    };
    let run = click_close();
    // The popup may also have closed under that click's read (seen once
    // under load): the click was dispatched and its tab went away, so the
    // broker cannot say what it did (`unknown_outcome`), and there is
    // nothing to click again.
    let still_open = || {
        env.json(&["tabs"])["tabs"]
            .as_array()
            .unwrap()
            .iter()
            .any(|t| t["targetId"] == closer.as_str())
    };
    if !run.ok() {
        assert!(
            run.stdout().contains("session_replaced") || run.stdout().contains("unknown_outcome"),
            "{} {}",
            run.stdout(),
            run.stderr()
        );
        if still_open() {
            let again = click_close();
            assert!(again.ok(), "{} {}", again.stdout(), again.stderr());
        }
    }
    let closed = env.json(&["close", "--all"]);
    let closed_ids = closed["closed"].as_array().unwrap();
    assert!(closed_ids.iter().any(|c| c == opener.as_str()), "{closed}");
    let listed = env.json(&["tabs"]);
    let user = listed["tabs"]
        .as_array()
        .unwrap()
        .iter()
        .find(|t| t["origin"] == "user_tab")
        .unwrap_or_else(|| panic!("no user tab in {listed}"))["targetId"]
        .as_str()
        .unwrap()
        .to_string();
    // Closed tabs leave the list as the browser reports them gone.
    let after = poll_for(POLL_LIMIT, "only user tabs left", || {
        let after = env.json(&["tabs"]);
        let only_user = after["tabs"]
            .as_array()
            .unwrap()
            .iter()
            .all(|t| t["origin"] == "user_tab");
        only_user.then_some(after)
    });
    let left: Vec<&Value> = after["tabs"].as_array().unwrap().iter().collect();
    assert!(left.iter().any(|t| t["targetId"] == user.as_str()));
    // Nothing managed is left to close; a closed tab cannot be closed.
    assert_eq!(env.json(&["close", "--all"])["closed"], json!([]));
    let (code, _) = env.err(&["close", &opener]);
    assert_eq!(code, "stale_ref");
    let (code, _) = env.err(&["close", "t999-nope"]);
    assert_eq!(code, "target_not_owned");
    for bad in [
        r#"{"targetId": "x", "all": true}"#,
        "{}",
        r#"{"all": "yes"}"#,
    ] {
        let (code, run) = env.err(&["tool", "call", "browser.tabs.close", "--input", bad]);
        assert_eq!(code, "invalid_argument", "{bad}: {}", run.stderr());
    }
    // A user tab closes only when named.
    assert_eq!(
        env.json(&["close", &user])["closed"],
        json!([user.as_str()])
    );
    poll_until(POLL_LIMIT, "the named user tab closed", || {
        env.json(&["tabs"])["tabs"]
            .as_array()
            .unwrap()
            .iter()
            .all(|t| t["targetId"] != user.as_str())
    });
}

/// Each workspace's first tab gets a window of its own. Chromium 156 gives
/// every window an omnibox popup page that, in a headless browser, kept
/// about half a core busy with eight windows open and nothing else going
/// on; the broker launches Chromium without it.
#[test]
fn workspace_windows_run_no_omnibox_popup_pages() {
    let env = Env::new();
    env.launch();
    let (mut a, sa, mut b, sb) = two_clients(&env, 60_000);
    for (bridge, s) in [(&mut a, &sa), (&mut b, &sb)] {
        let opened = bridge.tool_ok(s, "browser.tabs.open", json!({"url": env.url("form.html")}));
        assert_eq!(opened["origin"], "managed", "{opened}");
    }
    // Looked at for a second: a popup page made a little after its window
    // would show up too.
    for _ in 0..5 {
        let list: Value = serde_json::from_str(&devtools_http(&env, "GET", "/json/list")).unwrap();
        let targets = list.as_array().unwrap();
        let pages = targets
            .iter()
            .filter(|t| t["url"].as_str().is_some_and(|u| u.ends_with("/form.html")));
        assert_eq!(pages.count(), 2, "{list}");
        let popups: Vec<&Value> = targets
            .iter()
            .filter(|t| {
                t["url"]
                    .as_str()
                    .is_some_and(|u| u.contains("omnibox-popup"))
            })
            .collect();
        assert!(popups.is_empty(), "omnibox popup pages run: {popups:?}");
        std::thread::sleep(std::time::Duration::from_millis(200));
    }
}
