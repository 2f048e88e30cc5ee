//! Files in and out on real Chromium through the real `bp`: a styled
//! button whose file input is hidden is answered through its intercepted
//! file chooser (several files), a single-file input refuses two, a
//! button that opens no chooser is `action_not_verified`; a download link's
//! click names its artifact in the evidence (a slow one is named as
//! started), `bp artifacts` lists it with its source URL, and `bp events`
//! prints its event.
#![allow(clippy::unwrap_used, clippy::expect_used)] // tests may panic

mod support;
use serde_json::Value;
use support::{find_ref, Env};

fn files(env: &Env, names: &[&str]) -> Vec<String> {
    names
        .iter()
        .map(|n| {
            let p = env.home.join(n);
            std::fs::write(&p, format!("contents of {n}")).unwrap();
            p.display().to_string()
        })
        .collect()
}

fn upload(reference: &str, paths: &[String]) -> Vec<String> {
    let mut args = vec!["upload".to_string(), reference.to_string()];
    args.extend(paths.iter().cloned());
    args
}

fn user_files(env: &Env) -> usize {
    let v = env.json(&["artifacts"]);
    v["artifacts"]
        .as_array()
        .unwrap()
        .iter()
        .filter(|a| a["kind"] == "user_file")
        .count()
}

#[test]
fn a_styled_button_gets_its_files_through_the_file_chooser() {
    let env = Env::new();
    env.launch();
    env.open("styled-upload.html");
    let obs = env.snapshot(None);
    let pick = find_ref(&obs, "button", "Choose files");
    let paths = files(&env, &["one.txt", "two.txt"]);
    let args = upload(&pick, &paths);
    let args: Vec<&str> = args.iter().map(String::as_str).collect();
    let v = env.json(&args);
    let e = &v["evidence"];
    assert_eq!(e["status"], "verified", "{v}");
    assert_eq!(e["via"], "file_chooser", "{v}");
    assert_eq!(e["fileCount"], 2, "{v}");
    assert_eq!(e["names"], serde_json::json!(["one.txt", "two.txt"]), "{v}");
    let page = env.ok(&["read"]);
    assert!(page.contains("Selected: one.txt, two.txt"), "{page}");
    // The chooser is no longer intercepted: the page's own input is as set.
    let count = env.ok(&["eval", "document.getElementById('many').files.length"]);
    assert!(count.contains('2'), "{count}");

    // A single-file input given two: refused, nothing set, nothing kept.
    let before = user_files(&env);
    let obs = env.snapshot(None);
    let single = find_ref(&obs, "button", "Single");
    let args = upload(&single, &paths);
    let args: Vec<&str> = args.iter().map(String::as_str).collect();
    let (code, run) = env.err(&args);
    assert_eq!(code, "invalid_argument", "{}", run.stderr());
    let count = env.ok(&["eval", "document.getElementById('single').files.length"]);
    assert!(count.contains('0'), "{count}");
    assert_eq!(
        user_files(&env),
        before,
        "a refused upload kept its imports"
    );
    // One file is fine.
    let v = env.json(&["upload", &single, &paths[0]]);
    assert_eq!(v["evidence"]["via"], "input", "{v}");
    assert_eq!(v["evidence"]["fileCount"], 1, "{v}");

    // A button that opens no chooser: not verified, with its reason.
    let obs = env.snapshot(None);
    let nothing = find_ref(&obs, "button", "Does nothing");
    let (code, run) = env.err(&["upload", &nothing, &paths[0]]);
    assert_eq!(code, "action_not_verified", "{}", run.stderr());
    assert!(run.stderr().contains("no_file_chooser"), "{}", run.stderr());
}

#[test]
fn a_download_is_named_by_its_click_listed_and_journalled() {
    let env = Env::new();
    env.launch();
    env.open("upload.html");
    let obs = env.snapshot(None);
    let link = find_ref(&obs, "link", "Download report");
    let v = env.json(&["click", &link]);
    let e = &v["evidence"];
    let signals: Vec<&str> = e["signals"]
        .as_array()
        .unwrap()
        .iter()
        .filter_map(Value::as_str)
        .collect();
    assert!(signals.contains(&"download"), "{v}");
    assert_eq!(e["download"]["state"], "completed", "{v}");
    let id = e["download"]["artifactId"].as_str().unwrap().to_string();

    let listed = env.json(&["artifacts"]);
    let a = listed["artifacts"]
        .as_array()
        .unwrap()
        .iter()
        .find(|a| a["artifactId"] == id.as_str())
        .unwrap_or_else(|| panic!("{id} not in {listed}"))
        .clone();
    assert_eq!(a["kind"], "download", "{a}");
    assert_eq!(a["filename"], "report.txt", "{a}");
    assert_eq!(a["bytes"], 20, "{a}");
    assert_eq!(a["sourceUrl"], env.url("report.txt"), "{a}");
    let text = env.ok(&["artifacts"]);
    assert!(
        text.contains(&id) && text.contains("download") && text.contains("report.txt"),
        "{text}"
    );

    let events = env.ok(&["events"]);
    let line = events
        .lines()
        .find(|l| l.contains(" download ") && l.contains(&id))
        .unwrap_or_else(|| panic!("no download event in {events}"));
    assert!(line.contains("completed"), "{line}");
    // --since skips what came before; --follow ends at its timeout.
    let seq: u64 = line[1..line.find(']').unwrap()].parse().unwrap();
    let later = env.ok(&["events", "--since", &seq.to_string()]);
    assert!(!later.contains(&id), "{later}");
    let started = std::time::Instant::now();
    env.ok(&["events", "--follow", "--timeout", "500"]);
    assert!(started.elapsed() < std::time::Duration::from_secs(20));

    // A download still transferring when the click answers (its body
    // trickles out over a minute) is named as started.
    env.open("busy.html");
    let obs = env.snapshot(None);
    let slow = find_ref(&obs, "link", "Download slowly");
    let v = env.json(&["click", &slow]);
    assert_eq!(v["evidence"]["download"]["state"], "started", "{v}");
    assert!(v["evidence"]["download"].get("artifactId").is_none(), "{v}");
}
