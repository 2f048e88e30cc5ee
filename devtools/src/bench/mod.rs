//! `bp bench`: the broker's cold start, the form workflow (navigate,
//! observe, type, click, observe) through the one-shot CLI, the bridge and
//! direct CDP as the floor (`bench/workflow.rs`), then the speed goals
//! (`bench/speed.rs`) and the user's own browser (`bench/own.rs`). Prints
//! numbers; asserts nothing.

mod bridge_client;
mod broker_proc;
mod cdp;
mod cost;
mod floor;
mod headline;
mod idle;
mod interactions;
mod mcp;
mod mcp_client;
mod own;
mod page_tools;
mod speed;
mod steady;
mod workflow;

// The only ways in from outside the bench: the internal floor step (the
// hidden `bench-floor` command) and the soak command's measurements.
pub(crate) use bridge_client::BridgeClient;
pub(crate) use broker_proc::broker_rss;
use browser_pilot_host::cdp::launch;
use browser_pilot_host::cdp::Cdp;
use browser_pilot_host::client::Client;
use browser_pilot_host::system::paths::Paths;
use browser_pilot_host::{BpError, BpResult};
pub use floor::one_step;
use serde_json::{json, Value};
use std::path::{Path, PathBuf};
use std::process::{Child, Command, Stdio};
use std::sync::Arc;
use std::time::{Duration, Instant};

/// Per step, the times of one client.
pub(crate) type Times = Vec<Vec<f64>>;

pub(crate) const STEPS: [&str; 5] = ["navigate", "observe", "type", "click", "observe2"];

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

/// The `bp` beside this executable (what users type), or this one.
pub(crate) fn short_exe() -> PathBuf {
    let short = exe().with_file_name("bp");
    if short.is_file() {
        short
    } else {
        exe()
    }
}

pub(crate) fn median(v: &mut [f64]) -> f64 {
    v.sort_by(|a, b| a.total_cmp(b));
    v.get(v.len() / 2).copied().unwrap_or(f64::NAN)
}

pub(crate) fn ms(d: Duration) -> f64 {
    d.as_secs_f64() * 1000.0
}

/// Serve `dir` on a loopback port the system picks as the server binds
/// (it names the port once it listens), so that no other process can
/// take the port between its choice and the bind.
pub(crate) fn serve_fixtures(dir: &Path) -> BpResult<(Child, u16)> {
    use std::io::BufRead;
    let mut child = Command::new("python3")
        .args([
            "-u",
            "-m",
            "http.server",
            "--bind",
            "127.0.0.1",
            "0",
            "--directory",
        ])
        .arg(dir)
        .stdout(Stdio::piped())
        .stderr(Stdio::null())
        .spawn()
        .map_err(|e| BpError::internal(format!("python3 http.server: {e}")))?;
    // "Serving HTTP on 127.0.0.1 port 43117 (http://127.0.0.1:43117/) ..."
    let mut line = String::new();
    if let Some(out) = child.stdout.take() {
        let _ = std::io::BufReader::new(out).read_line(&mut line);
    }
    let port = line
        .split_whitespace()
        .skip_while(|w| *w != "port")
        .nth(1)
        .and_then(|p| p.parse().ok());
    match port {
        Some(port) => Ok((child, port)),
        None => {
            let _ = child.kill();
            let _ = child.wait();
            Err(BpError::internal(format!(
                "the fixture server did not start (it printed {line:?})"
            )))
        }
    }
}

/// Run `bp ARGS --json` in the bench home; returns (elapsed, parsed JSON).
pub(crate) fn bp(home: &Path, args: &[&str]) -> BpResult<(Duration, Value)> {
    run_exe(&exe(), home, args)
}

/// Run `EXE ARGS --json` in the bench home.
pub(crate) fn run_exe(exe: &Path, home: &Path, args: &[&str]) -> BpResult<(Duration, Value)> {
    let start = Instant::now();
    let out = Command::new(exe)
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

pub(crate) fn find_ref(obs: &Value, role: &str, name: &str) -> BpResult<String> {
    obs["elements"]
        .as_array()
        .into_iter()
        .flatten()
        .find(|e| e["role"] == role && e["name"] == name)
        .map(|e| e["ref"].to_string())
        .ok_or_else(|| BpError::internal(format!("no {role} {name:?} in the observation")))
}

/// [`find_ref`] as the number a tool call takes.
pub(crate) fn find_ref_number(obs: &Value, role: &str, name: &str) -> BpResult<u64> {
    let found = find_ref(obs, role, name)?;
    found
        .parse()
        .map_err(|_| BpError::internal(format!("the {role} {name:?} has no numeric ref ({found})")))
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

pub async fn run(
    iterations: usize,
    fixtures: Option<PathBuf>,
    workflow_only: bool,
    page_tools_only: bool,
) -> BpResult<()> {
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
    if page_tools_only {
        let base = format!("http://127.0.0.1:{port}/");
        return self::page_tools::run(&home, &base, iterations.max(1)).await;
    }

    let cold_first = cold_start(&home).await?;
    let cold_cached = cold_start(&home).await?;

    // The clients (one-shot, bridge, and both floors) take turns, one
    // iteration each, so a drift in the machine's speed weighs on all of
    // them alike.
    let (_, connected) = bp(&home, &["connect", "--launch", "--headless"])?;
    let endpoint = connected["connection"]["endpoint"]
        .as_str()
        .ok_or_else(|| BpError::internal("connect named no endpoint"))?;
    let rounds = self::workflow::interleaved(&home, endpoint, &url, iterations.max(1)).await?;
    // Per-iteration sums, taken before the medians below sort the steps'
    // times: a step can leave the page work that the next step pays for
    // (layout after typing, say), so steps are also compared together.
    let together = [
        Together::of("nav+obs", &[0, 1], &rounds),
        Together::of("type+click", &[2, 3], &rounds),
        Together::of("workflow", &[0, 1, 2, 3, 4], &rounds),
    ];
    let (mut cli, mut bridge, direct) = (rounds.one_shot, rounds.bridge, rounds.floor);
    let mut keyboard = bridge_keyboard(&home, &url, iterations.max(1))?;
    if !workflow_only {
        self::speed::run(&home, &url, iterations.max(1)).await?;
        let base = format!("http://127.0.0.1:{port}/");
        self::page_tools::run(&home, &base, iterations.max(1)).await?;
    }
    bp(&home, &["broker", "stop", "--force"]).ok();

    println!("Browser Pilot benchmark: form workflow x{iterations} (medians, ms)");
    println!("broker start to ready socket: {cold_first:.1} ms in a fresh home, {cold_cached:.1} ms the second time (default components ship precompiled)");
    println!(
        "per step through each client beside the raw-CDP floor (a fresh document each round):"
    );
    self::headline::Headline::of(&cli, &bridge, &rounds.mcp, &direct).print();
    println!("against a CDP floor that checks as bp does (focus read by the call that gives it, the value read back; the pointer moved before the press and the page read after):");
    against_floor(
        &["type", "click"],
        &rounds.floor_careful,
        &mut cli,
        &mut bridge,
    );
    println!("against that careful floor with the Network domain on (bp keeps it on in every tab for the request journal):");
    against_floor(&STEPS, &rounds.floor_journal, &mut cli, &mut bridge);
    println!("against that careful floor on the bridge's own tab (same browser, renderer and page, bp's domains on; it and the bridge take turns going first):");
    against_floor(&STEPS, &rounds.floor_same_tab, &mut cli, &mut bridge);
    println!("the same, steps summed within each iteration before the median (work one step leaves, the next pays):");
    for mut t in together {
        against_row(
            t.label,
            median(&mut t.one_shot),
            median(&mut t.bridge),
            median(&mut t.floor),
        );
    }
    println!("each step against that careful floor taking over for that step alone, after the bridge took the steps before it (both start it from the page bp's previous step left):");
    against_floor(&STEPS[1..], &rounds.floor_takeover, &mut cli, &mut bridge);
    let (mut broker_cpu, mut relay_cpu, mut calls) =
        (rounds.broker_cpu, rounds.relay_cpu, rounds.calls);
    self::cost::print(&STEPS, &mut broker_cpu, &mut relay_cpu, &mut calls);
    let mut steady = rounds.steady;
    self::steady::print(&mut steady);
    let mut interactions = rounds.interactions;
    self::steady::print_titled(
        "the interaction tools on their fixture pages, the bridge and a raw-CDP floor on its tab taking turns call by call (the floor makes the same change and one read of it; medians, ms):",
        &mut interactions,
    );
    let (mut full, mut processes) = (rounds.one_shot_full, rounds.floor_one_shot);
    one_shot_floor(&mut cli, &mut full, &mut processes);
    let k = median(&mut keyboard);
    println!(
        "keyboard: {} keys in {k:.1} ms over the bridge ({:.2} ms per key, each checked against document, dialog and focus)",
        KEYS.len(),
        k / KEYS.len() as f64
    );
    if !workflow_only {
        self::own::run(&home, &url, iterations.max(1)).await?;
    }
    drop(cleanup);
    Ok(())
}

/// Steps summed within each iteration, for the one-shot CLI, the bridge
/// and the careful floor on the bridge's own tab.
struct Together {
    label: &'static str,
    one_shot: Vec<f64>,
    bridge: Vec<f64>,
    floor: Vec<f64>,
}

impl Together {
    fn of(label: &'static str, steps: &[usize], rounds: &self::workflow::Rounds) -> Self {
        Self {
            label,
            one_shot: per_round_sums(&rounds.one_shot, steps),
            bridge: per_round_sums(&rounds.bridge, steps),
            floor: per_round_sums(&rounds.floor_same_tab, steps),
        }
    }
}

/// For each round (as far as every step has one), the sum of `steps`'
/// times in it.
fn per_round_sums(times: &Times, steps: &[usize]) -> Vec<f64> {
    let rounds = steps.iter().map(|&i| times.get(i).map_or(0, Vec::len));
    let n = rounds.min().unwrap_or(0);
    (0..n)
        .map(|k| steps.iter().filter_map(|&i| times.get(i)?.get(k)).sum())
        .collect()
}

/// One row: the one-shot and bridge medians beside a floor's, and their
/// ratios to it.
fn against_row(step: &str, one_shot: f64, bridge: f64, floor: f64) {
    println!(
        "{step:<10} {one_shot:>10.1} {bridge:>10.1} {floor:>10.1} {:>8.2}x {:>8.2}x",
        one_shot / floor,
        bridge / floor
    );
}

/// The rows of `steps` against another floor's times.
fn against_floor(steps: &[&str], floor: &Times, cli: &mut Times, bridge: &mut Times) {
    for step in steps {
        let i = STEPS.iter().position(|s| s == step).unwrap_or(0);
        let f = median(&mut floor[i].clone());
        against_row(step, median(&mut cli[i]), median(&mut bridge[i]), f);
    }
}

/// The one-shot column, and the same through `browser-pilot`, against the
/// floor that also starts a process per step (and checks as `bp` does).
fn one_shot_floor(cli: &mut [Vec<f64>], full: &mut [Vec<f64>], floor: &mut [Vec<f64>]) {
    println!("one-shot against a CDP floor that is also a process per step (`browser-pilot bench-floor`: connect to a browser of its own, attach to the tab, take the step checking as bp does):");
    if short_exe() == exe() {
        println!("(no `bp` beside this executable: the bp column runs browser-pilot too)");
    }
    println!(
        "{:<10} {:>10} {:>14} {:>10} {:>9} {:>14}",
        "step", "bp", "browser-pilot", "CDP floor", "bp", "browser-pilot"
    );
    let mut totals = [0.0; 3];
    for (i, step) in STEPS.iter().enumerate() {
        let row = [
            median(&mut cli[i]),
            median(&mut full[i]),
            median(&mut floor[i]),
        ];
        for (t, v) in totals.iter_mut().zip(row) {
            *t += v;
        }
        one_shot_row(step, row);
    }
    one_shot_row("workflow", totals);
}

fn one_shot_row(step: &str, [short, full, floor]: [f64; 3]) {
    println!(
        "{step:<10} {short:>10.1} {full:>14.1} {floor:>10.1} {:>8.2}x {:>13.2}x",
        short / floor,
        full / floor
    );
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
        let name = find_ref_number(&obs, "textbox", "Name")?;
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

/// A browser of the bench's own (no broker) under `home/profiles`, with
/// one tab at `url`: (browser, connection, the tab's target ID).
pub(crate) async fn raw_target(
    home: &Path,
    profiles: &str,
    url: &str,
) -> BpResult<(launch::LaunchedBrowser, Cdp, String)> {
    let browser = launch::launch(
        None,
        true,
        browser_pilot_host::cdp::window_size::WindowSize::default(),
        &home.join(profiles),
        None,
    )
    .await?;
    let cdp = Cdp::connect(&browser.ws_url, Arc::new(|_| {})).await?;
    let target = cdp::create_target(&cdp, url).await?;
    Ok((browser, cdp, target))
}

/// [`raw_target`], attached: (browser, connection, the tab's session).
pub(crate) async fn raw_tab(
    home: &Path,
    profiles: &str,
    url: &str,
) -> BpResult<(launch::LaunchedBrowser, Cdp, String)> {
    let (browser, cdp, target) = raw_target(home, profiles, url).await?;
    let session = self::floor::attach(&cdp, &target).await?;
    Ok((browser, cdp, session))
}

#[cfg(test)]
mod tests {
    use super::{median, per_round_sums};

    #[test]
    fn steps_are_summed_within_each_round_before_the_median() {
        // Step 0 is slow where step 1 is quick, round by round: the sums
        // are flat, where the sum of the two medians is not.
        let times = vec![vec![1.0, 5.0, 1.0], vec![5.0, 1.0, 5.0], vec![9.0, 9.0]];
        let mut both = per_round_sums(&times, &[0, 1]);
        assert_eq!(both, vec![6.0, 6.0, 6.0]);
        assert_eq!(median(&mut both), 6.0);
        // Only the rounds every step has; a missing step has none.
        assert_eq!(per_round_sums(&times, &[0, 2]), vec![10.0, 14.0]);
        assert!(per_round_sums(&times, &[0, 7]).is_empty());
    }
}
