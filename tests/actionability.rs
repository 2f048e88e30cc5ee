//! Actionability on real Chromium: `browser.click` and `browser.type` wait
//! (bounded by `waitMs`) for their target to be visible, stable, enabled
//! and not covered, and refuse after the wait naming the condition that
//! failed. Each scenario is first shown to refuse without the wait
//! (`waitMs` 0), so the wait is what makes it pass. Clicks at a point of
//! the viewport name what they hit, and a point off screen is refused
//! with nothing clicked.
#![allow(clippy::unwrap_used, clippy::expect_used)] // tests may panic

mod support;
use serde_json::Value;
use std::time::{Duration, Instant};
use support::{find_ref, Env};

fn error_context(run: &support::Run) -> Value {
    let v: Value = serde_json::from_str(run.stdout().trim()).unwrap_or_default();
    v["error"]["context"].clone()
}

/// Open `ready.html`, observe it, and return the observation.
fn ready(env: &Env) -> Value {
    env.launch();
    env.open("ready.html");
    env.snapshot(None)
}

/// Start the page's timers (enable in 500 ms, slide in over 900 ms, a
/// veil for 300 ms), each `scale` times as long.
fn arm_scaled(env: &Env, scale: u32) {
    let out = env.ok(&["eval", &format!("arm({scale})")]);
    assert!(out.contains("armed"), "{out}");
}

fn arm(env: &Env) {
    arm_scaled(env, 1);
}

fn clicked(env: &Env) -> String {
    let out = env.ok(&["eval", "document.getElementById('out').textContent"]);
    out.trim().trim_matches('"').to_string()
}

/// `bp click REF --wait-ms 0` right after arming refuses with `reason`
/// (armed ten times as long, so that a slow start of `bp` cannot outlast
/// the condition).
fn refused_at_once(env: &Env, reference: &str, reason: &str) -> Value {
    arm_scaled(env, 10);
    let (code, run) = env.err(&["click", reference, "--wait-ms", "0", "--json"]);
    assert_eq!(code, "action_not_verified", "{}", run.stdout());
    let ctx = error_context(&run);
    assert_eq!(ctx["reason"], reason, "{ctx}");
    ctx
}

#[test]
fn a_button_enabled_a_moment_later_is_clicked_once_enabled() {
    let env = Env::new();
    let obs = ready(&env);
    let later = find_ref(&obs, "button", "Later");
    refused_at_once(&env, &later, "disabled");
    assert!(!clicked(&env).contains("later"));
    arm(&env);
    let v = env.json(&["click", &later]);
    assert_eq!(v["evidence"]["route"], "trusted_input", "{v}");
    assert!(clicked(&env).contains("later"), "{}", clicked(&env));
}

#[test]
fn an_element_that_slides_in_is_clicked_once_it_stops() {
    let env = Env::new();
    let obs = ready(&env);
    let slider = find_ref(&obs, "button", "Slider");
    refused_at_once(&env, &slider, "moving");
    assert!(!clicked(&env).contains("slider"));
    arm(&env);
    env.json(&["click", &slider]);
    assert!(clicked(&env).contains("slider"), "{}", clicked(&env));
    // Clicked where it came to rest: at its final position.
    let at_rest = env.ok(&[
        "eval",
        "getComputedStyle(document.getElementById('slider')).transform",
    ]);
    assert!(
        at_rest.contains("none") || at_rest.contains("matrix(1, 0, 0, 1, 0, 0)"),
        "{at_rest}"
    );
}

#[test]
fn a_covering_layer_that_goes_away_is_waited_for() {
    let env = Env::new();
    let obs = ready(&env);
    let under = find_ref(&obs, "button", "Under");
    let ctx = refused_at_once(&env, &under, "covered");
    assert_eq!(ctx["coveringRole"], "dialog", "{ctx}");
    assert_eq!(ctx["coveringName"], "Please wait", "{ctx}");
    assert!(!clicked(&env).contains("under"));
    arm(&env);
    env.json(&["click", &under]);
    assert!(clicked(&env).contains("under"), "{}", clicked(&env));
}

#[test]
fn a_button_that_stays_disabled_is_refused_after_the_wait() {
    let env = Env::new();
    let obs = ready(&env);
    let never = find_ref(&obs, "button", "Never");
    let started = Instant::now();
    let (code, run) = env.err(&["click", &never, "--wait-ms", "300", "--json"]);
    let took = started.elapsed();
    assert_eq!(code, "action_not_verified", "{}", run.stdout());
    assert_eq!(error_context(&run)["reason"], "disabled");
    // It waited (300 ms), and not the default 2 s.
    assert!(took >= Duration::from_millis(300), "{took:?}");
    assert!(took < Duration::from_millis(1900), "{took:?}");
    assert_eq!(clicked(&env), "nothing yet");
    // An out-of-range wait is bad input.
    let (code, _) = env.err(&["click", &never, "--wait-ms", "10001"]);
    assert_eq!(code, "invalid_argument");
}

#[test]
fn typing_waits_for_a_field_to_be_enabled() {
    let env = Env::new();
    env.launch();
    env.open("typing.html");
    env.ok(&[
        "eval",
        "(() => { const f = document.createElement('input'); f.setAttribute('aria-label', 'Late'); \
         f.disabled = true; document.body.prepend(f); \
         setTimeout(() => { f.disabled = false; }, 500); return 'ok'; })()",
    ]);
    let obs = env.snapshot(None);
    let late = find_ref(&obs, "textbox", "Late");
    let v = env.json(&["type", &late, "hello"]);
    assert_eq!(v["evidence"]["status"], "verified", "{v}");
    let value = env.ok(&["eval", "document.querySelector('[aria-label=Late]').value"]);
    assert!(value.contains("hello"), "{value}");
}

#[test]
fn a_click_at_a_point_names_what_it_hit() {
    let env = Env::new();
    ready(&env);
    // "Here" sits at left 400, top 20, 120 x 36.
    let v = env.json(&["click", "--at", "460,38"]);
    let target = &v["evidence"]["target"];
    assert_eq!(target["role"], "button", "{v}");
    assert_eq!(target["name"], "Here", "{v}");
    assert_eq!(target["tag"], "button", "{v}");
    assert!(clicked(&env).contains("here"), "{}", clicked(&env));
    let line = env.ok(&["click", "--at", "460,38"]);
    assert!(line.contains("button Here"), "{line}");
    // Off screen: refused, nothing clicked.
    for at in ["-5,10", "460,100000"] {
        let (code, run) = env.err(&["click", "--at", at, "--json"]);
        assert_eq!(code, "invalid_argument", "{at}: {}", run.stdout());
    }
    let (code, _) = env.err(&["click", "--at", "12"]);
    assert_eq!(code, "invalid_argument");
    assert_eq!(
        clicked(&env),
        "clicked: here, here",
        "off-screen points clicked nothing"
    );
}

/// The CDP commands one click on a button that is already ready for input
/// costs, counted by the broker: the actionability check and settling add
/// no round trip to a click that starts nothing (readiness and the settle
/// observer come with the ref's revalidation, and the click's own read
/// after the release reads the observer). The page's spinner, which never
/// stops turning, moves nothing else: it does not make the button wait
/// for frames.
#[test]
fn a_click_on_a_ready_button_costs_no_more_round_trips() {
    let env = Env::new();
    env.launch();
    env.open("settle.html");
    let obs = env.snapshot(None);
    let noop = find_ref(&obs, "button", "Noop");
    let mut counts = Vec::new();
    for settle in ["none", "none", "network", "network"] {
        let before = env.cdp_commands_sent();
        let v = env.json(&["click", &noop, "--settle", settle]);
        counts.push(env.cdp_commands_sent() - before);
        if settle == "network" {
            assert_eq!(v["evidence"]["settle"]["state"], "settled", "{v}");
        }
    }
    // (`broker status` itself sends no CDP command.)
    eprintln!("CDP commands per click (none, none, network, network): {counts:?}");
    // (The least of each pair: a read sent with the release is now and
    // then sent again when it came back too early, `proved_read.rs`.)
    let none = counts[0].min(counts[1]);
    let network = counts[2].min(counts[3]);
    assert!(network <= none, "{counts:?}");
    // Five in all, as before there was any wait: the ref's live check
    // (which also finds the button ready), the move, the press, the
    // release, and the read after it.
    assert_eq!(network, 5, "{counts:?}");
}
