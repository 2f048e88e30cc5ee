//! `bp bench`, the MCP server: the cold start of `bp mcp` to its
//! `tools/list` answer with the broker warm, beside the bridge's start to
//! the same answer and a bare process start; and observe, type and click
//! through `bp mcp` against the same calls through `bp bridge --stdio`,
//! taking turns, each client on its own tab of the same page.

use super::mcp_client::McpClient;
use super::{exe, find_ref_number, median, ms, BridgeClient};
use browser_pilot_host::{BpError, BpResult};
use serde_json::{json, Value};
use std::path::Path;
use std::process::Command;
use std::time::Instant;

pub fn run(home: &Path, form_url: &str, iterations: usize) -> BpResult<()> {
    cold_start(home, iterations.max(5))?;
    // Per-call ratios move by about 0.1x at 20 samples: three times that.
    per_call(home, form_url, iterations.max(20) * 3)
}

/// Spawn to the `tools/list` answer, broker warm.
fn cold_start(home: &Path, n: usize) -> BpResult<()> {
    let (mut mcp, mut bridge, mut process) = (Vec::new(), Vec::new(), Vec::new());
    for _ in 0..n {
        let t = Instant::now();
        let mut c = McpClient::start(home)?;
        c.request("tools/list", json!({}))?;
        mcp.push(ms(t.elapsed()));
        c.finish();
        let t = Instant::now();
        let (mut b, _, _) = BridgeClient::session(home, "bench-cold")?;
        b.call("tools/list", json!({}))?;
        bridge.push(ms(t.elapsed()));
        drop(b);
        let t = Instant::now();
        Command::new(exe())
            .arg("--version")
            .output()
            .map_err(|e| BpError::internal(e.to_string()))?;
        process.push(ms(t.elapsed()));
    }
    println!(
        "bp mcp cold start to tools/list (broker warm; session made): {:.1} ms; bridge start + \
         session + tools/list {:.1} ms; process start alone {:.1} ms; goal < 100 ms",
        median(&mut mcp),
        median(&mut bridge),
        median(&mut process)
    );
    match playwright_mcp() {
        Some(program) => {
            let mut times = Vec::new();
            for _ in 0..n {
                let t = Instant::now();
                let mut c = McpClient::spawn(Command::new(&program))?;
                c.request("tools/list", json!({}))?;
                times.push(ms(t.elapsed()));
                c.finish();
            }
            println!(
                "@playwright/mcp cold start to tools/list ({}): {:.1} ms",
                program.display(),
                median(&mut times)
            );
        }
        None => println!(
            "@playwright/mcp: not found (set BP_BENCH_PLAYWRIGHT_MCP to its playwright-mcp, or put that on PATH), not measured"
        ),
    }
    Ok(())
}

/// The Playwright MCP server to compare with: `BP_BENCH_PLAYWRIGHT_MCP`,
/// or `playwright-mcp` (older releases: `mcp-server-playwright`) on PATH,
/// which `npm install @playwright/mcp` puts in `node_modules/.bin`. Its
/// `tools/list` launches no browser. `npx` itself would add its own start.
fn playwright_mcp() -> Option<std::path::PathBuf> {
    if let Some(p) = std::env::var_os("BP_BENCH_PLAYWRIGHT_MCP") {
        return Some(p.into());
    }
    let path = std::env::var_os("PATH")?;
    std::env::split_paths(&path)
        .flat_map(|d| [d.join("playwright-mcp"), d.join("mcp-server-playwright")])
        .find(|p| p.is_file())
}

/// Observe, type and click through each client, taking turns.
fn per_call(home: &Path, form_url: &str, n: usize) -> BpResult<()> {
    let mut mcp = McpClient::start(home)?;
    mcp.tool("browser.tabs.open", json!({"url": form_url}))?;
    let (mut bridge, ws, lease) = BridgeClient::session(home, "bench-mcp-floor")?;
    bridge.tool(&ws, &lease, "browser.tabs.open", json!({"url": form_url}))?;
    let mut times = [
        [Vec::new(), Vec::new(), Vec::new()],
        [Vec::new(), Vec::new(), Vec::new()],
    ];
    for i in 0..n {
        // Taking turns, each client going first every other round.
        for side in [i % 2, (i + 1) % 2] {
            let row = &mut times[side];
            let mut call = |name: &str, args: Value| -> BpResult<(f64, Value)> {
                let t = Instant::now();
                let v = if side == 0 {
                    mcp.tool(name, args)?
                } else {
                    bridge.tool(&ws, &lease, name, args)?
                };
                Ok((ms(t.elapsed()), v))
            };
            let (t_obs, obs) = call("browser.observe", json!({}))?;
            let id = obs["observationId"].clone();
            let name = find_ref_number(&obs, "textbox", "Name")?;
            let button = find_ref_number(&obs, "button", "Sign in")?;
            let (t_type, _) = call(
                "browser.type",
                json!({"observationId": id, "ref": name, "text": "Ada", "clear": true}),
            )?;
            let (t_click, _) = call("browser.click", json!({"observationId": id, "ref": button}))?;
            row[0].push(t_obs);
            row[1].push(t_type);
            row[2].push(t_click);
        }
    }
    mcp.finish();
    let [mut m, mut b] = times;
    let mut line = Vec::new();
    for (i, step) in ["observe", "type", "click"].iter().enumerate() {
        let (mm, bb) = (median(&mut m[i]), median(&mut b[i]));
        line.push(format!(
            "{step} {mm:.2} vs {bb:.2} ms ({:.2}x)",
            mm / bb.max(1e-9)
        ));
    }
    println!(
        "bp mcp per call against the bridge (median of {n}): {}; goal <= 1.05x",
        line.join(", ")
    );
    Ok(())
}
