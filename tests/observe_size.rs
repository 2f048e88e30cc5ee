//! The default observation's size budget (issue 55): after the
//! observation gained states, link targets, select options and clickable
//! and scrollable elements, the default `bp snapshot` of the fixture pages
//! it was measured on may be at most 15% larger, in JSON and in text, than
//! before that change. A regression guard on size, never on time (the
//! first look's time is `bp bench`'s).
//!
//! `--nocapture` prints the table per page.
#![allow(clippy::unwrap_used, clippy::expect_used)] // tests may panic

mod support;
use serde_json::Value;
use support::Env;

/// The pages the budget was measured on: `fixtures/pages` as it was then
/// (pages that never settle or hold the tab left out), and a long article.
const PAGES: &[&str] = &[
    "autocomplete.html",
    "blocked-image.html",
    "busy.html",
    "clearing.html",
    "closer.html",
    "counter.html",
    "cover.html",
    "dead-button.html",
    "focus-clears.html",
    "form.html",
    "frame-inner.html",
    "frames.html",
    "guarded-fragment.html",
    "hidden-text.html",
    "index.html",
    "large.html",
    "late-title.html",
    "long.html",
    "names.html",
    "navigate.html",
    "net-methods.html",
    "net.html",
    "next.html",
    "noise.html",
    "overlay.html",
    "own-parts.html",
    "page-tools-frame.html",
    "page-tools-frames.html",
    "page-tools.html",
    "read-fields.html",
    "results.html",
    "rows.html",
    "scroll.html",
    "search.html",
    "shop-filters.html",
    "toast.html",
    "typing.html",
    "untitled.html",
    "upload.html",
    "wait.html",
    "workers.html",
    "article.html",
];

/// Their default observation's size before the change, in bytes.
const JSON_BEFORE: usize = 40_428;
const TEXT_BEFORE: usize = 20_520;

/// How much larger the default observation may be, in percent.
const BUDGET_PERCENT: usize = 15;

#[test]
fn the_default_observation_stays_within_its_size_budget() {
    let env = Env::new();
    env.launch();
    println!("| page | JSON bytes | text bytes |");
    println!("|---|---|---|");
    let (mut json_total, mut text_total) = (0usize, 0usize);
    for page in PAGES {
        env.ok(&["open", &env.url(page)]);
        let json: Value = env.json(&["snapshot"]);
        let json_bytes = json.to_string().len();
        let text_bytes = env.ok(&["snapshot"]).len();
        json_total += json_bytes;
        text_total += text_bytes;
        println!("| {page} | {json_bytes} | {text_bytes} |");
    }
    println!("| **total** | {json_total} | {text_total} |");
    assert!(
        json_total * 100 <= JSON_BEFORE * (100 + BUDGET_PERCENT),
        "the default observation's JSON grew from {JSON_BEFORE} to {json_total} bytes (budget {BUDGET_PERCENT}%)"
    );
    assert!(
        text_total * 100 <= TEXT_BEFORE * (100 + BUDGET_PERCENT),
        "the default observation's text grew from {TEXT_BEFORE} to {text_total} bytes (budget {BUDGET_PERCENT}%)"
    );
}
