//! The real MkDocs Material search (its index and query run in a Web
//! Worker) answers in fresh workspaces after other workspaces of the same
//! broker have driven other pages and gone away (issue 53, item 9).
//!
//! The site is built from mkdocs-material installed from PyPI into a
//! virtual environment under `target/` (reused while its pinned version
//! is unchanged). Without python3's venv or pip the test fails, naming
//! what is missing: it never passes without the real library.
#![allow(clippy::unwrap_used, clippy::expect_used)] // tests may panic

mod support;
use serde_json::json;
use std::path::{Path, PathBuf};
use std::process::Command;
use std::time::{Duration, Instant};
use support::bridge::{Bridge, Session};
use support::{find_ref, output_bounded, root, Env, FixtureServer};

/// The mkdocs-material release the site is built with.
const MATERIAL: &str = "mkdocs-material==9.8.2";

/// Run a setup command, bounded, and fail clearly if it does not succeed.
fn setup(mut command: Command, what: &str, limit: Duration) {
    command.env("NO_MKDOCS_2_WARNING", "1");
    let out = output_bounded(command, what, limit);
    assert!(
        out.status.success(),
        "{what} failed (the MkDocs test needs python3 with venv and pip, and PyPI):\n{}{}",
        String::from_utf8_lossy(&out.stdout),
        String::from_utf8_lossy(&out.stderr)
    );
}

/// The virtual environment with mkdocs-material, made once per version.
fn venv() -> PathBuf {
    let venv = root().join("target/mkdocs-venv");
    let stamp = venv.join("bp-version");
    let mkdocs = venv.join("bin/mkdocs");
    let current = std::fs::read_to_string(&stamp).unwrap_or_default();
    if current.trim() == MATERIAL && mkdocs.exists() {
        return venv;
    }
    let mut make = Command::new("python3");
    make.args(["-m", "venv"]).arg(&venv);
    setup(
        make,
        "python3 -m venv target/mkdocs-venv",
        Duration::from_secs(120),
    );
    let mut pip = Command::new(venv.join("bin/pip"));
    pip.args(["install", "--quiet", MATERIAL]);
    setup(pip, "pip install mkdocs-material", Duration::from_secs(600));
    std::fs::write(&stamp, MATERIAL).expect("write the venv's version stamp");
    venv
}

/// A small Material site with distinctive words, built into `target/`.
/// No web fonts: nothing is fetched from anywhere but 127.0.0.1.
fn build_site(venv: &Path) -> PathBuf {
    let src = root().join("target/mkdocs-test/src");
    let site = root().join("target/mkdocs-test/site");
    std::fs::create_dir_all(src.join("docs")).expect("create the site's sources");
    let files = [
        (
            "mkdocs.yml",
            "site_name: Pilot Docs\ntheme:\n  name: material\n  font: false\n",
        ),
        ("docs/index.md", "# Welcome\n\nThe pilot home page.\n"),
        (
            "docs/broker.md",
            "# Configuring the broker\n\nThe broker keeps a zanzibarquux registry.\n",
        ),
        (
            "docs/workers.md",
            "# Workers\n\nWorkers answer searches about quokkaflamingo.\n",
        ),
    ];
    for (name, text) in files {
        std::fs::write(src.join(name), text).expect("write a site source");
    }
    let mut build = Command::new(venv.join("bin/mkdocs"));
    build
        .current_dir(&src)
        .args(["build", "--quiet", "--clean", "--site-dir"])
        .arg(&site);
    setup(build, "mkdocs build", Duration::from_secs(120));
    // The page asks nothing of any other host (no web fonts, no CDN).
    let index = std::fs::read_to_string(site.join("index.html")).expect("the built index.html");
    for foreign in [
        "fonts.googleapis.com",
        "fonts.gstatic.com",
        "cdn.jsdelivr.net",
    ] {
        assert!(!index.contains(foreign), "the site loads from {foreign}");
    }
    site
}

/// Other clients drive fixture pages (workers, frames, forms, requests)
/// in their own workspaces, then go away.
fn other_workspaces(env: &Env, round: usize) {
    let pages = [["workers.html", "frames.html"], ["form.html", "net.html"]];
    for (n, [first, second]) in pages.iter().enumerate() {
        let mut b = Bridge::start(env);
        let s = b.session(&format!("other-{round}-{n}"), 60_000);
        b.tool_ok(&s, "browser.tabs.open", json!({"url": env.url(first)}));
        b.tool_ok(&s, "browser.observe", json!({}));
        b.tool_ok(&s, "browser.navigate", json!({"url": env.url(second)}));
        b.tool_ok(&s, "browser.observe", json!({}));
        b.finish();
    }
}

/// Read the page through the bridge until `done` holds, bounded; fails
/// with the last text read.
fn read_until(b: &mut Bridge, s: &Session, what: &str, done: impl Fn(&str) -> bool) -> String {
    let deadline = Instant::now() + Duration::from_secs(10);
    loop {
        let text = b.tool_ok(s, "browser.read", json!({}))["text"]
            .as_str()
            .unwrap_or_default()
            .to_string();
        if done(&text) {
            return text;
        }
        assert!(
            Instant::now() < deadline,
            "{what}: not within 10 s; the page reads:\n{text}"
        );
        std::thread::sleep(Duration::from_millis(100));
    }
}

/// In a fresh workspace (a new bridge client), open the site and type the
/// query: Material's panel must list the matching page. Enter then opens
/// that page, as it does for a person.
fn search(env: &Env, site: &FixtureServer, round: usize, query: &str) {
    let mut b = Bridge::start(env);
    let s = b.session(&format!("docs-{round}"), 60_000);
    let url = format!("http://127.0.0.1:{}/", site.port);
    b.tool_ok(&s, "browser.tabs.open", json!({"url": url}));
    let obs = b.tool_ok(&s, "browser.observe", json!({}));
    let field: u32 = find_ref(&obs, "textbox", "Search")
        .parse()
        .expect("a numeric ref");
    let typed = json!({"observationId": obs["observationId"], "ref": field, "text": query});
    b.tool_ok(&s, "browser.type", typed);
    let what = format!("round {round}: Material's search results");
    let panel = read_until(&mut b, &s, &what, |t| t.contains("matching document"));
    assert!(
        panel.contains("1 matching document") && panel.contains("Configuring the broker"),
        "round {round}: {panel}"
    );
    b.tool_ok(&s, "browser.press", json!({"key": "Enter"}));
    let what = format!("round {round}: the result's page after Enter");
    read_until(&mut b, &s, &what, |t| {
        t.contains("keeps a zanzibarquux registry") && !t.contains("matching document")
    });
    b.finish();
}

#[test]
fn material_search_answers_after_other_workspaces() {
    let site_dir = build_site(&venv());
    let site = FixtureServer::start_at(&site_dir);
    let env = Env::new();
    env.launch();
    for round in 1..=5 {
        other_workspaces(&env, round);
        search(&env, &site, round, "zanzibarquux");
    }
}
