//! `bp soak`: many bridge clients, each on its own tab, making mixed calls
//! against a broker-launched headless Chromium; then what was left behind.
//! It prints numbers and asserts nothing.

use crate::bench::{bp, ms, serve_fixtures, BridgeClient, Cleanup};
use browser_pilot_host::{BpError, BpResult};
use serde_json::{json, Value};
use std::collections::BTreeMap;
use std::path::{Path, PathBuf};
use std::time::{Duration, Instant};

/// What one client saw.
#[derive(Default)]
struct Tally {
    latencies_ms: Vec<f64>,
    /// Error replies by stable code (`ok` not counted).
    codes: BTreeMap<String, u64>,
}

/// The broker's footprint at one moment.
struct Footprint {
    rss_mib: f64,
    fds: usize,
    open_tabs: u64,
    sessions: u64,
    connections: u64,
}

pub async fn run(
    clients: usize,
    calls: usize,
    rounds: usize,
    fixtures: Option<PathBuf>,
) -> BpResult<()> {
    let fixtures = fixtures.unwrap_or_else(|| PathBuf::from("fixtures/pages"));
    if !fixtures.join("form.html").is_file() {
        return Err(BpError::invalid(format!(
            "{} has no form.html; pass --fixtures DIR",
            fixtures.display()
        )));
    }
    let home = std::env::temp_dir().join(format!("bp-soak-{}", std::process::id()));
    let (server, port) = serve_fixtures(&fixtures)?;
    let _cleanup = Cleanup {
        children: vec![server],
        home: home.clone(),
    };
    let base = format!("http://127.0.0.1:{port}/");
    bp(&home, &["connect", "--launch", "--headless"])?;
    let before = footprint(&home)?;
    // Later rounds tell growth that levels off (allocator reuse) from a
    // leak (growth every round).
    for round in 1..=rounds.max(1) {
        let started = Instant::now();
        let all = round_of(&home, &base, clients, calls)?;
        let elapsed = started.elapsed();
        let after = settled_footprint(&home, &before)?;
        if rounds > 1 {
            println!("round {round}:");
        }
        report(clients, calls, elapsed, all, &before, &after);
    }
    Ok(())
}

/// `clients` clients side by side, each making `calls` calls.
fn round_of(home: &Path, base: &str, clients: usize, calls: usize) -> BpResult<Tally> {
    let workers: Vec<_> = (0..clients)
        .map(|i| {
            let (home, base) = (home.to_path_buf(), base.to_string());
            std::thread::spawn(move || client(&home, &base, i, calls))
        })
        .collect();
    let mut all = Tally::default();
    for w in workers {
        let t = w
            .join()
            .map_err(|_| BpError::internal("a soak client panicked"))??;
        all.latencies_ms.extend(t.latencies_ms);
        for (code, n) in t.codes {
            *all.codes.entry(code).or_default() += n;
        }
    }
    Ok(all)
}

/// One client: a workspace, a lease, a tab, `calls` mixed calls, release.
fn client(home: &Path, base: &str, index: usize, calls: usize) -> BpResult<Tally> {
    let (mut b, ws, lease) = BridgeClient::session(home, &format!("soak-{index}"))?;
    let form = format!("{base}form.html");
    b.tool(&ws, &lease, "browser.tabs.open", json!({"url": form}))?;
    let mut tally = Tally::default();
    let mut obs = Value::Null;
    for n in 0..calls {
        // Like any real client, keep the lease alive.
        if n % 50 == 49 {
            b.call("leases/heartbeat", json!({"leaseId": lease}))?;
        }
        let (tool, args) = next_call(n, &obs, &form);
        let t = Instant::now();
        let reply = b.call(
            "tools/call",
            json!({"name": tool, "arguments": args, "workspaceId": ws, "leaseId": lease}),
        );
        tally.latencies_ms.push(ms(t.elapsed()));
        match reply {
            Ok(r) => match r["error"]["code"].as_str() {
                Some(code) => *tally.codes.entry(code.to_string()).or_default() += 1,
                None if tool == "browser.observe" => obs = r["result"].clone(),
                None if tool == "browser.screenshot" => release_capture(&mut b, &r["result"]),
                None => {}
            },
            Err(e) => {
                *tally
                    .codes
                    .entry(format!("rpc: {}", e.message))
                    .or_default() += 1
            }
        }
    }
    b.call("workspaces/release", json!({"workspaceId": ws}))?;
    Ok(tally)
}

/// The call mix: mostly observe and type, some reads, navigations, tab
/// lists, journal reads and screenshots.
fn next_call(n: usize, obs: &Value, form: &str) -> (&'static str, Value) {
    let name_ref = obs["elements"]
        .as_array()
        .into_iter()
        .flatten()
        .find(|e| e["role"] == "textbox" && e["name"] == "Name")
        .map(|e| e["ref"].clone());
    match (n % 10, name_ref) {
        (0 | 4 | 7, _) | (_, None) => ("browser.observe", json!({})),
        (1 | 5, Some(r)) => (
            "browser.type",
            json!({"observationId": obs["observationId"], "ref": r, "text": "Ada", "clear": true}),
        ),
        (2, _) => ("browser.read", json!({"maxChars": 500})),
        (3, _) => ("browser.tabs.list", json!({})),
        (6, _) => ("browser.navigate", json!({"url": form})),
        (8, _) => ("browser.network.log", json!({"limit": 20})),
        _ => ("browser.screenshot", json!({})),
    }
}

/// Screenshots are released at once, so the soak measures leaks, not the
/// artifact store's quota.
fn release_capture(b: &mut BridgeClient, result: &Value) {
    for key in ["artifact", "preview"] {
        if let Some(id) = result[key]["artifactId"].as_str() {
            let _ = b.call("artifacts/release", json!({"artifactId": id}));
        }
    }
}

fn footprint(home: &Path) -> BpResult<Footprint> {
    let (_, status) = bp(home, &["broker", "status"])?;
    let pid = status["pid"]
        .as_u64()
        .ok_or_else(|| BpError::internal("no broker pid"))?;
    let fds = std::fs::read_dir(format!("/proc/{pid}/fd"))
        .map_err(|e| BpError::internal(format!("reading the broker's fds: {e}")))?
        .count();
    let targets = &status["browser"]["targets"];
    Ok(Footprint {
        rss_mib: crate::bench::broker_rss(home)?,
        fds,
        open_tabs: targets["open"].as_u64().unwrap_or(0),
        sessions: targets["attached"].as_u64().unwrap_or(0),
        // This status request's own connection is counted too.
        connections: status["connections"].as_u64().unwrap_or(0),
    })
}

/// The footprint once the clients' connections have closed and the
/// browser has reported their tabs gone (bounded wait: a leak shows as
/// what stays after 10 s).
fn settled_footprint(home: &Path, before: &Footprint) -> BpResult<Footprint> {
    let until = Instant::now() + Duration::from_secs(10);
    loop {
        let f = footprint(home)?;
        let settled = f.connections <= before.connections
            && f.open_tabs <= before.open_tabs
            && f.sessions <= before.sessions;
        if settled || Instant::now() >= until {
            return Ok(f);
        }
        std::thread::sleep(Duration::from_millis(100));
    }
}

fn percentile(sorted: &[f64], p: f64) -> f64 {
    let i = ((sorted.len() as f64 - 1.0) * p).round() as usize;
    sorted.get(i).copied().unwrap_or(f64::NAN)
}

fn report(
    clients: usize,
    calls: usize,
    elapsed: Duration,
    mut all: Tally,
    before: &Footprint,
    after: &Footprint,
) {
    all.latencies_ms.sort_by(f64::total_cmp);
    let total = all.latencies_ms.len();
    println!(
        "soak: {clients} bridge clients x {calls} mixed calls, each on its own tab: {total} calls in {:.1} s ({:.0} calls/s)",
        elapsed.as_secs_f64(),
        total as f64 / elapsed.as_secs_f64().max(1e-9)
    );
    println!(
        "latency: p50 {:.1} ms, p99 {:.1} ms, max {:.1} ms",
        percentile(&all.latencies_ms, 0.5),
        percentile(&all.latencies_ms, 0.99),
        all.latencies_ms.last().copied().unwrap_or(f64::NAN)
    );
    let codes: Vec<String> = all.codes.iter().map(|(c, n)| format!("{c} {n}")).collect();
    println!(
        "errors by code: {}",
        if codes.is_empty() {
            "none".to_string()
        } else {
            codes.join(", ")
        }
    );
    let leak = |a: u64, b: u64| a.saturating_sub(b);
    println!(
        "leaked: tabs {}, DevTools sessions {}, broker file descriptors {} ({} before, {} after), connections {}",
        leak(after.open_tabs, before.open_tabs),
        leak(after.sessions, before.sessions),
        after.fds.saturating_sub(before.fds),
        before.fds,
        after.fds,
        leak(after.connections, before.connections)
    );
    println!(
        "broker RSS: {:.1} MiB before, {:.1} MiB after",
        before.rss_mib, after.rss_mib
    );
}
