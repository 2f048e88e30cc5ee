//! A measurement, not a check (ignored by default): the size of the
//! default observation (bytes of the JSON result and of `bp snapshot`'s
//! text) and the time of the first observation of a freshly loaded
//! document, per fixture page. Run it before and after a change to the
//! observation and compare the tables:
//!
//! `cargo test -p browser-pilot --test observe_size -- --ignored --nocapture`
//!
//! `BP_MEASURE_PAGES` (comma-separated) limits the pages, and
//! `BP_MEASURE_ROUNDS` sets the fresh loads timed per page.
#![allow(clippy::unwrap_used, clippy::expect_used)] // tests may panic

mod support;
use serde_json::{json, Value};
use std::time::Instant;
use support::bridge::Bridge;
use support::Env;

/// Fresh loads timed per page by default (the median is reported).
const ROUNDS: usize = 9;

/// Pages that never settle into one document, or hold the tab on purpose.
const SKIP: &[&str] = &["reloading.html", "stall.html", "dialogs.html", "popup.html"];

fn pages() -> Vec<String> {
    let dir = support::root().join("fixtures/pages");
    let mut pages: Vec<String> = std::fs::read_dir(dir)
        .expect("fixtures/pages")
        .filter_map(|e| e.ok()?.file_name().into_string().ok())
        .filter(|n| n.ends_with(".html") && !SKIP.contains(&n.as_str()))
        .collect();
    pages.sort();
    if let Ok(only) = std::env::var("BP_MEASURE_PAGES") {
        let only: Vec<&str> = only.split(',').collect();
        pages.retain(|p| only.contains(&p.as_str()));
    }
    pages
}

fn median(mut v: Vec<f64>) -> f64 {
    v.sort_by(f64::total_cmp);
    v.get(v.len() / 2).copied().unwrap_or(f64::NAN)
}

#[test]
#[ignore = "a measurement; run by hand with --ignored --nocapture"]
fn observation_size_and_first_look_time_per_fixture() {
    let env = Env::new();
    env.launch();
    let mut b = Bridge::start(&env);
    let s = b.session("measure", 600_000);
    let tab = b.tool_ok(
        &s,
        "browser.tabs.open",
        json!({"url": env.url("index.html")}),
    );
    let t = tab["targetId"]
        .as_str()
        .or_else(|| tab["tab"]["targetId"].as_str())
        .expect("tab id")
        .to_string();
    let rounds = std::env::var("BP_MEASURE_ROUNDS")
        .ok()
        .and_then(|r| r.parse().ok())
        .unwrap_or(ROUNDS);
    // A first look that warms the browser up, not measured.
    b.tool_ok(&s, "browser.observe", json!({"targetId": t}));
    println!("| page | JSON bytes | text bytes | first observe ms (median of {rounds}) |");
    println!("|---|---|---|---|");
    let (mut json_total, mut text_total, mut ms_total) = (0usize, 0usize, 0.0f64);
    for page in pages() {
        let mut times = Vec::new();
        for _ in 0..rounds {
            let nav = b.tool(
                &s,
                "browser.navigate",
                json!({"targetId": t, "url": env.url(&page)}),
            );
            if nav.get("error").is_some() {
                break;
            }
            let start = Instant::now();
            let obs = b.tool(&s, "browser.observe", json!({"targetId": t}));
            times.push(start.elapsed().as_secs_f64() * 1000.0);
            if obs.get("error").is_some() {
                times.clear();
                break;
            }
        }
        env.ok(&["open", &env.url(&page)]);
        let json: Value = env.json(&["snapshot"]);
        let json_bytes = json.to_string().len();
        let text_bytes = env.ok(&["snapshot"]).len();
        let ms = median(times);
        json_total += json_bytes;
        text_total += text_bytes;
        if ms.is_finite() {
            ms_total += ms;
        }
        println!("| {page} | {json_bytes} | {text_bytes} | {ms:.1} |");
    }
    println!("| **total** | {json_total} | {text_total} | {ms_total:.1} |");
    b.finish();
}
