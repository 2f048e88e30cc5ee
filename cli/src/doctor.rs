//! `bp browsers` and `bp doctor`: read-only reports. Neither starts a
//! broker, connects to a browser or probes a port.

use browser_pilot_host::broker::connect::locator::Locator;
use browser_pilot_host::broker::VERSION;
use browser_pilot_host::client::Client;
use browser_pilot_host::discovery;
use browser_pilot_host::system::paths::Paths;
use browser_pilot_host::{BpError, BpResult, Code};
use serde_json::{json, Value};
use std::io::Write;
use std::os::unix::fs::PermissionsExt;
use std::path::Path;

/// `bp browsers`.
pub fn browsers(json: bool) -> BpResult<()> {
    let list: Vec<Value> = discovery::discover().iter().map(|c| c.to_json()).collect();
    if json {
        println!("{}", json!({ "browsers": list }));
    } else {
        print!("{}", crate::output::browsers(&list));
    }
    Ok(())
}

/// Every problem the doctor can report.
const KINDS: [&str; 7] = [
    "no_browser",
    "no_debuggable_browser",
    "several_browsers",
    "unsafe_mode",
    "broker_version",
    "stale_locator",
    "page_tools_unavailable",
];

/// One finding of the doctor; `remediation` says what to do about it.
fn problem(code: &str, severity: &str, message: String, remediation: &str) -> Value {
    debug_assert!(KINDS.contains(&code), "add {code} to KINDS");
    json!({"code": code, "severity": severity, "message": message, "remediation": remediation})
}

const SEVERAL_BROWSERS_FIX: &str = "pick one with `bp connect --browser ID` (remembered)";
const BROKER_VERSION_FIX: &str =
    "stop it with `bp broker stop`; the next command starts a matching one";
const STALE_LOCATOR_FIX: &str =
    "run any bp command: it removes the stale locator and starts a broker";
const PAGE_TOOLS_FIX: &str = "start the browser with --enable-features=WebMCP,DevToolsWebMCPSupport (Chromium 156 or later), or use `bp connect --launch`";

fn no_browser_fix(candidates: &[discovery::candidate::Candidate]) -> String {
    let mut fix = "install one (Debian: `sudo apt-get install chromium`), or start your browser with --remote-debugging-port=0 --user-data-dir=DIR".to_string();
    if let Some(c) = candidates.iter().find(|c| !c.running) {
        fix.push_str(&format!(
            "; {} is installed but not on PATH",
            c.executable.display()
        ));
    }
    fix
}

/// The first browser's own fix, else the general one. A browser Browser
/// Pilot launched has a note, never a fix, so it never stands in for one.
fn no_debuggable_fix(candidates: &[discovery::candidate::Candidate]) -> String {
    candidates
        .iter()
        .find_map(|c| c.remediation.clone())
        .unwrap_or_else(|| "start your browser with --remote-debugging-port=0 --user-data-dir=DIR, or use `bp connect --launch`".into())
}

fn unsafe_mode_fix(want: u32) -> String {
    format!("chmod {want:o} it, or remove it and let the broker recreate it")
}

/// `bp doctor`: exits non-zero when the main job cannot work.
pub async fn doctor(json: bool) -> BpResult<()> {
    let paths = Paths::from_env()?;
    let mut problems = Vec::new();

    let candidates = discovery::discover();
    let viable = candidates.iter().filter(|c| c.viable()).count();
    let executable = browser_pilot_host::cdp::launch::find_executable().ok();
    let chromium_version = executable.as_deref().and_then(browser_version);
    if executable.is_none() && viable == 0 {
        problems.push(problem(
            "no_browser",
            "error",
            "no Chromium-family browser is on PATH and none with remote debugging is running"
                .into(),
            &no_browser_fix(&candidates),
        ));
    }
    if viable == 0 {
        problems.push(problem(
            "no_debuggable_browser",
            "warning",
            "no running browser of yours has remote debugging on; only `bp connect --launch` works"
                .into(),
            &no_debuggable_fix(&candidates),
        ));
    } else if viable > 1 {
        problems.push(problem(
            "several_browsers",
            "info",
            format!("{viable} browsers have remote debugging on; `bp connect` needs --browser ID"),
            SEVERAL_BROWSERS_FIX,
        ));
    }

    let broker = broker_report(&paths, &mut problems).await;
    let cache = cache_report(&paths.cache);
    let ok = !problems.iter().any(|p| p["severity"] == "error");
    let report = json!({
        "ok": ok,
        "version": VERSION,
        "home": paths.home,
        "browsers": candidates.iter().map(|c| c.to_json()).collect::<Vec<_>>(),
        "chromium": {"executable": executable, "version": chromium_version},
        "broker": broker,
        "componentCache": cache,
        "problems": problems,
    });
    if json {
        println!("{report}");
    } else {
        print!("{}", human(&report));
    }
    if ok {
        return Ok(());
    }
    let _ = std::io::stdout().flush();
    let e = BpError::new(
        Code::BrowserNotFound,
        "the main job cannot work here; see the problems above",
    );
    eprintln!("{}", crate::output::error_line(&e));
    std::process::exit(1)
}

/// `chromium --version` (the version mode starts no browser).
fn browser_version(exe: &Path) -> Option<String> {
    let out = std::process::Command::new(exe)
        .arg("--version")
        .stdin(std::process::Stdio::null())
        .stderr(std::process::Stdio::null())
        .output()
        .ok()?;
    let text = String::from_utf8_lossy(&out.stdout).trim().to_string();
    (!text.is_empty()).then_some(text)
}

fn mode_of(path: &Path) -> Option<u32> {
    std::fs::symlink_metadata(path)
        .ok()
        .map(|m| m.permissions().mode() & 0o777)
}

/// The broker: running or not, version, modes of its directory and socket,
/// components and denials (asked of a running broker, never started).
async fn broker_report(paths: &Paths, problems: &mut Vec<Value>) -> Value {
    let dir_mode = mode_of(&paths.run_dir);
    let socket_mode = mode_of(&paths.socket);
    for (what, mode, want) in [
        ("run directory", dir_mode, 0o700),
        ("socket", socket_mode, 0o600),
    ] {
        if let Some(m) = mode.filter(|m| m & 0o077 != 0) {
            problems.push(problem(
                "unsafe_mode",
                "error",
                format!("the broker {what} is mode {m:o}, readable by others"),
                &unsafe_mode_fix(want),
            ));
        }
    }
    let locator = Locator::read(paths);
    let status = match Client::connect(paths).await {
        Ok(mut c) => c.request("broker/status", json!({})).await.ok(),
        Err(_) => None,
    };
    if let Some(s) = &status {
        if s["version"].as_str() != Some(VERSION) {
            problems.push(problem(
                "broker_version",
                "warning",
                format!(
                    "the running broker is version {}, this CLI is {VERSION}",
                    s["version"]
                ),
                BROKER_VERSION_FIX,
            ));
        }
    } else if locator.is_some() {
        problems.push(problem(
            "stale_locator",
            "info",
            "a broker locator exists but no broker answers".into(),
            STALE_LOCATOR_FIX,
        ));
    }
    if let Some(s) = &status {
        if s["browser"]["pageTools"]["domain"] == "off" {
            problems.push(problem(
                "page_tools_unavailable",
                "info",
                "the connected browser does not serve page-declared tools (WebMCP); browser.page_tools.* answer feature_unavailable".into(),
                PAGE_TOOLS_FIX,
            ));
        }
    }
    let modes = json!({
        "runDir": dir_mode.map(|m| format!("{m:o}")),
        "socket": socket_mode.map(|m| format!("{m:o}")),
    });
    match status {
        Some(s) => json!({
            "running": true, "pid": s["pid"], "version": s["version"],
            "socket": s["socket"], "modes": modes, "browser": s["browser"],
            "components": s["runtime"]["components"],
            "deniedCapabilities": s["runtime"]["deniedCapabilities"],
            "deniedTools": s["runtime"]["deniedTools"],
        }),
        None => json!({
            "running": false, "socket": paths.socket, "modes": modes,
            "components": browser_pilot_host::components::embedded()
                .iter().map(|c| json!({"name": c.name})).collect::<Vec<_>>(),
            "note": "not running; the first bp command starts it",
        }),
    }
}

fn cache_report(dir: &Path) -> Value {
    let entries: Vec<u64> = std::fs::read_dir(dir)
        .into_iter()
        .flatten()
        .flatten()
        .filter_map(|e| e.metadata().ok().map(|m| m.len()))
        .collect();
    json!({"dir": dir, "exists": dir.is_dir(), "entries": entries.len(),
           "bytes": entries.iter().sum::<u64>()})
}

fn human(r: &Value) -> String {
    let mut out = format!("browser-pilot {}\n", r["version"].as_str().unwrap_or(""));
    let list = r["browsers"].as_array().cloned().unwrap_or_default();
    out.push_str("\nbrowsers:\n");
    out.push_str(&crate::output::browsers(&list));
    out.push_str(&format!(
        "\nchromium: {}\n",
        r["chromium"]["version"]
            .as_str()
            .or(r["chromium"]["executable"].as_str())
            .unwrap_or("not found on PATH")
    ));
    let b = &r["broker"];
    if b["running"] == true {
        out.push_str(&format!(
            "broker: running, pid {}, version {}, browser {}\n",
            b["pid"],
            b["version"].as_str().unwrap_or(""),
            b["browser"]["state"].as_str().unwrap_or("")
        ));
    } else {
        out.push_str("broker: not running (the first bp command starts it)\n");
    }
    let names: Vec<&str> = b["components"]
        .as_array()
        .into_iter()
        .flatten()
        .filter_map(|c| c["name"].as_str())
        .collect();
    out.push_str(&format!("components: {}\n", names.join(", ")));
    if let Some(denied) = b["deniedCapabilities"].as_array().filter(|d| !d.is_empty()) {
        let d: Vec<&str> = denied.iter().filter_map(Value::as_str).collect();
        out.push_str(&format!("denied capabilities: {}\n", d.join(", ")));
    }
    if let Some(removed) = b["deniedTools"].as_array().filter(|d| !d.is_empty()) {
        let d: Vec<&str> = removed.iter().filter_map(Value::as_str).collect();
        out.push_str(&format!("removed tools: {}\n", d.join(", ")));
    }
    out.push_str(&format!(
        "component cache: {} entries\n",
        r["componentCache"]["entries"]
    ));
    let problems = r["problems"].as_array().cloned().unwrap_or_default();
    if problems.is_empty() {
        out.push_str("\nno problems found\n");
    }
    for p in problems {
        out.push_str(&format!(
            "\n{}[{}]: {}\n  fix: {}\n",
            p["severity"].as_str().unwrap_or(""),
            p["code"].as_str().unwrap_or(""),
            p["message"].as_str().unwrap_or(""),
            p["remediation"].as_str().unwrap_or("")
        ));
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;
    use discovery::candidate::{Authorization, Candidate, Debugging, PortSource};

    /// Words a fix may start with: each says what to do.
    const DO: [&str; 8] = [
        "install", "start", "pick", "chmod", "stop", "run", "quit", "restart",
    ];

    fn is_instruction(fix: &str) -> bool {
        fix.split_whitespace()
            .next()
            .is_some_and(|w| DO.contains(&w))
    }

    /// A running browser Browser Pilot launched for a client.
    fn broker_launched() -> Candidate {
        let debugging = Debugging::Port {
            port: 40000,
            ws_path: None,
            source: PortSource::Flag,
        };
        Candidate {
            id: "chromium-stable-00000000".into(),
            product: "chromium".into(),
            channel: "stable".into(),
            executable: "/usr/bin/chromium".into(),
            user_data_dir: "/tmp/bp/profiles/p".into(),
            default_profile: false,
            pid: Some(7),
            running: true,
            headless: true,
            debugging,
            authorization: Authorization::NotRequired,
            broker_owned: true,
            remediation: None,
        }
    }

    /// The fixes a problem of `code` can print.
    fn fixes(code: &str) -> Vec<String> {
        let owned = broker_launched();
        let mut installed = owned.clone();
        installed.running = false;
        match code {
            "no_browser" => vec![no_browser_fix(&[]), no_browser_fix(&[installed])],
            "no_debuggable_browser" => vec![no_debuggable_fix(&[]), no_debuggable_fix(&[owned])],
            "several_browsers" => vec![SEVERAL_BROWSERS_FIX.into()],
            "unsafe_mode" => vec![unsafe_mode_fix(0o700), unsafe_mode_fix(0o600)],
            "broker_version" => vec![BROKER_VERSION_FIX.into()],
            "stale_locator" => vec![STALE_LOCATOR_FIX.into()],
            "page_tools_unavailable" => vec![PAGE_TOOLS_FIX.into()],
            other => panic!("no fixes listed for {other}"),
        }
    }

    #[test]
    fn every_problem_has_a_fix_that_says_what_to_do() {
        for code in KINDS {
            for fix in fixes(code) {
                assert!(is_instruction(&fix), "{code}: {fix}");
            }
        }
    }

    /// With only a browser Browser Pilot launched, the fix is what to do,
    /// not the browser's note.
    #[test]
    fn a_broker_launched_browser_lends_no_note_as_a_fix() {
        let owned = broker_launched();
        let fix = no_debuggable_fix(std::slice::from_ref(&owned));
        assert!(fix.contains("--remote-debugging-port"), "{fix}");
        assert!(fix.contains("bp connect --launch"), "{fix}");
        let note = owned.note().unwrap_or_default();
        assert!(!note.is_empty() && !fix.contains(note), "{fix}");
    }
}
