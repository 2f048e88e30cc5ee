//! The per-user daemon: one broker however many clients race to start it,
//! owner-only files, clean stop.
#![allow(clippy::unwrap_used, clippy::expect_used)] // tests may panic

mod support;
use serde_json::json;
use std::os::unix::fs::{FileTypeExt, MetadataExt};
use support::bridge::Bridge;
use support::{bp_exe, Env};

#[test]
fn concurrent_invocations_start_exactly_one_broker() {
    let env = Env::new();
    let children: Vec<_> = (0..4)
        .map(|_| {
            std::process::Command::new(bp_exe())
                .args(["tool", "list", "--json"])
                .env("BROWSER_PILOT_HOME", &env.home)
                .stdout(std::process::Stdio::piped())
                .stderr(std::process::Stdio::piped())
                .spawn()
                .expect("spawn bp")
        })
        .collect();
    for c in children {
        let out = c.wait_with_output().expect("wait bp");
        assert!(
            out.status.success(),
            "{}",
            String::from_utf8_lossy(&out.stderr)
        );
    }
    let log = std::fs::read_to_string(env.home.join("broker.log")).unwrap_or_default();
    assert_eq!(log.matches("broker ready").count(), 1, "{log}");
    let pid = env.status()["pid"].as_u64().unwrap_or(0);
    let locator: serde_json::Value = serde_json::from_str(
        &std::fs::read_to_string(env.home.join("broker.json")).unwrap_or_default(),
    )
    .unwrap_or_default();
    assert_eq!(locator["pid"].as_u64(), Some(pid));
    assert_eq!(locator["locatorVersion"], 1);
}

#[test]
fn state_is_owner_only_and_stop_cleans_up() {
    let env = Env::new();
    env.ok(&["tool", "list"]);
    let mode = |p: &std::path::Path| std::fs::metadata(p).map(|m| m.mode() & 0o777).unwrap_or(0);
    assert_eq!(mode(&env.home), 0o700);
    assert_eq!(mode(&env.home.join("run")), 0o700);
    let socket = env.home.join("run/broker.sock");
    assert!(std::fs::metadata(&socket)
        .map(|m| m.file_type().is_socket())
        .unwrap_or(false));
    assert_eq!(mode(&socket), 0o600);
    assert_eq!(mode(&env.home.join("broker.json")), 0o600);
    assert_eq!(mode(&env.home.join("broker.log")), 0o600);

    // A second explicit serve refuses while one is running.
    let (code, _) = env.err(&["broker", "serve"]);
    assert_eq!(code, "broker_in_use");

    env.ok(&["broker", "stop"]);
    assert!(!socket.exists(), "socket left behind");
    assert!(
        !env.home.join("broker.json").exists(),
        "locator left behind"
    );
    // Not running: a result with its own exit status, not an error.
    let status = env.run(&["broker", "status", "--json"]);
    assert_eq!(status.output.status.code(), Some(3), "{}", status.stderr());
    assert_eq!(status.stdout().trim(), r#"{"running":false}"#);
}

#[test]
fn relative_home_is_refused() {
    let out = std::process::Command::new(bp_exe())
        .args(["broker", "status"])
        .env("BROWSER_PILOT_HOME", "relative/home")
        .output()
        .expect("run bp");
    assert!(!out.status.success());
    assert!(String::from_utf8_lossy(&out.stderr).contains("error[invalid_argument]"));
}

/// The profile directories under `home/profiles`.
fn profiles(env: &Env) -> Vec<String> {
    std::fs::read_dir(env.home.join("profiles"))
        .map(|d| {
            d.flatten()
                .map(|e| e.file_name().to_string_lossy().into_owned())
                .collect()
        })
        .unwrap_or_default()
}

#[test]
fn a_launched_browser_takes_its_profile_with_it() {
    let env = Env::new();
    // Left by a broker that was killed outright: the next broker of the
    // home removes it when it starts.
    let stale = env.home.join("profiles/profile-4194305-0123456789ab");
    std::fs::create_dir_all(stale.join("Default")).unwrap();
    std::fs::write(stale.join("Default/Preferences"), "{}").unwrap();
    // Not a profile: left alone.
    std::fs::write(env.home.join("profiles/notes.txt"), "mine").unwrap();

    let connected = env.json(&["connect", "--launch", "--headless"]);
    let pid = connected["connection"]["browserPid"].as_u64().unwrap();
    assert!(!stale.exists(), "stale profile kept: {:?}", profiles(&env));
    let live = profiles(&env);
    assert_eq!(live.len(), 2, "{live:?}");
    assert!(live.iter().any(|p| p.starts_with("profile-")), "{live:?}");

    // `disconnect` ends the broker's own browser, and its profile goes.
    env.ok(&["disconnect"]);
    support::poll_until(
        std::time::Duration::from_secs(10),
        "profile removed after disconnect",
        || profiles(&env) == ["notes.txt"],
    );
    assert!(
        !std::path::Path::new(&format!("/proc/{pid}")).exists(),
        "browser {pid} still runs"
    );

    // So does `broker stop`.
    env.ok(&["connect", "--launch", "--headless"]);
    assert_eq!(profiles(&env).len(), 2, "{:?}", profiles(&env));
    env.ok(&["broker", "stop"]);
    support::poll_until(
        std::time::Duration::from_secs(10),
        "profile removed after broker stop",
        || profiles(&env) == ["notes.txt"],
    );
}

#[test]
fn a_refused_second_broker_leaves_the_running_ones_files_alone() {
    let env = Env::new();
    let mut b = Bridge::start(&env);
    let s = b.session("keeper", 60_000);
    let source = env.home.join("notes.txt");
    std::fs::write(&source, "kept across a refused start").unwrap();
    let imported = b.call(
        "artifacts/import",
        json!({"workspaceId": s.workspace, "leaseId": s.lease, "path": source}),
    );
    let id = imported["artifactId"]
        .as_str()
        .expect("artifact id")
        .to_string();
    // Stand-ins for a staged download and a launched browser's profile.
    let staged = env.home.join("downloads/dl_0123456789abcdef");
    std::fs::create_dir_all(&staged).unwrap();
    let profile = env.home.join("profiles/profile-4194305-0123456789ab");
    std::fs::create_dir_all(&profile).unwrap();

    // A second broker for the same home is refused before it touches any
    // of the running broker's state.
    let (code, _) = env.err(&["broker", "serve"]);
    assert_eq!(code, "broker_in_use");

    let out = env.home.join("exported.txt");
    b.call("artifacts/export", json!({"artifactId": id, "path": out}));
    assert_eq!(
        std::fs::read_to_string(&out).unwrap(),
        "kept across a refused start"
    );
    assert!(staged.is_dir(), "staged download removed");
    assert!(profile.is_dir(), "profile removed");
}

/// A broker that is stopping: it holds the socket and the locator, takes
/// one connection and closes it unanswered (as a broker does whose accept
/// loop had just ended), then ends half a second later, leaving its files.
const STOPPING_BROKER: &str = r#"
import json, os, socket, sys, time
home = sys.argv[1]
run = os.path.join(home, "run")
os.makedirs(run, mode=0o700, exist_ok=True)
path = os.path.join(run, "broker.sock")
s = socket.socket(socket.AF_UNIX)
s.bind(path)
os.chmod(path, 0o600)
s.listen(8)
loc = os.path.join(home, "broker.json")
fd = os.open(loc, os.O_WRONLY | os.O_CREAT | os.O_TRUNC, 0o600)
os.write(fd, json.dumps({"locatorVersion": 1, "pid": os.getpid(), "socket": path,
    "startedAtMs": int(time.time() * 1000), "serviceVersion": "0.1.0",
    "executable": "stopping", "protocolMin": "1.0", "protocolMax": "1.1"}).encode())
os.close(fd)
print("ready", flush=True)
c, _ = s.accept()
c.recv(65536)
c.close()
s.close()
time.sleep(0.5)
"#;

#[test]
fn a_command_that_reaches_a_stopping_broker_waits_for_it_and_goes_on() {
    use std::io::BufRead;
    let env = Env::new();
    std::fs::create_dir_all(&env.home).unwrap();
    let mut fake = std::process::Command::new("python3")
        .args(["-c", STOPPING_BROKER])
        .arg(&env.home)
        .args(["broker", "serve"])
        .stdout(std::process::Stdio::piped())
        .spawn()
        .expect("python3");
    let mut ready = String::new();
    std::io::BufReader::new(fake.stdout.take().unwrap())
        .read_line(&mut ready)
        .unwrap();
    assert_eq!(ready.trim(), "ready");
    // The first command's connection is taken and closed unanswered; it
    // must wait for that broker to end and start its own, not fail.
    let run = env.run(&["connect", "--launch", "--headless", "--json"]);
    let _ = fake.kill();
    let _ = fake.wait();
    assert!(run.ok(), "{} {}", run.stdout(), run.stderr());
    let status = env.json(&["broker", "status"]);
    assert_ne!(status["pid"], json!(fake.id()), "{status}");
}
