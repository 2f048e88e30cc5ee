//! `bp bench`: the form workflow (navigate, observe, type, click, observe)
//! through the one-shot CLI, the same steps over direct CDP as the floor,
//! and the broker's cold start. Prints numbers; asserts nothing.

use browser_pilot_host::cdp::launch;
use browser_pilot_host::cdp::Cdp;
use browser_pilot_host::client::Client;
use browser_pilot_host::paths::Paths;
use browser_pilot_host::{BpError, BpResult};
use serde_json::{json, Value};
use std::path::{Path, PathBuf};
use std::process::{Child, Command, Stdio};
use std::sync::Arc;
use std::time::{Duration, Instant};

const STEPS: [&str; 5] = ["navigate", "observe", "type", "click", "observe2"];

/// Stops the bench home's broker (and its browser) and the children, and
/// removes the home, however the run ends.
pub(crate) struct Cleanup {
    pub(crate) children: Vec<Child>,
    pub(crate) home: PathBuf,
}

impl Drop for Cleanup {
    fn drop(&mut self) {
        let _ = Command::new(exe())
            .args(["broker", "stop", "--force"])
            .env("BROWSER_PILOT_HOME", &self.home)
            .output();
        for c in &mut self.children {
            let _ = c.kill();
            let _ = c.wait();
        }
        // The stopping broker and its browser may still write a last file:
        // remove until the home stays gone (bounded).
        let mut absent = 0;
        for _ in 0..50 {
            let _ = std::fs::remove_dir_all(&self.home);
            std::thread::sleep(Duration::from_millis(100));
            absent = if self.home.exists() { 0 } else { absent + 1 };
            if absent >= 3 {
                break;
            }
        }
    }
}

pub(crate) fn exe() -> PathBuf {
    std::env::current_exe().unwrap_or_else(|_| PathBuf::from("browser-pilot"))
}

pub(crate) fn median(v: &mut [f64]) -> f64 {
    v.sort_by(|a, b| a.total_cmp(b));
    v.get(v.len() / 2).copied().unwrap_or(f64::NAN)
}

pub(crate) fn ms(d: Duration) -> f64 {
    d.as_secs_f64() * 1000.0
}

fn free_port() -> BpResult<u16> {
    let l =
        std::net::TcpListener::bind("127.0.0.1:0").map_err(|e| BpError::internal(e.to_string()))?;
    l.local_addr()
        .map(|a| a.port())
        .map_err(|e| BpError::internal(e.to_string()))
}

pub(crate) fn serve_fixtures(dir: &Path) -> BpResult<(Child, u16)> {
    let port = free_port()?;
    let child = Command::new("python3")
        .args([
            "-m",
            "http.server",
            "--bind",
            "127.0.0.1",
            &port.to_string(),
            "--directory",
        ])
        .arg(dir)
        .stdout(Stdio::null())
        .stderr(Stdio::null())
        .spawn()
        .map_err(|e| BpError::internal(format!("python3 http.server: {e}")))?;
    for _ in 0..200 {
        if std::net::TcpStream::connect(("127.0.0.1", port)).is_ok() {
            return Ok((child, port));
        }
        std::thread::sleep(Duration::from_millis(10));
    }
    Err(BpError::internal("the fixture server did not start"))
}

/// Run `bp ARGS --json` in the bench home; returns (elapsed, parsed JSON).
pub(crate) fn bp(home: &Path, args: &[&str]) -> BpResult<(Duration, Value)> {
    let start = Instant::now();
    let out = Command::new(exe())
        .args(args)
        .arg("--json")
        .env("BROWSER_PILOT_HOME", home)
        .output()
        .map_err(|e| BpError::internal(e.to_string()))?;
    let elapsed = start.elapsed();
    if !out.status.success() {
        return Err(BpError::internal(format!(
            "bp {args:?} failed: {}",
            String::from_utf8_lossy(&out.stderr)
        )));
    }
    let v = serde_json::from_slice(&out.stdout).unwrap_or(Value::Null);
    Ok((elapsed, v))
}

fn find_ref(obs: &Value, role: &str, name: &str) -> BpResult<String> {
    obs["elements"]
        .as_array()
        .into_iter()
        .flatten()
        .find(|e| e["role"] == role && e["name"] == name)
        .map(|e| e["ref"].to_string())
        .ok_or_else(|| BpError::internal(format!("no {role} {name:?} in the observation")))
}

async fn cold_start(home: &Path) -> BpResult<f64> {
    let paths = Paths::at(home.to_path_buf());
    let start = Instant::now();
    let mut child = Command::new(exe())
        .args(["broker", "serve"])
        .env("BROWSER_PILOT_HOME", home)
        .stderr(Stdio::null())
        .spawn()
        .map_err(|e| BpError::internal(e.to_string()))?;
    let ready = loop {
        if Client::connect(&paths).await.is_ok() {
            break ms(start.elapsed());
        }
        if start.elapsed() > Duration::from_secs(30) {
            let _ = child.kill();
            return Err(BpError::internal("broker did not start"));
        }
        tokio::time::sleep(Duration::from_millis(1)).await;
    };
    Command::new(exe())
        .args(["broker", "stop"])
        .env("BROWSER_PILOT_HOME", home)
        .output()
        .ok();
    let _ = child.wait();
    Ok(ready)
}

pub async fn run(iterations: usize, fixtures: Option<PathBuf>) -> BpResult<()> {
    let fixtures = fixtures.unwrap_or_else(|| PathBuf::from("fixtures/pages"));
    if !fixtures.join("form.html").is_file() {
        return Err(BpError::invalid(format!(
            "{} has no form.html; pass --fixtures DIR",
            fixtures.display()
        )));
    }
    let home = std::env::temp_dir().join(format!("bp-bench-{}", std::process::id()));
    let mut cleanup = Cleanup {
        children: Vec::new(),
        home: home.clone(),
    };
    let (server, port) = serve_fixtures(&fixtures)?;
    cleanup.children.push(server);
    let url = format!("http://127.0.0.1:{port}/form.html");

    let cold_first = cold_start(&home).await?;
    let cold_cached = cold_start(&home).await?;

    // One-shot CLI.
    bp(&home, &["connect", "--launch", "--headless"])?;
    let mut cli: Vec<Vec<f64>> = vec![Vec::new(); STEPS.len()];
    for _ in 0..iterations.max(1) {
        let (t, _) = bp(&home, &["open", &url])?;
        cli[0].push(ms(t));
        let (t, obs) = bp(&home, &["snapshot"])?;
        cli[1].push(ms(t));
        let name_ref = find_ref(&obs, "textbox", "Name")?;
        let button_ref = find_ref(&obs, "button", "Sign in")?;
        let (t, _) = bp(&home, &["type", &name_ref, "Ada", "--clear"])?;
        cli[2].push(ms(t));
        let (t, _) = bp(&home, &["click", &button_ref])?;
        cli[3].push(ms(t));
        let (t, _) = bp(&home, &["snapshot"])?;
        cli[4].push(ms(t));
    }
    let mut bridge = bridge_workflow(&home, &url, iterations.max(1))?;
    let mut keyboard = bridge_keyboard(&home, &url, iterations.max(1))?;
    crate::bench_speed::run(&home, &url, iterations.max(1)).await?;
    bp(&home, &["broker", "stop", "--force"]).ok();

    let direct = direct_cdp(&url, iterations.max(1), &home).await?;
    println!("Browser Pilot benchmark: form workflow x{iterations} (medians, ms)");
    println!("broker start to ready socket: {cold_first:.1} ms in a fresh home, {cold_cached:.1} ms the second time (default components ship precompiled)");
    println!(
        "{:<10} {:>10} {:>10} {:>10} {:>9} {:>9}",
        "step", "one-shot", "bridge", "CDP floor", "one-shot", "bridge"
    );
    let (mut total_cli, mut total_bridge, mut total_direct) = (0.0, 0.0, 0.0);
    for (i, step) in STEPS.iter().enumerate() {
        let c = median(&mut cli[i]);
        let b = median(&mut bridge[i]);
        let d = median(&mut direct[i].clone());
        total_cli += c;
        total_bridge += b;
        total_direct += d;
        println!(
            "{step:<10} {c:>10.1} {b:>10.1} {d:>10.1} {:>8.2}x {:>8.2}x",
            c / d,
            b / d
        );
    }
    println!(
        "{:<10} {total_cli:>10.1} {total_bridge:>10.1} {total_direct:>10.1} {:>8.2}x {:>8.2}x",
        "workflow",
        total_cli / total_direct,
        total_bridge / total_direct
    );
    let k = median(&mut keyboard);
    println!(
        "keyboard: {} keys in {k:.1} ms over the bridge ({:.2} ms per key, each checked against document, dialog and focus)",
        KEYS.len(),
        k / KEYS.len() as f64
    );
    crate::bench_own::run(&home, &url, iterations.max(1)).await?;
    drop(cleanup);
    Ok(())
}

/// Text typed key by key in the keyboard measurement.
const KEYS: &str = "abcdefghijklmnopqrst";

/// `browser.keyboard` into a focused field: the cost of per-key pinning.
fn bridge_keyboard(home: &Path, url: &str, iterations: usize) -> BpResult<Vec<f64>> {
    let (mut b, ws, lease) = BridgeClient::session(home, "bench-keys")?;
    b.tool(&ws, &lease, "browser.tabs.open", json!({"url": url}))?;
    let mut out = Vec::new();
    for _ in 0..iterations {
        let obs = b.tool(&ws, &lease, "browser.observe", json!({}))?;
        let name: u64 = find_ref(&obs, "textbox", "Name")?.parse().unwrap_or(0);
        let id = obs["observationId"].clone();
        b.tool(
            &ws,
            &lease,
            "browser.type",
            json!({"observationId": id, "ref": name, "text": "", "clear": true}),
        )?;
        let t = Instant::now();
        b.tool(&ws, &lease, "browser.keyboard", json!({"text": KEYS}))?;
        out.push(ms(t.elapsed()));
    }
    Ok(out)
}

/// A persistent `bp bridge --stdio` client for the benchmark.
pub(crate) struct BridgeClient {
    child: Child,
    stdin: std::process::ChildStdin,
    stdout: std::io::BufReader<std::process::ChildStdout>,
    next: u64,
}

impl BridgeClient {
    /// A started bridge, initialised, with a workspace and a lease.
    pub(crate) fn session(home: &Path, name: &str) -> BpResult<(Self, String, String)> {
        let mut b = Self::start(home)?;
        b.call(
            "initialize",
            json!({"client": {"name": name}, "protocol": {"min": "1.0", "max": "1.1"}}),
        )?;
        let ws = b.call("workspaces/create", json!({}))?["workspaceId"]
            .as_str()
            .unwrap_or_default()
            .to_string();
        let lease = b.call("leases/create", json!({"workspaceId": ws}))?["leaseId"]
            .as_str()
            .unwrap_or_default()
            .to_string();
        Ok((b, ws, lease))
    }

    fn start(home: &Path) -> BpResult<Self> {
        let mut child = Command::new(exe())
            .args(["bridge", "--stdio"])
            .env("BROWSER_PILOT_HOME", home)
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .spawn()
            .map_err(|e| BpError::internal(e.to_string()))?;
        let stdin = child
            .stdin
            .take()
            .ok_or_else(|| BpError::internal("bridge stdin"))?;
        let stdout = child
            .stdout
            .take()
            .ok_or_else(|| BpError::internal("bridge stdout"))?;
        Ok(Self {
            child,
            stdin,
            stdout: std::io::BufReader::new(stdout),
            next: 1,
        })
    }

    /// One request, waiting for its response; returns `result`.
    pub(crate) fn call(&mut self, method: &str, params: Value) -> BpResult<Value> {
        use std::io::{BufRead, Write};
        let id = self.next;
        self.next += 1;
        let line =
            json!({"jsonrpc": "2.0", "id": id, "method": method, "params": params}).to_string();
        let io = |e: std::io::Error| BpError::internal(e.to_string());
        writeln!(self.stdin, "{line}").map_err(io)?;
        loop {
            let mut reply = String::new();
            if self.stdout.read_line(&mut reply).map_err(io)? == 0 {
                return Err(BpError::internal("the bridge closed"));
            }
            let v: Value =
                serde_json::from_str(&reply).map_err(|e| BpError::internal(e.to_string()))?;
            if v["id"] == json!(id) {
                if let Some(e) = v.get("error") {
                    return Err(BpError::internal(format!("{method}: {e}")));
                }
                return Ok(v["result"].clone());
            }
        }
    }

    pub(crate) fn tool(
        &mut self,
        ws: &str,
        lease: &str,
        name: &str,
        args: Value,
    ) -> BpResult<Value> {
        let r = self.call(
            "tools/call",
            json!({"name": name, "arguments": args, "workspaceId": ws, "leaseId": lease}),
        )?;
        match r.get("error") {
            Some(e) => Err(BpError::internal(format!("{name}: {e}"))),
            None => Ok(r["result"].clone()),
        }
    }
}

impl Drop for BridgeClient {
    fn drop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

/// The workflow through one persistent bridge connection.
fn bridge_workflow(home: &Path, url: &str, iterations: usize) -> BpResult<Vec<Vec<f64>>> {
    let (mut b, ws, lease) = BridgeClient::session(home, "bench")?;
    b.tool(&ws, &lease, "browser.tabs.open", json!({}))?;
    let mut out: Vec<Vec<f64>> = vec![Vec::new(); STEPS.len()];
    for _ in 0..iterations {
        let t = Instant::now();
        b.tool(&ws, &lease, "browser.navigate", json!({"url": url}))?;
        out[0].push(ms(t.elapsed()));
        let t = Instant::now();
        let obs = b.tool(&ws, &lease, "browser.observe", json!({}))?;
        out[1].push(ms(t.elapsed()));
        let name: u64 = find_ref(&obs, "textbox", "Name")?.parse().unwrap_or(0);
        let button: u64 = find_ref(&obs, "button", "Sign in")?.parse().unwrap_or(0);
        let id = obs["observationId"].clone();
        let t = Instant::now();
        b.tool(
            &ws,
            &lease,
            "browser.type",
            json!({"observationId": id, "ref": name, "text": "Ada", "clear": true}),
        )?;
        out[2].push(ms(t.elapsed()));
        let t = Instant::now();
        b.tool(
            &ws,
            &lease,
            "browser.click",
            json!({"observationId": id, "ref": button}),
        )?;
        out[3].push(ms(t.elapsed()));
        let t = Instant::now();
        b.tool(&ws, &lease, "browser.observe", json!({}))?;
        out[4].push(ms(t.elapsed()));
    }
    Ok(out)
}

/// A browser of the bench's own (no broker) under `home/profiles`, with
/// one tab at `url` attached: (browser, connection, session).
pub(crate) async fn raw_tab(
    home: &Path,
    profiles: &str,
    url: &str,
) -> BpResult<(launch::LaunchedBrowser, Cdp, String)> {
    let browser = launch::launch(None, true, &home.join(profiles)).await?;
    let cdp = Cdp::connect(&browser.ws_url, Arc::new(|_| {})).await?;
    let target = cdp
        .call("Target.createTarget", None, json!({"url": url}))
        .await?;
    let attached = cdp
        .call(
            "Target.attachToTarget",
            None,
            json!({"targetId": target["targetId"], "flatten": true}),
        )
        .await?;
    let session = attached["sessionId"]
        .as_str()
        .unwrap_or_default()
        .to_string();
    Ok((browser, cdp, session))
}

/// The same steps with raw CDP calls, no broker and no processes per step.
async fn direct_cdp(url: &str, iterations: usize, home: &Path) -> BpResult<Vec<Vec<f64>>> {
    let (browser, cdp, session) = raw_tab(home, "direct-profiles", "about:blank").await?;
    let s = Some(session.as_str());
    cdp.call("Page.enable", s, json!({})).await?;
    let mut out: Vec<Vec<f64>> = vec![Vec::new(); STEPS.len()];
    for _ in 0..iterations {
        let mut events = cdp.subscribe();
        let t = Instant::now();
        cdp.call("Page.navigate", s, json!({"url": url})).await?;
        while let Ok(ev) = events.recv().await {
            if ev.method == "Page.loadEventFired" && ev.session_id.as_deref() == s {
                break;
            }
        }
        out[0].push(ms(t.elapsed()));
        let t = Instant::now();
        let tree = cdp
            .call("Accessibility.getFullAXTree", s, json!({}))
            .await?;
        out[1].push(ms(t.elapsed()));
        let node = |role: &str, name: &str| {
            tree["nodes"]
                .as_array()
                .into_iter()
                .flatten()
                .find(|n| n["role"]["value"] == role && n["name"]["value"] == name)
                .and_then(|n| n["backendDOMNodeId"].as_i64())
                .ok_or_else(|| BpError::internal(format!("no {role} {name}")))
        };
        let field = node("textbox", "Name")?;
        let button = node("button", "Sign in")?;
        let t = Instant::now();
        cdp.call("DOM.focus", s, json!({"backendNodeId": field}))
            .await?;
        // Clear as `bp type --clear` does: Control+A, Backspace.
        for key in [
            json!({"type": "rawKeyDown", "key": "a", "code": "KeyA", "windowsVirtualKeyCode": 65, "modifiers": 2, "commands": ["selectAll"]}),
            json!({"type": "keyUp", "key": "a", "code": "KeyA", "windowsVirtualKeyCode": 65, "modifiers": 2}),
            json!({"type": "rawKeyDown", "key": "Backspace", "code": "Backspace", "windowsVirtualKeyCode": 8}),
            json!({"type": "keyUp", "key": "Backspace", "code": "Backspace", "windowsVirtualKeyCode": 8}),
        ] {
            cdp.call("Input.dispatchKeyEvent", s, key).await?;
        }
        cdp.call("Input.insertText", s, json!({"text": "Ada"}))
            .await?;
        out[2].push(ms(t.elapsed()));
        let t = Instant::now();
        cdp.call(
            "DOM.scrollIntoViewIfNeeded",
            s,
            json!({"backendNodeId": button}),
        )
        .await?;
        let quads = cdp
            .call("DOM.getContentQuads", s, json!({"backendNodeId": button}))
            .await?;
        let q: Vec<f64> = quads["quads"][0]
            .as_array()
            .into_iter()
            .flatten()
            .filter_map(Value::as_f64)
            .collect();
        let (Some(x0), Some(y0), Some(x2), Some(y2)) = (q.first(), q.get(1), q.get(4), q.get(5))
        else {
            return Err(BpError::internal("the button has no box"));
        };
        let (x, y) = ((x0 + x2) / 2.0, (y0 + y2) / 2.0);
        for kind in ["mousePressed", "mouseReleased"] {
            cdp.call(
                "Input.dispatchMouseEvent",
                s,
                json!({"type": kind, "x": x, "y": y, "button": "left", "clickCount": 1}),
            )
            .await?;
        }
        out[3].push(ms(t.elapsed()));
        let t = Instant::now();
        cdp.call("Accessibility.getFullAXTree", s, json!({}))
            .await?;
        out[4].push(ms(t.elapsed()));
    }
    drop(browser);
    Ok(out)
}
