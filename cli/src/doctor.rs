//! `bp browsers` and `bp doctor`: read-only reports. Neither starts a
//! broker, connects to a browser or probes a port.

use browser_pilot_host::broker::locator::Locator;
use browser_pilot_host::broker::VERSION;
use browser_pilot_host::client::Client;
use browser_pilot_host::discovery;
use browser_pilot_host::paths::Paths;
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

/// One finding of the doctor.
fn problem(code: &str, severity: &str, message: String, remediation: &str) -> Value {
    json!({"code": code, "severity": severity, "message": message, "remediation": remediation})
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
        let mut fix = "install one (Debian: `sudo apt-get install chromium`), or start your browser with --remote-debugging-port=0 --user-data-dir=DIR".to_string();
        if let Some(c) = candidates.iter().find(|c| !c.running) {
            fix.push_str(&format!(
                "; {} is installed but not on PATH",
                c.executable.display()
            ));
        }
        problems.push(problem(
            "no_browser",
            "error",
            "no Chromium-family browser is on PATH and none with remote debugging is running"
                .into(),
            &fix,
        ));
    }
    if viable == 0 {
        let fix = candidates
            .iter()
            .find_map(|c| c.remediation.clone())
            .unwrap_or_else(|| "start a browser with --remote-debugging-port=0 --user-data-dir=DIR, or use `bp connect --launch`".into());
        problems.push(problem(
            "no_debuggable_browser",
            "warning",
            "no running browser of yours has remote debugging on; only `bp connect --launch` works"
                .into(),
            &fix,
        ));
    } else if viable > 1 {
        problems.push(problem(
            "several_browsers",
            "info",
            format!("{viable} browsers have remote debugging on; `bp connect` needs --browser ID"),
            "pick one with `bp connect --browser ID` (remembered)",
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
                &format!("chmod {want:o} it, or remove it and let the broker recreate it"),
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
                "stop it with `bp broker stop`; the next command starts a matching one",
            ));
        }
    } else if locator.is_some() {
        problems.push(problem(
            "stale_locator",
            "info",
            "a broker locator exists but no broker answers".into(),
            "nothing to do: the next bp command cleans it up and starts a broker",
        ));
    }
    if let Some(s) = &status {
        if s["browser"]["pageTools"]["domain"] == "off" {
            problems.push(problem(
                "page_tools_unavailable",
                "info",
                "the connected browser does not serve page-declared tools (WebMCP); browser.page_tools.* answer feature_unavailable".into(),
                "start it with --enable-features=WebMCP,DevToolsWebMCPSupport (Chromium 156 or later), or use `bp connect --launch`",
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
