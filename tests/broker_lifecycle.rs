//! The broker's lifecycle as a person or a script sees it: status and stop
//! with no broker, what a forced stop ended, the broker's log, and the
//! doctor's advice beside a browser Browser Pilot launched.
#![allow(clippy::unwrap_used, clippy::expect_used)] // tests may panic

mod support;
use serde_json::{json, Value};
use std::io::{BufRead, BufReader, Write};
use std::os::unix::fs::MetadataExt;
use std::process::{Command, Stdio};
use std::sync::mpsc;
use std::time::Duration;
use support::bridge::Bridge;
use support::{bp_exe, Env, RUN_LIMIT};

/// `bp broker status` exits 3 when no broker runs (documented in cli.md).
const NOT_RUNNING: i32 = 3;

/// A child this test started, killed by its PID when the test ends (also
/// when it fails).
struct Killed(std::process::Child);

impl Drop for Killed {
    fn drop(&mut self) {
        let _ = self.0.kill();
        let _ = self.0.wait();
    }
}

fn json_of(out: &str) -> Value {
    serde_json::from_str(out.trim()).unwrap_or_else(|e| panic!("not JSON ({e}): {out}"))
}

#[test]
fn status_and_stop_with_no_broker_answer_instead_of_failing() {
    let env = Env::new();
    env.launch();
    // Alone, the CLI's disconnect takes the broker down with its browser.
    let gone = env.json(&["disconnect"]);
    assert_eq!(gone["brokerStopped"], true, "{gone}");

    let text = env.run(&["broker", "status"]);
    assert_eq!(
        text.output.status.code(),
        Some(NOT_RUNNING),
        "{}",
        text.stderr()
    );
    assert!(text.stdout().contains("not running"), "{}", text.stdout());
    assert!(text.stderr().is_empty(), "{}", text.stderr());
    let status = env.run(&["broker", "status", "--json"]);
    assert_eq!(status.output.status.code(), Some(NOT_RUNNING));
    assert_eq!(json_of(&status.stdout()), json!({"running": false}));

    // Stopping a stopped broker succeeds and says so.
    assert_eq!(env.ok(&["broker", "stop"]).trim(), "no broker was running");
    assert_eq!(
        env.json(&["broker", "stop"]),
        json!({"stopped": false, "running": false})
    );
    // Running, status says so and exits 0.
    env.ok(&["tool", "list"]);
    assert_eq!(env.status()["running"], true);
    let stopped = env.ok(&["broker", "stop"]);
    assert_eq!(
        stopped.trim(),
        "broker stopped; it ended 0 other client connections, 1 workspace, 1 lease and 0 managed tabs"
    );
}

#[test]
fn a_forced_stop_says_what_it_ended() {
    let env = Env::new();
    env.launch();
    let mut other = Bridge::start(&env);
    let s = other.session("other", 60_000);
    other.tool_ok(
        &s,
        "browser.tabs.open",
        json!({"url": env.url("form.html")}),
    );
    // The other client's live lease refuses a plain stop.
    let (code, _) = env.err(&["broker", "stop"]);
    assert_eq!(code, "broker_in_use");

    let stopped = env.json(&["broker", "stop", "--force"]);
    assert_eq!(stopped["stopped"], true, "{stopped}");
    // The CLI's workspace and lease and the other client's, the other
    // client's connection and the tab it opened.
    assert_eq!(
        stopped["ended"],
        json!({"connections": 1, "workspaces": 2, "leases": 2, "managedTabs": 1}),
        "{stopped}"
    );
    let status = env.run(&["broker", "status"]);
    assert_eq!(status.output.status.code(), Some(NOT_RUNNING));
}

/// Every file of the broker's log, joined.
fn whole_log(env: &Env) -> String {
    let mut all = String::new();
    for name in ["broker.log.3", "broker.log.2", "broker.log.1", "broker.log"] {
        all += &std::fs::read_to_string(env.home.join(name)).unwrap_or_default();
    }
    all
}

#[test]
fn the_broker_keeps_an_owner_only_log_without_secrets() {
    let env = Env::new();
    env.launch();
    let log = env.home.join("broker.log");
    let meta = std::fs::metadata(&log).expect("broker.log");
    assert_eq!(meta.mode() & 0o777, 0o600);
    let home_mode = std::fs::metadata(&env.home).expect("home").mode() & 0o777;
    assert_eq!(home_mode, 0o700);
    assert!(
        whole_log(&env).contains("broker ready"),
        "{}",
        whole_log(&env)
    );

    // A password given with `bp auth set` is used, and never logged.
    let origin = format!("http://127.0.0.1:{}", env.server.port);
    let mut auth = Command::new(bp_exe());
    auth.args(["auth", "set", &origin, "--username", "agent"])
        .env("BROWSER_PILOT_HOME", &env.home)
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped());
    let mut child = Killed(auth.spawn().expect("bp auth set"));
    child
        .0
        .stdin
        .take()
        .expect("stdin")
        .write_all(b"s3cret-canary-pw\n")
        .expect("write the password");
    let waited = support::poll_for(RUN_LIMIT, "bp auth set", || {
        child.0.try_wait().ok().flatten()
    });
    assert!(waited.success(), "bp auth set failed");
    let opened = env.open("auth");
    assert_eq!(opened["title"], "Members", "{opened}");

    let printed = env.ok(&["broker", "logs"]);
    assert!(printed.contains("broker ready"), "{printed}");
    let lines = env.json(&["broker", "logs", "--lines", "1"]);
    assert_eq!(lines["lines"].as_array().map(Vec::len), Some(1), "{lines}");

    env.ok(&["broker", "stop"]);
    let all = whole_log(&env);
    assert!(all.contains("broker stopping"), "{all}");
    assert!(
        !all.contains("s3cret-canary-pw"),
        "the password is in the log"
    );
}

#[test]
fn broker_logs_follow_prints_new_lines_until_killed() {
    let env = Env::new();
    env.ok(&["tool", "list"]);
    let mut follow = Killed(
        Command::new(bp_exe())
            .args(["broker", "logs", "--follow", "--lines", "0"])
            .env("BROWSER_PILOT_HOME", &env.home)
            .stdin(Stdio::null())
            .stdout(Stdio::piped())
            .stderr(Stdio::null())
            .spawn()
            .expect("bp broker logs --follow"),
    );
    let (tx, rx) = mpsc::channel();
    let stdout = follow.0.stdout.take().expect("stdout");
    std::thread::spawn(move || {
        for line in BufReader::new(stdout).lines() {
            let Ok(line) = line else { break };
            if tx.send(line).is_err() {
                break;
            }
        }
    });
    // Give the follower a moment to reach the end, then make a line.
    std::thread::sleep(Duration::from_millis(500));
    env.ok(&["broker", "stop"]);
    let mut seen = Vec::new();
    let deadline = std::time::Instant::now() + Duration::from_secs(20);
    while std::time::Instant::now() < deadline {
        match rx.recv_timeout(Duration::from_millis(200)) {
            Ok(line) if line.contains("broker stopping") => {
                seen.push(line);
                break;
            }
            Ok(line) => seen.push(line),
            Err(_) => {}
        }
    }
    // Still following: it ends only when killed.
    let running = follow.0.try_wait().expect("try_wait").is_none();
    drop(follow);
    assert!(running, "the follower exited on its own");
    assert!(
        seen.iter().any(|l| l.contains("broker stopping")),
        "{seen:?}"
    );
    assert!(
        !seen.iter().any(|l| l.contains("broker ready")),
        "--lines 0 printed old lines: {seen:?}"
    );
}

#[test]
fn the_doctor_gives_no_note_as_a_fix() {
    let env = Env::new();
    env.launch();
    let out = env.run(&["doctor", "--json"]);
    let report = json_of(&out.stdout());
    let browsers = report["browsers"].as_array().expect("browsers");
    let home = env.home.to_string_lossy().to_string();
    let ours = browsers
        .iter()
        .find(|b| {
            b["userDataDir"]
                .as_str()
                .is_some_and(|d| d.starts_with(&home))
        })
        .unwrap_or_else(|| panic!("the launched browser is not listed: {report}"));
    assert_eq!(ours["brokerOwned"], true, "{ours}");
    assert!(ours["remediation"].is_null(), "{ours}");
    let note = ours["note"].as_str().expect("a note");
    for p in report["problems"].as_array().expect("problems") {
        let fix = p["remediation"].as_str().unwrap_or("");
        assert!(!fix.is_empty() && fix != note, "{p}");
    }
}
