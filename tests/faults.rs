//! The fault matrix (issue 15): real faults injected into real processes
//! (the browser, the broker, a client, the state directory, the disk),
//! each with one expected outcome and nothing lost. docs/security.md
//! ("Fault matrix") lists every row with the test that covers it.
#![allow(clippy::unwrap_used, clippy::expect_used)] // tests may panic

mod support;

use serde_json::{json, Value};
use std::path::{Path, PathBuf};
use std::process::{Child, Command, Stdio};
use support::bridge::{two_clients, user_blank_tab, Bridge, Session};
use support::user_browser::UserBrowser;
use support::{bp_exe, find_ref, poll_for, poll_until, walk, Env, POLL_LIMIT};

// ---- shared helpers ------------------------------------------------------

/// A fresh home whose broker launched a headless browser, and one bridge
/// client with a managed tab at `page`.
fn launched(page: &str) -> (Env, Bridge, Session) {
    let env = Env::new();
    let mut b = Bridge::start(&env);
    let s = b.session("faults", 60_000);
    b.tool_ok(&s, "browser.connect", json!({"launch": {"headless": true}}));
    b.tool_ok(&s, "browser.tabs.open", json!({"url": env.url(page)}));
    (env, b, s)
}

/// The main process of the browser the broker launched for `env`,
/// checked to run on a profile inside `env`'s home, so the test never
/// signals a process it did not cause.
fn browser_pid(env: &Env, b: &mut Bridge) -> i32 {
    let status = b.call("broker/status", json!({}));
    let pid = status["browser"]["browserPid"]
        .as_i64()
        .unwrap_or_else(|| panic!("no browserPid: {status}")) as i32;
    let cmdline = std::fs::read(format!("/proc/{pid}/cmdline")).unwrap_or_default();
    assert!(
        String::from_utf8_lossy(&cmdline).contains(env.home.to_str().unwrap()),
        "pid {pid} is not this test's browser"
    );
    pid
}

/// Send `sig` to `pid` (a process this test started or caused).
fn signal(pid: i32, sig: i32) {
    // SAFETY: plain kill(2) on a PID checked by the caller.
    let rc = unsafe { libc::kill(pid, sig) };
    assert_eq!(rc, 0, "kill({pid}, {sig}) failed");
}

/// The recorded state of command `id`.
fn command_state(b: &mut Bridge, id: &str) -> String {
    let got = b.call("commands/get", json!({"commandId": id}));
    got["command"]["state"].as_str().unwrap_or("").to_string()
}

/// Wait until command `id` has sent its first browser mutation.
fn wait_dispatched(b: &mut Bridge, id: &str) {
    poll_until(POLL_LIMIT, "command dispatched", || {
        command_state(b, id) == "dispatched"
    });
}

/// The broker's count of CDP commands sent, as `broker/status` reports it.
fn cdp_sent(b: &mut Bridge) -> u64 {
    let status = b.call("broker/status", json!({}));
    status["cdpCommandsSent"]
        .as_u64()
        .unwrap_or_else(|| panic!("no cdpCommandsSent: {status}"))
}

/// The event cursor of the workspace now.
fn cursor_now(b: &mut Bridge, s: &Session) -> String {
    let ws = b.call("workspaces/get", json!({"workspaceId": s.workspace}));
    ws["eventCursor"].as_str().expect("cursor").to_string()
}

/// Files (not directories) under `dir`.
fn files_under(dir: &Path) -> Vec<PathBuf> {
    walk(dir).into_iter().filter(|p| p.is_file()).collect()
}

/// Observe and return `(observationId, ref)` of `role` `name`.
fn observed_ref(b: &mut Bridge, s: &Session, role: &str, name: &str) -> (Value, u64) {
    let obs = b.tool_ok(s, "browser.observe", json!({}));
    let r = find_ref(&obs, role, name).parse::<u64>().unwrap();
    (obs["observationId"].clone(), r)
}

/// Import a small file as a `user_file` artifact; returns its ID.
fn import(env: &Env, b: &mut Bridge, s: &Session, name: &str, bytes: usize) -> String {
    let file = env.home.join(name);
    std::fs::write(&file, vec![b'u'; bytes]).unwrap();
    let d = b.call(
        "artifacts/import",
        json!({"workspaceId": s.workspace, "leaseId": s.lease, "path": file}),
    );
    d["artifactId"].as_str().expect("artifactId").to_string()
}

/// The reply's tool error (`result.error`), requiring one.
fn tool_error(reply: &Value) -> Value {
    let err = reply["result"]["error"].clone();
    assert!(err.is_object(), "the call did not fail: {reply}");
    err
}

// ---- 1. the browser killed during a call -----------------------------------

/// One row of the browser-kill matrix: `args` prepares the page and
/// returns the call's arguments; the call is sent and, once it is under
/// way, the browser's main process is killed. The call must answer
/// `want`: `unknown_outcome` (interruption `browser_disconnected`) for a
/// call that dispatched a change, `browser_disconnected` for a read. The
/// broker stays up and the workspace is told.
fn browser_killed_during(
    page: &str,
    tool: &str,
    args: impl FnOnce(&Env, &mut Bridge, &Session) -> Value,
    want: &str,
) {
    let (env, mut b, s) = launched(page);
    let args = args(&env, &mut b, &s);
    let cursor = cursor_now(&mut b, &s);
    let pid = browser_pid(&env, &mut b);
    let mutates = want == "unknown_outcome";
    let before = cdp_sent(&mut b);
    let cmd = format!("killed-{}", tool.replace('.', "-"));
    let id = b.send_tool(&s, tool, args, json!({"commandId": cmd}));
    if mutates {
        wait_dispatched(&mut b, &cmd);
    } else {
        // A read-only call never shows `dispatched`: wait for its first
        // CDP command instead.
        poll_until(POLL_LIMIT, "the call's first CDP command", || {
            cdp_sent(&mut b) > before
        });
        assert_eq!(command_state(&mut b, &cmd), "accepted");
    }
    signal(pid, libc::SIGKILL);

    let reply = b.wait(id);
    let err = tool_error(&reply);
    assert_eq!(err["code"], want, "{tool}: {reply}");
    if mutates {
        assert_eq!(
            err["context"]["interruption"], "browser_disconnected",
            "{tool}: {reply}"
        );
    }
    assert_eq!(
        command_state(&mut b, &cmd),
        if mutates { "unknown_outcome" } else { "failed" }
    );
    assert_broker_survives_browser_loss(&env, &mut b, &s, &cursor);
}

/// After the browser died: `connection.lost` in the workspace, and the
/// broker answers both the bridge and a one-shot CLI.
fn assert_broker_survives_browser_loss(env: &Env, b: &mut Bridge, s: &Session, cursor: &str) {
    b.wait_event(&s.workspace, cursor, "connection.lost");
    let status = b.call("broker/status", json!({}));
    assert_ne!(status["browser"]["state"], "connected", "{status}");
    assert!(env.status()["pid"].is_u64());
    assert_eq!(
        b.tool_code(s, "browser.observe", json!({})),
        "browser_disconnected"
    );
}

#[test]
fn browser_killed_during_navigate() {
    browser_killed_during(
        "index.html",
        "browser.navigate",
        |env, _, _| json!({"url": env.url("slow?ms=30000")}),
        "unknown_outcome",
    );
}

#[test]
fn browser_killed_during_type() {
    // Focusing the field blocks the page, so `type` is stuck after its
    // first step.
    browser_killed_during(
        "busy.html",
        "browser.type",
        |_, b, s| {
            let (obs, r) = observed_ref(b, s, "textbox", "Field");
            json!({"observationId": obs, "ref": r, "text": "never typed"})
        },
        "unknown_outcome",
    );
}

#[test]
fn browser_killed_during_keyboard() {
    // The first key press blocks the page.
    browser_killed_during(
        "busy.html",
        "browser.keyboard",
        |_, _, _| json!({"text": "keys"}),
        "unknown_outcome",
    );
}

#[test]
fn browser_killed_during_upload() {
    // The input's change handler blocks the page.
    browser_killed_during(
        "busy.html",
        "browser.upload",
        |env, b, s| {
            let file = import(env, b, s, "upload-me.txt", 64);
            let (obs, r) = observed_ref(b, s, "button", "Attachment");
            json!({"observationId": obs, "ref": r, "artifactIds": [file]})
        },
        "unknown_outcome",
    );
}

#[test]
fn browser_killed_during_screenshot() {
    // A key press blocks the page; its deadline lets go of the tab, and
    // the capture then waits on the blocked page.
    browser_killed_during(
        "busy.html",
        "browser.screenshot",
        |_, b, s| {
            let press = b.send_tool(
                s,
                "browser.keyboard",
                json!({"text": "x"}),
                json!({"deadlineMs": 1_000}),
            );
            let err = tool_error(&b.wait(press));
            assert_eq!(err["context"]["interruption"], "command_expired", "{err}");
            json!({})
        },
        "browser_disconnected",
    );
}

/// A download in progress when the browser dies: no artifact and no
/// `download` event claiming one.
#[test]
fn browser_killed_during_download() {
    let (env, mut b, s) = launched("busy.html");
    let cursor = cursor_now(&mut b, &s);
    let pid = browser_pid(&env, &mut b);
    let (obs, r) = observed_ref(&mut b, &s, "link", "Download slowly");
    b.tool_ok(&s, "browser.click", json!({"observationId": obs, "ref": r}));
    let staging = env.home.join("downloads");
    poll_until(POLL_LIMIT, "a staged partial download", || {
        files_under(&staging)
            .iter()
            .any(|f| std::fs::metadata(f).is_ok_and(|m| m.len() > 0))
    });
    signal(pid, libc::SIGKILL);

    assert_broker_survives_browser_loss(&env, &mut b, &s, &cursor);
    let downloads: Vec<Value> = b
        .events_since(&s.workspace, &cursor)
        .into_iter()
        .filter(|e| e["type"] == "download")
        .collect();
    assert!(
        downloads
            .iter()
            .all(|e| e["payload"].get("artifactId").is_none()),
        "an interrupted download became an artifact: {downloads:?}"
    );
    // The partial file never reaches the store, and staging is emptied
    // once the connection's last signals are handled.
    assert!(files_under(&env.home.join("artifacts")).is_empty());
    poll_until(POLL_LIMIT, "staging emptied", || {
        files_under(&staging).is_empty()
    });
}

/// The renderer processes of the browser `pid` (its descendants started
/// with `--type=renderer`).
fn renderers_of(pid: i32) -> Vec<i32> {
    let mut parent = std::collections::HashMap::new();
    for entry in std::fs::read_dir("/proc").unwrap().flatten() {
        let Ok(p) = entry.file_name().to_string_lossy().parse::<i32>() else {
            continue;
        };
        let stat = std::fs::read_to_string(format!("/proc/{p}/stat")).unwrap_or_default();
        // `pid (comm) state ppid ...`: the fields after the last ')'.
        let ppid = stat
            .rsplit_once(')')
            .and_then(|(_, rest)| rest.split_whitespace().nth(1))
            .and_then(|v| v.parse::<i32>().ok());
        if let Some(pp) = ppid {
            parent.insert(p, pp);
        }
    }
    let descends = |mut p: i32| {
        while let Some(&pp) = parent.get(&p) {
            if pp == pid {
                return true;
            }
            p = pp;
        }
        false
    };
    parent
        .keys()
        .copied()
        .filter(|&p| descends(p))
        .filter(|p| {
            let cmdline = std::fs::read(format!("/proc/{p}/cmdline")).unwrap_or_default();
            String::from_utf8_lossy(&cmdline).contains("--type=renderer")
        })
        .collect()
}

#[test]
fn a_crashed_tab_answers_at_once_and_a_navigation_recovers_it() {
    // `type` is stuck in the busy page when its renderer is killed (as an
    // out-of-memory kill would): the call ends with the crash, not at a
    // timeout, and the tab is usable again after a navigation.
    let (env, mut b, s) = launched("busy.html");
    let (obs, r) = observed_ref(&mut b, &s, "textbox", "Field");
    let args = json!({"observationId": obs, "ref": r, "text": "never typed"});
    let id = b.send_tool(&s, "browser.type", args, json!({"commandId": "crashing"}));
    wait_dispatched(&mut b, "crashing");
    let pid = browser_pid(&env, &mut b);
    let renderers = renderers_of(pid);
    assert!(!renderers.is_empty(), "no renderer under {pid}");
    for r in renderers {
        signal(r, libc::SIGKILL);
    }
    let reply = b.wait(id);
    let err = tool_error(&reply);
    assert_eq!(err["code"], "unknown_outcome", "{reply}");
    assert_eq!(err["context"]["interruption"], "target_crashed", "{reply}");
    assert_eq!(command_state(&mut b, "crashing"), "unknown_outcome");

    // Until it is navigated, the tab refuses at once, saying why.
    let observe = b.tool(&s, "browser.observe", json!({}));
    assert_eq!(observe["error"]["code"], "stale_ref", "{observe}");
    assert_eq!(
        observe["error"]["context"]["reason"], "target_crashed",
        "{observe}"
    );
    let status = b.call("broker/status", json!({}));
    assert_eq!(status["browser"]["state"], "connected", "{status}");
    let crashed = |b: &mut Bridge| {
        let tabs = b.tool_ok(&s, "browser.tabs.list", json!({}));
        tabs["tabs"]
            .as_array()
            .unwrap()
            .iter()
            .find(|t| t["current"] == true)
            .map(|t| t["crashed"].clone())
            .unwrap_or_else(|| panic!("no current tab: {tabs}"))
    };
    assert_eq!(crashed(&mut b), true);
    // The recovering tool still reports its own refusals as they are.
    let refused = b.tool(&s, "browser.navigate", json!({"url": "javascript:void 0"}));
    assert_eq!(refused["error"]["code"], "invalid_argument", "{refused}");

    b.tool_ok(&s, "browser.navigate", json!({"url": env.url("form.html")}));
    assert_eq!(crashed(&mut b), false);
    let (obs, r) = observed_ref(&mut b, &s, "textbox", "Name");
    let typed = b.tool_ok(
        &s,
        "browser.type",
        json!({"observationId": obs, "ref": r, "text": "Ada"}),
    );
    assert_eq!(typed["evidence"]["status"], "verified", "{typed}");
}

// ---- 2. the broker killed during a call ------------------------------------

/// The bridge's side (the in-flight call answered `unknown_outcome`,
/// interruption `broker_exited`) is `tests/bridge.rs`
/// `a_killed_broker_leaves_no_call_unanswered`. Here: what the next
/// client finds. A fresh broker starts, every ID of the killed one fails
/// with its stable code, and its artifacts and staged downloads are gone.
#[test]
fn a_killed_broker_is_replaced_and_its_ids_and_files_are_dropped() {
    let (env, mut a, s) = launched("busy.html");
    let shot = a.tool_ok(&s, "browser.screenshot", json!({}));
    let shot_id = shot["artifact"]["artifactId"].as_str().unwrap().to_string();
    let shot_path = PathBuf::from(shot["artifact"]["path"].as_str().unwrap());
    let (obs, link) = observed_ref(&mut a, &s, "link", "Download slowly");
    let done = a.send_tool(
        &s,
        "browser.click",
        json!({"observationId": obs, "ref": link}),
        json!({"commandId": "before-kill"}),
    );
    assert!(a.wait(done)["result"]["error"].is_null());
    let staging = env.home.join("downloads");
    poll_until(POLL_LIMIT, "a staged partial download", || {
        !files_under(&staging).is_empty()
    });
    let old_pid = a.call("broker/status", json!({}))["pid"].as_i64().unwrap() as i32;
    let nav = a.send_tool(
        &s,
        "browser.navigate",
        json!({"url": env.url("slow?ms=30000")}),
        json!({"commandId": "in-flight"}),
    );
    wait_dispatched(&mut a, "in-flight");
    signal(old_pid, libc::SIGKILL);
    let reply = a.wait(nav);
    assert_eq!(reply["error"]["data"]["code"], "unknown_outcome", "{reply}");
    assert!(!a.finish().success());

    // The next client starts a fresh broker (same principal as before).
    let mut b = Bridge::start(&env);
    b.initialize("faults");
    let new_pid = b.call("broker/status", json!({}))["pid"].as_i64().unwrap() as i32;
    assert_ne!(new_pid, old_pid);
    let locator: Value =
        serde_json::from_slice(&std::fs::read(env.home.join("broker.json")).unwrap()).unwrap();
    assert_eq!(locator["pid"], new_pid);

    // Old IDs fail cleanly.
    for (method, params, code) in [
        (
            "workspaces/get",
            json!({"workspaceId": s.workspace}),
            "workspace_not_found",
        ),
        (
            "leases/heartbeat",
            json!({"leaseId": s.lease}),
            "lease_expired",
        ),
        (
            "commands/get",
            json!({"commandId": "before-kill"}),
            "invalid_argument",
        ),
        (
            "commands/get",
            json!({"commandId": "in-flight"}),
            "invalid_argument",
        ),
        (
            "artifacts/get",
            json!({"artifactId": shot_id}),
            "artifact_not_found",
        ),
    ] {
        assert_eq!(
            b.call_err(method, params.clone())["code"],
            code,
            "{method} {params}"
        );
    }
    let s2 = {
        let ws = b.call("workspaces/create", json!({"label": "after"}));
        let lease = b.call("leases/create", json!({"workspaceId": ws["workspaceId"]}));
        Session {
            workspace: ws["workspaceId"].as_str().unwrap().into(),
            lease: lease["leaseId"].as_str().unwrap().into(),
            cursor: ws["eventCursor"].as_str().unwrap().into(),
        }
    };
    let old_call = json!({"name": "browser.status", "arguments": {},
                          "workspaceId": s.workspace, "leaseId": s.lease});
    assert_eq!(
        b.call_err("tools/call", old_call)["code"],
        "workspace_not_found"
    );
    b.tool_ok(
        &s2,
        "browser.connect",
        json!({"launch": {"headless": true}}),
    );
    b.tool_ok(
        &s2,
        "browser.tabs.open",
        json!({"url": env.url("busy.html")}),
    );
    let stale = b.tool(
        &s2,
        "browser.click",
        json!({"observationId": obs, "ref": link}),
    );
    assert_eq!(stale["error"]["code"], "stale_ref", "{stale}");

    // Nothing of the killed broker's is left on disk.
    assert!(!shot_path.exists(), "a stale artifact survived");
    assert!(files_under(&env.home.join("artifacts")).is_empty());
    assert!(files_under(&staging).is_empty(), "stale staged downloads");
}

// ---- 3. a client killed during a call --------------------------------------

/// A bridge killed while its call runs: its short lease lapses and the
/// tab it controlled goes to another client, which can then drive it.
#[test]
fn a_killed_client_lease_expires_and_its_tab_is_released() {
    let env = Env::new();
    env.launch();
    let (mut a, sa, mut b, sb) = two_clients(&env, 1_500);
    let tab_a = user_blank_tab(&mut a, &sa);
    let tab_b = user_blank_tab(&mut b, &sb);
    a.tool_ok(&sa, "browser.tabs.acquire", json!({"targetId": tab_a}));
    a.send_tool(
        &sa,
        "browser.navigate",
        json!({"targetId": tab_a, "url": env.url("slow?ms=5000")}),
        json!({"commandId": "orphaned"}),
    );
    wait_dispatched(&mut a, "orphaned");
    a.kill();

    // B waits its turn (`target_busy`, never anything else) and gets it.
    poll_for(POLL_LIMIT, "control passing to B", || {
        let r = b.tool(&sb, "browser.tabs.acquire", json!({"targetId": tab_b}));
        match r["error"]["code"].as_str() {
            None => Some(r),
            Some("target_busy") => None,
            Some(code) => panic!("acquire failed with {code}: {r}"),
        }
    });
    b.tool_ok(
        &sb,
        "browser.navigate",
        json!({"targetId": tab_b, "url": env.url("form.html")}),
    );
    let obs = b.tool_ok(&sb, "browser.observe", json!({"targetId": tab_b}));
    find_ref(&obs, "textbox", "Name");
}

// ---- 4. the browser stalls -------------------------------------------------

/// SIGSTOPs a process for as long as it lives; SIGCONT on drop, so a
/// failing test never leaves a stopped browser behind.
struct Stopped(i32);

impl Stopped {
    fn new(pid: i32) -> Self {
        signal(pid, libc::SIGSTOP);
        Self(pid)
    }
}

impl Drop for Stopped {
    fn drop(&mut self) {
        // SAFETY: resuming the process this guard stopped.
        unsafe {
            libc::kill(self.0, libc::SIGCONT);
        }
    }
}

/// A browser that stops answering (its main process SIGSTOPped, the
/// WebSocket open but silent): calls end at their deadline, other clients
/// and `broker/status` keep being answered, and once it resumes it works.
#[test]
fn a_stalled_browser_costs_calls_their_deadline_only() {
    let (env, mut a, s) = launched("form.html");
    let mut other = Bridge::start(&env);
    let so = other.session("bystander", 60_000);
    let pid = browser_pid(&env, &mut a);
    let stopped = Stopped::new(pid);

    let deadline = json!({"deadlineMs": 1_500});
    let read = a.send_tool(&s, "browser.observe", json!({}), deadline.clone());
    let err = tool_error(&a.wait(read));
    assert_eq!(err["code"], "command_expired", "{err}");
    let nav = a.send_tool(
        &s,
        "browser.navigate",
        json!({"url": env.url("next.html")}),
        deadline,
    );
    let err = tool_error(&a.wait(nav));
    assert_eq!(err["code"], "unknown_outcome", "{err}");
    assert_eq!(err["context"]["interruption"], "command_expired", "{err}");

    // The broker answers everyone meanwhile.
    assert_eq!(
        a.call("broker/status", json!({}))["pid"],
        env.status()["pid"]
    );
    other.call("workspaces/get", json!({"workspaceId": so.workspace}));
    other.call("leases/heartbeat", json!({"leaseId": so.lease}));
    other.events(&so);

    // Resumed: the browser works again. The expired navigation may still
    // land meanwhile (its outcome was unknown), so an observe can first
    // find the document changing under it.
    drop(stopped);
    poll_for(POLL_LIMIT, "an observe after resuming", || {
        let r = a.tool(&s, "browser.observe", json!({}));
        match r["error"]["code"].as_str() {
            None => Some(r),
            Some("action_not_verified") => None,
            Some(code) => panic!("observe after resuming failed with {code}: {r}"),
        }
    });
}

// ---- 5. a hostile state directory ------------------------------------------

/// A `sleep` the test owns, killed and reaped on drop.
struct Stranger(Child);

impl Stranger {
    fn start() -> Self {
        Self(
            Command::new("sleep")
                .arg("300")
                .spawn()
                .expect("spawn sleep"),
        )
    }
    fn pid(&self) -> u32 {
        self.0.id()
    }
    /// Still running (never signalled by bp).
    fn alive(&mut self) -> bool {
        self.0.try_wait().ok().flatten().is_none()
    }
}

impl Drop for Stranger {
    fn drop(&mut self) {
        let _ = self.0.kill();
        let _ = self.0.wait();
    }
}

/// Write `locator` as `env`'s broker.json (owner-only, as a broker would).
fn plant_locator(env: &Env, locator: Value) {
    std::fs::write(env.home.join("broker.json"), locator.to_string()).unwrap();
}

fn locator_of(env: &Env) -> Value {
    serde_json::from_slice(&std::fs::read(env.home.join("broker.json")).unwrap()).unwrap()
}

/// A locator naming a live process that is not a broker (a reused PID),
/// with a dead socket at the real path: the locator is stale, so bp
/// replaces it and starts its broker, and never signals that process.
#[test]
fn a_locator_naming_a_live_stranger_is_replaced_and_never_signalled() {
    let env = Env::new();
    let mut stranger = Stranger::start();
    let run = env.home.join("run");
    std::fs::create_dir_all(&run).unwrap();
    // A socket file nobody listens on.
    drop(std::os::unix::net::UnixListener::bind(run.join("broker.sock")).unwrap());
    plant_locator(
        &env,
        json!({"locatorVersion": 1, "pid": stranger.pid(), "socket": run.join("broker.sock"),
               "startedAtMs": 0, "serviceVersion": "0.0.0", "executable": "/bin/sleep",
               "protocolMin": "1.0", "protocolMax": "1.1"}),
    );
    // Its PID is alive but is not a broker: the locator is stale, so it is
    // replaced, and the stranger is left alone.
    env.ok(&["tool", "list"]);
    assert!(stranger.alive(), "bp signalled a process it did not start");
    let locator = locator_of(&env);
    assert_ne!(locator["pid"], stranger.pid(), "{locator}");
    assert_eq!(locator["pid"], env.status()["pid"]);
}

/// A locator written by a newer version (another format version, unknown
/// fields, its own socket path): bp never connects to the socket it
/// names and never signals its process. Its PID is alive but the named
/// socket is absent, so it is stale: replaced by this version's.
#[test]
fn a_locator_from_a_newer_version_is_never_followed() {
    let env = Env::new();
    let mut stranger = Stranger::start();
    let elsewhere = env.home.join("elsewhere.sock");
    plant_locator(
        &env,
        json!({"locatorVersion": 2, "pid": stranger.pid(), "socket": elsewhere,
               "startedAtMs": 0, "serviceVersion": "99.0.0", "executable": "/opt/bp-99/bp",
               "protocolMin": "2.0", "protocolMax": "2.0", "transport": {"kind": "vsock"}}),
    );
    env.ok(&["tool", "list"]);
    let locator = locator_of(&env);
    assert_eq!(locator["locatorVersion"], 1, "{locator}");
    assert_eq!(locator["pid"], env.status()["pid"]);
    assert!(!elsewhere.exists());
    assert!(stranger.alive(), "bp signalled a process it did not start");
}

/// The socket path replaced by a symlink (to a file of the user's): the
/// broker replaces the link itself, never the file it points to. A
/// symlinked run directory is refused outright.
#[test]
fn symlinks_in_the_state_directory_are_replaced_or_refused() {
    let env = Env::new();
    let run = env.home.join("run");
    std::fs::create_dir_all(&run).unwrap();
    let precious = env.home.join("precious.txt");
    std::fs::write(&precious, "keep me").unwrap();
    std::os::unix::fs::symlink(&precious, run.join("broker.sock")).unwrap();
    env.ok(&["tool", "list"]);
    use std::os::unix::fs::FileTypeExt;
    let meta = std::fs::symlink_metadata(run.join("broker.sock")).unwrap();
    assert!(meta.file_type().is_socket(), "{meta:?}");
    assert_eq!(std::fs::read_to_string(&precious).unwrap(), "keep me");
    env.ok(&["broker", "stop"]);

    // run/ itself a symlink to another directory: refused, nothing
    // created there.
    let decoy = env.home.join("decoy");
    std::fs::create_dir_all(&decoy).unwrap();
    std::fs::remove_dir_all(&run).unwrap();
    std::os::unix::fs::symlink(&decoy, &run).unwrap();
    let (code, r) = env.err(&["tool", "list"]);
    assert_eq!(code, "internal_error", "{}", r.stderr());
    assert!(r.stderr().contains("symlink"), "{}", r.stderr());
    assert_eq!(std::fs::read_dir(&decoy).unwrap().count(), 0);
}

/// Group- or world-writable state directories are tightened to 0700
/// before anything is put in them.
#[test]
fn loose_state_directories_are_tightened() {
    use std::os::unix::fs::{MetadataExt, PermissionsExt};
    let env = Env::new();
    let dirs = ["", "run", "artifacts", "downloads"];
    for d in dirs {
        let p = env.home.join(d);
        std::fs::create_dir_all(&p).unwrap();
        std::fs::set_permissions(&p, std::fs::Permissions::from_mode(0o777)).unwrap();
    }
    env.ok(&["tool", "list"]);
    for d in dirs {
        let mode = std::fs::metadata(env.home.join(d)).unwrap().mode() & 0o777;
        assert_eq!(mode, 0o700, "{d:?} left at {mode:o}");
    }
}

// ---- 6. the disk refuses a write -------------------------------------------

/// The broker's file size limit in this row.
const FSIZE_LIMIT: u64 = 256 << 10;

/// A `bp broker serve ARGS` under a resource limit: `resource` capped
/// at `limit` (for RLIMIT_FSIZE, with SIGXFSZ ignored so a write past it
/// fails with EFBIG instead of killing the process). Env's drop stops
/// it; this reaps it.
struct LimitedBroker(Child);

impl LimitedBroker {
    fn serve(env: &Env, policy: &Path) -> Self {
        let policy = policy.to_str().unwrap();
        Self::limited(env, &["--policy", policy], libc::RLIMIT_FSIZE, FSIZE_LIMIT)
    }

    fn limited(env: &Env, args: &[&str], resource: libc::__rlimit_resource_t, limit: u64) -> Self {
        use std::os::unix::process::CommandExt;
        let mut cmd = Command::new(bp_exe());
        cmd.args(["broker", "serve"])
            .args(args)
            .env("BROWSER_PILOT_HOME", &env.home)
            .stdout(Stdio::null())
            .stderr(Stdio::null());
        // SAFETY: only async-signal-safe calls between fork and exec.
        unsafe {
            cmd.pre_exec(move || {
                let limit = libc::rlimit {
                    rlim_cur: limit,
                    rlim_max: limit,
                };
                if libc::setrlimit(resource, &limit) != 0 {
                    return Err(std::io::Error::last_os_error());
                }
                // An ignored disposition survives exec.
                libc::signal(libc::SIGXFSZ, libc::SIG_IGN);
                Ok(())
            });
        }
        let child = cmd.spawn().expect("spawn the limited broker");
        poll_until(POLL_LIMIT, "limited broker start", || {
            env.run(&["broker", "status"]).ok()
        });
        Self(child)
    }
}

impl Drop for LimitedBroker {
    fn drop(&mut self) {
        let _ = self.0.kill();
        let _ = self.0.wait();
    }
}

/// A screenshot the disk cannot hold (over the broker's file size limit,
/// under every quota) fails with a stable code, leaves no file and no
/// artifact, and does not count against the workspace quota.
#[test]
fn a_screenshot_the_disk_cannot_hold_leaves_nothing_behind() {
    let env = Env::new();
    let policy = env.home.join("quota.toml");
    std::fs::write(
        &policy,
        "deny = []\n\n[limits]\nartifact-workspace-mb = 1\n",
    )
    .unwrap();
    // The browser keeps normal limits: only the broker's writes are capped.
    let user = UserBrowser::start("fsize", "about:blank");
    let _broker = LimitedBroker::serve(&env, &policy);
    let mut b = Bridge::start(&env);
    let s = b.session("disk", 60_000);
    b.tool_ok(&s, "browser.connect", json!({"endpoint": user.endpoint()}));
    b.tool_ok(
        &s,
        "browser.tabs.open",
        json!({"url": env.url("noise.html")}),
    );
    let store = env.home.join("artifacts");
    let before = files_under(&store);

    let shot = b.tool(&s, "browser.screenshot", json!({}));
    assert_eq!(shot["error"]["code"], "result_too_large", "{shot}");
    assert_eq!(files_under(&store), before, "a partial artifact was left");

    // The failed capture took no quota: four files of 250 KB (each under
    // the size limit) fill the 1 MiB workspace quota exactly as if it had
    // never happened.
    for n in 0..4 {
        import(&env, &mut b, &s, &format!("fill-{n}.bin"), 250_000);
    }
    let file = env.home.join("one-too-many.bin");
    std::fs::write(&file, vec![0u8; 100_000]).unwrap();
    let over = b.call_err(
        "artifacts/import",
        json!({"workspaceId": s.workspace, "leaseId": s.lease, "path": file}),
    );
    assert_eq!(over["code"], "result_too_large", "{over}");
    assert_eq!(over["context"]["quota"], "per-workspace", "{over}");
}

// ---- 7. the address space is capped ----------------------------------------

/// The broker's address-space limit in this row: room for the broker and
/// for component instances mapped one at a time (4 GiB of reservation
/// each), not for the instance pool's reservation up front (about 1 TiB).
const AS_LIMIT: u64 = 64 << 30;

/// A broker may draw its component instances from a pool that reserves
/// address space up front. Where the process may not reserve that much
/// (`ulimit -v`), it still starts, loads every component (each is
/// instantiated to read its manifest) and says it maps instances one by
/// one; an unlimited broker says it pools them.
#[test]
fn a_broker_that_may_not_reserve_its_instance_pool_still_starts() {
    let env = Env::new();
    env.ok(&["tool", "list"]);
    let status = env.json(&["broker", "status"]);
    assert_eq!(
        status["runtime"]["instanceSlots"]["pooled"], true,
        "an unlimited broker pools its instances: {status}"
    );
    env.ok(&["broker", "stop", "--force"]);

    let _broker = LimitedBroker::limited(&env, &[], libc::RLIMIT_AS, AS_LIMIT);
    let status = env.json(&["broker", "status"]);
    let runtime = &status["runtime"];
    assert_eq!(runtime["instanceSlots"]["pooled"], false, "{status}");
    assert_eq!(runtime["instanceSlots"]["total"], 128, "{status}");
    let components = runtime["components"]
        .as_array()
        .cloned()
        .unwrap_or_default();
    assert!(
        components.len() >= 10 && components.iter().all(|c| c["loaded"] == true),
        "every component loads without the pool: {status}"
    );
}
