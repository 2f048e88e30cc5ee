//! Agent hints and watchdogs against real pages: a refused main document
//! (403, 429) is flagged in the navigate result and the navigation event, a
//! refused image is not; three dead clicks give one `watchdog.no_progress`
//! and a `repeated_action` hint; a load that never finishes gives
//! `watchdog.navigation_stalled`.
#![allow(clippy::unwrap_used, clippy::expect_used)] // tests may panic

mod support;
use serde_json::{json, Value};
use support::bridge::{Bridge, Session};
use support::{poll_for, poll_until, Env, POLL_LIMIT};

fn codes(v: &Value) -> Vec<String> {
    v["hints"]
        .as_array()
        .into_iter()
        .flatten()
        .filter_map(|h| h["code"].as_str().map(str::to_string))
        .collect()
}

/// The ref of the element whose name is (or starts with) `name`.
fn ref_named(obs: &Value, name: &str) -> Value {
    obs["elements"]
        .as_array()
        .into_iter()
        .flatten()
        .find(|e| {
            e["name"]
                .as_str()
                .is_some_and(|n| n == name || n.starts_with(name))
        })
        .map(|e| e["ref"].clone())
        .unwrap_or_else(|| panic!("no {name} in {obs}"))
}

fn events_of(b: &mut Bridge, s: &support::bridge::Session, kind: &str) -> Vec<Value> {
    let page = b.call(
        "events/poll",
        json!({"workspaceId": s.workspace, "cursor": s.cursor, "limit": 1000}),
    );
    page["events"]
        .as_array()
        .unwrap()
        .iter()
        .filter(|e| e["type"] == kind)
        .cloned()
        .collect()
}

/// A launched browser, a bridge session named `name`, and a tab of it on
/// the fixture `page`.
fn tab_on(page: &str, name: &str) -> (Env, Bridge, Session) {
    let env = Env::new();
    env.launch();
    let mut b = Bridge::start(&env);
    let s = b.session(name, 60_000);
    b.tool_ok(&s, "browser.tabs.open", json!({"url": env.url(page)}));
    (env, b, s)
}

#[test]
fn refused_documents_are_flagged_and_subresources_are_not() {
    let env = Env::new();
    env.launch();
    let mut b = Bridge::start(&env);
    let s = b.session("hints", 60_000);
    b.tool_ok(&s, "browser.tabs.open", json!({}));
    for code in [403, 429] {
        let url = env.url(&format!("status?code={code}"));
        let r = b.tool_ok(&s, "browser.navigate", json!({"url": url}));
        assert_eq!(r["status"], code, "{r}");
        assert_eq!(codes(&r), vec!["access_blocked"], "{r}");
        assert_eq!(r["hints"][0]["status"], code, "{r}");
    }
    let blocked = events_of(&mut b, &s, "navigation");
    let flagged: Vec<u64> = blocked
        .iter()
        .filter(|e| codes(&e["payload"]) == ["access_blocked"])
        .filter_map(|e| e["payload"]["status"].as_u64())
        .collect();
    assert_eq!(flagged, vec![403, 429], "{blocked:?}");

    // A page whose only refusal is an image: no hint anywhere.
    let r = b.tool_ok(
        &s,
        "browser.navigate",
        json!({"url": env.url("blocked-image.html")}),
    );
    assert_eq!(r["status"], 200, "{r}");
    assert!(codes(&r).is_empty(), "{r}");
    let last = events_of(&mut b, &s, "navigation").pop().unwrap();
    assert_eq!(last["payload"]["status"], 200, "{last}");
    assert!(codes(&last["payload"]).is_empty(), "{last}");
    b.finish();
}

#[test]
fn three_dead_clicks_raise_one_no_progress_watchdog() {
    let (env, mut b, s) = tab_on("dead-button.html", "dead");
    let obs = b.tool_ok(&s, "browser.observe", json!({}));
    let id = obs["observationId"].clone();
    let button = ref_named(&obs, "Continue");
    let click = |b: &mut Bridge| {
        b.tool_ok(
            &s,
            "browser.click",
            json!({"observationId": id, "ref": button}),
        )
    };
    // The first click only moves focus to the button: no progress either.
    let first = click(&mut b);
    assert!(codes(&first).is_empty(), "{first}");
    let second = click(&mut b);
    assert_eq!(second["evidence"]["status"], "unavailable", "{second}");
    // Understood and executed, change unknown: the three questions apart.
    assert_eq!(
        second["outcome"],
        json!({"understood": true, "executed": true, "changed": null}),
        "{second}"
    );
    assert!(codes(&second).is_empty(), "{second}");
    let third = click(&mut b);
    assert_eq!(codes(&third), vec!["repeated_action"], "{third}");
    assert_eq!(third["hints"][0]["count"], 3, "{third}");
    assert_eq!(events_of(&mut b, &s, "watchdog.no_progress").len(), 1);
    // A fourth keeps the hint but starts no new event.
    let fourth = click(&mut b);
    assert_eq!(codes(&fourth), vec!["repeated_action"], "{fourth}");
    let watchdogs = events_of(&mut b, &s, "watchdog.no_progress");
    assert_eq!(watchdogs.len(), 1, "{watchdogs:?}");
    assert_eq!(watchdogs[0]["payload"]["tool"], "browser.click");

    // A navigation resets the streak: the next dead click is the first.
    b.tool_ok(
        &s,
        "browser.navigate",
        json!({"url": env.url("dead-button.html")}),
    );
    let obs = b.tool_ok(&s, "browser.observe", json!({}));
    let again = b.tool_ok(
        &s,
        "browser.click",
        json!({"observationId": obs["observationId"], "ref": button}),
    );
    assert!(codes(&again).is_empty(), "{again}");
    b.finish();
}

#[test]
fn a_load_that_never_finishes_raises_navigation_stalled() {
    let env = Env::new();
    env.launch();
    let mut b = Bridge::start(&env);
    let s = b.session("stall", 60_000);
    b.tool_ok(&s, "browser.tabs.open", json!({}));
    // The page commits, but an image keeps its load from ever finishing.
    let url = env.url("stall.html");
    let id = b.send_tool(
        &s,
        "browser.navigate",
        json!({"url": url}),
        json!({"deadlineMs": 60000}),
    );
    let reply = b.wait(id);
    let err = &reply["result"]["error"];
    assert_eq!(err["code"], "unknown_outcome", "{reply}");
    assert_eq!(err["context"]["reason"], "navigation_stalled", "{reply}");
    let stalled = events_of(&mut b, &s, "watchdog.navigation_stalled");
    assert_eq!(stalled.len(), 1, "{stalled:?}");
    b.finish();
}

#[test]
fn network_events_follow_the_journal_and_can_be_switched_off() {
    let env = Env::new();
    env.launch();
    let mut b = Bridge::start(&env);
    let s = b.session("net-events", 60_000);
    b.tool_ok(&s, "browser.tabs.open", json!({"url": env.url("net.html")}));
    // The page's own fetch happens after load: wait for its response event.
    let data = poll_for(POLL_LIMIT, "a network.response for /api/data", || {
        events_of(&mut b, &s, "network.response")
            .into_iter()
            .find(|e| {
                e["payload"]["url"]
                    .as_str()
                    .is_some_and(|u| u.ends_with("/api/data"))
            })
    });
    let p = &data["payload"];
    assert_eq!(p["method"], "GET", "{data}");
    assert_eq!(p["status"], 200, "{data}");
    assert_eq!(p["outcome"], "completed", "{data}");
    assert!(p["durationMs"].is_u64(), "{data}");
    assert!(p["resourceType"].is_string(), "{data}");
    assert!(data["targetId"].is_string(), "{data}");
    let requests = events_of(&mut b, &s, "network.request");
    assert!(
        requests.iter().any(|e| e["payload"]["seq"] == p["seq"]),
        "no network.request for seq {}: {requests:?}",
        p["seq"]
    );
    // Never headers or bodies.
    for e in events_of(&mut b, &s, "network.request")
        .iter()
        .chain(events_of(&mut b, &s, "network.response").iter())
    {
        for field in ["headers", "body", "postData", "requestId"] {
            assert!(e["payload"].get(field).is_none(), "{field} in {e}");
        }
    }

    // Switched off: the journal still records, the event journal does not.
    let off = b.call(
        "workspaces/configure",
        json!({"workspaceId": s.workspace, "networkEvents": false}),
    );
    assert_eq!(off["networkEvents"], false, "{off}");
    let before = events_of(&mut b, &s, "network.request").len();
    let fetches = |b: &mut Bridge| {
        let log = b.tool_ok(&s, "browser.network.log", json!({}));
        log.to_string().matches("/api/data").count()
    };
    let fetched = fetches(&mut b);
    assert!(fetched >= 1, "the first load's fetch is not in the journal");
    b.tool_ok(&s, "browser.navigate", json!({"url": env.url("net.html")}));
    // The new page's own fetch (after load) is journaled; by then its
    // events would have been published.
    poll_until(POLL_LIMIT, "the second load's fetch journaled", || {
        fetches(&mut b) > fetched
    });
    assert_eq!(events_of(&mut b, &s, "network.request").len(), before);
    b.finish();
}

#[test]
fn a_sign_in_page_shows_an_auth_surface_without_its_secrets() {
    let (env, mut b, s) = tab_on("form.html", "auth");
    let obs = b.tool_ok(&s, "browser.observe", json!({}));
    let password = ref_named(&obs, "Password");
    assert_eq!(codes(&obs), vec!["auth_surface"], "{obs}");
    let hint = &obs["hints"][0];
    assert_eq!(hint["refs"], json!([password]), "{obs}");
    assert_eq!(hint["passwordFields"], 1, "{obs}");
    // Typed into, the field's secret shows up in no hint, event or error.
    let secret = "hint-canary-s3cret";
    b.tool_ok(
        &s,
        "browser.type",
        json!({"observationId": obs["observationId"], "ref": password, "text": secret}),
    );
    let again = b.tool_ok(&s, "browser.observe", json!({}));
    assert_eq!(codes(&again), vec!["auth_surface"], "{again}");
    let events = b.call(
        "events/poll",
        json!({"workspaceId": s.workspace, "cursor": s.cursor, "limit": 1000}),
    );
    let bad = b.tool(
        &s,
        "browser.type",
        json!({"observationId": "nope", "ref": 1, "text": secret}),
    );
    for text in [again.to_string(), events.to_string(), bad.to_string()] {
        assert!(!text.contains(secret), "the secret leaked: {text}");
    }
    assert_eq!(obs["hints"][0]["state"], "present", "{obs}");
    assert_eq!(again["hints"][0]["state"], "present", "{again}");
    // The sign-in surface goes away, then comes back: both are reported
    // against the previous observation of the tab.
    b.tool_ok(
        &s,
        "browser.navigate",
        json!({"url": env.url("dead-button.html")}),
    );
    let gone = b.tool_ok(&s, "browser.observe", json!({}));
    assert_eq!(codes(&gone), vec!["auth_surface"], "{gone}");
    assert_eq!(gone["hints"][0]["state"], "gone", "{gone}");
    assert!(gone["hints"][0].get("refs").is_none(), "{gone}");
    b.tool_ok(&s, "browser.navigate", json!({"url": env.url("form.html")}));
    let back = b.tool_ok(&s, "browser.observe", json!({}));
    assert_eq!(back["hints"][0]["state"], "appeared", "{back}");
    // A page without a password field, seen first: no such hint.
    let mut other = Bridge::start(&env);
    let t = other.session("auth-plain", 60_000);
    other.tool_ok(
        &t,
        "browser.tabs.open",
        json!({"url": env.url("dead-button.html")}),
    );
    let plain = other.tool_ok(&t, "browser.observe", json!({}));
    assert!(codes(&plain).is_empty(), "{plain}");
    other.finish();
    b.finish();
}

#[test]
fn a_results_page_with_filters_says_so_and_a_form_does_not() {
    let (env, mut b, s) = tab_on("results.html", "filters");
    let obs = b.tool_ok(&s, "browser.observe", json!({}));
    assert_eq!(codes(&obs), vec!["filter_controls"], "{obs}");
    let expected = json!([
        ref_named(&obs, "Search products"),
        ref_named(&obs, "Sort by"),
        ref_named(&obs, "Filter: in stock"),
        ref_named(&obs, "Filter: on sale")
    ]);
    assert_eq!(obs["hints"][0]["refs"], expected, "{obs}");
    assert_eq!(obs["hints"][0]["controls"], 4, "{obs}");
    // A sign-in form is no results page.
    b.tool_ok(&s, "browser.navigate", json!({"url": env.url("form.html")}));
    let form = b.tool_ok(&s, "browser.observe", json!({}));
    assert!(
        !codes(&form).contains(&"filter_controls".to_string()),
        "{form}"
    );
    b.finish();
}

/// Shops name the group, not each box: checkboxes in a fieldset whose
/// legend says "Filter by brand", radios in a `role=group` labelled "Shop
/// by size". The "Remember me" box of a sign-in fieldset is no filter.
#[test]
fn filters_named_by_their_group_count_and_a_sign_in_group_does_not() {
    let (_env, mut b, s) = tab_on("shop-filters.html", "group-filters");
    let obs = b.tool_ok(&s, "browser.observe", json!({}));
    assert_eq!(codes(&obs), vec!["filter_controls"], "{obs}");
    let expected = json!([
        ref_named(&obs, "Search shoes"),
        ref_named(&obs, "Sort by"),
        ref_named(&obs, "Acme"),
        ref_named(&obs, "Globex"),
        ref_named(&obs, "41"),
        ref_named(&obs, "42")
    ]);
    assert_eq!(obs["hints"][0]["refs"], expected, "{obs}");
    assert_eq!(obs["hints"][0]["controls"], 6, "{obs}");
    let remember = ref_named(&obs, "Remember me");
    let refs = obs["hints"][0]["refs"].as_array().unwrap();
    assert!(!refs.contains(&remember), "{obs}");
    b.finish();
}

#[test]
fn an_open_dialog_over_the_page_is_a_modal_overlay_and_a_toast_is_not() {
    let (env, mut b, s) = tab_on("overlay.html", "modal");
    let obs = b.tool_ok(&s, "browser.observe", json!({}));
    let accept = ref_named(&obs, "Accept cookies");
    assert_eq!(codes(&obs), vec!["modal_overlay"], "{obs}");
    let hint = &obs["hints"][0];
    assert_eq!(hint["refs"], json!([accept]), "{obs}");
    assert_eq!(hint["inside"], 1, "{obs}");
    assert_eq!(hint["blocked"], 1, "{obs}");
    // The dialog itself is not a numbered element.
    assert!(
        obs["elements"]
            .as_array()
            .unwrap()
            .iter()
            .all(|e| e["role"] != "dialog"),
        "{obs}"
    );
    // Dismissed, the hint goes.
    b.tool_ok(
        &s,
        "browser.click",
        json!({"observationId": obs["observationId"], "ref": accept}),
    );
    let after = b.tool_ok(&s, "browser.observe", json!({}));
    assert!(codes(&after).is_empty(), "{after}");

    b.tool_ok(
        &s,
        "browser.navigate",
        json!({"url": env.url("toast.html")}),
    );
    let toast = b.tool_ok(&s, "browser.observe", json!({}));
    assert!(codes(&toast).is_empty(), "{toast}");
    assert_eq!(toast["elements"].as_array().unwrap().len(), 2, "{toast}");
    b.finish();
}

#[test]
fn a_live_suggestion_list_is_an_autocomplete_hint_and_a_closed_one_is_not() {
    let (_env, mut b, s) = tab_on("autocomplete.html", "suggest");
    // Closed: the combobox and the select are collapsed.
    let closed = b.tool_ok(&s, "browser.observe", json!({}));
    assert!(codes(&closed).is_empty(), "{closed}");
    let city = ref_named(&closed, "City");
    b.tool_ok(
        &s,
        "browser.type",
        json!({"observationId": closed["observationId"], "ref": city, "text": "Par"}),
    );
    let open = b.tool_ok(&s, "browser.observe", json!({}));
    assert_eq!(codes(&open), vec!["autocomplete"], "{open}");
    let hint = &open["hints"][0];
    assert_eq!(hint["options"], 3, "{open}");
    let options: Vec<Value> = open["elements"]
        .as_array()
        .unwrap()
        .iter()
        .filter(|e| e["role"] == "option")
        .map(|e| e["ref"].clone())
        .collect();
    assert_eq!(hint["refs"], json!(options), "{open}");
    assert!(
        !hint.to_string().contains("Paris"),
        "no page text in hints: {hint}"
    );
    b.finish();
}

#[test]
fn a_layer_covering_the_page_is_a_modal_overlay_too() {
    let (_env, mut b, s) = tab_on("cover.html", "wall");
    let obs = b.tool_ok(&s, "browser.observe", json!({}));
    assert_eq!(codes(&obs), vec!["modal_overlay"], "{obs}");
    let accept = ref_named(&obs, "Accept all");
    assert_eq!(obs["hints"][0]["refs"], json!([accept]), "{obs}");
    assert_eq!(obs["hints"][0]["blocked"], 2, "{obs}");
    assert_eq!(obs["elements"].as_array().unwrap().len(), 3, "{obs}");
    b.tool_ok(
        &s,
        "browser.click",
        json!({"observationId": obs["observationId"], "ref": accept}),
    );
    let after = b.tool_ok(&s, "browser.observe", json!({}));
    assert!(codes(&after).is_empty(), "{after}");
    b.finish();
}
