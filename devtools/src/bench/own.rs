//! `bp bench`, the user's-own-browser part: discovery time with 0, 1 and 3
//! user browsers running, attach time (`bp connect` to a running browser)
//! and the janitor's cleanup latency after the broker is `SIGKILL`ed.

use super::{bp, median, ms};
use browser_pilot_host::cdp::Cdp;
use browser_pilot_host::discovery;
use browser_pilot_host::{BpError, BpResult};
use chromiumoxide::cdp::browser_protocol::target::{
    CloseTargetParams, SetDiscoverTargetsParams, TargetId,
};
use serde_json::Value;
use std::path::{Path, PathBuf};
use std::process::Child;
use std::sync::Arc;
use std::time::{Duration, Instant};

/// A Chromium started as a user starts one (not by the broker).
struct UserBrowser {
    child: Child,
    profile: PathBuf,
    port: u16,
}

impl UserBrowser {
    fn start(dir: &Path, n: usize, url: &str) -> BpResult<Self> {
        let exe = browser_pilot_host::cdp::launch::find_executable()?;
        let profile = dir.join(format!("user-{n}"));
        std::fs::create_dir_all(&profile).map_err(|e| BpError::internal(e.to_string()))?;
        let child = browser_pilot_host::cdp::launch::spawn_user_like(&exe, &profile, url)
            .map_err(|e| BpError::internal(format!("start chromium: {e}")))?;
        let started = Instant::now();
        let port = loop {
            let text = std::fs::read_to_string(profile.join("DevToolsActivePort"));
            if let Some(p) = text
                .ok()
                .and_then(|t| t.lines().next()?.trim().parse().ok())
            {
                break p;
            }
            if started.elapsed() > Duration::from_secs(20) {
                return Err(BpError::internal(
                    "chromium did not write DevToolsActivePort",
                ));
            }
            std::thread::sleep(Duration::from_millis(10));
        };
        Ok(Self {
            child,
            profile,
            port,
        })
    }

    fn ws_url(&self) -> Option<String> {
        let text = std::fs::read_to_string(self.profile.join("DevToolsActivePort")).ok()?;
        let path = text.lines().nth(1)?.trim().to_string();
        Some(format!("ws://127.0.0.1:{}{path}", self.port))
    }
}

impl Drop for UserBrowser {
    fn drop(&mut self) {
        // SAFETY: signalling the process group this benchmark started.
        unsafe {
            libc::kill(-(self.child.id() as i32), libc::SIGKILL);
        }
        let _ = self.child.wait();
    }
}

/// Median of `runs` in-process discoveries.
fn discovery_ms(runs: usize) -> f64 {
    let mut t: Vec<f64> = (0..runs)
        .map(|_| {
            let start = Instant::now();
            let _ = discovery::discover();
            ms(start.elapsed())
        })
        .collect();
    median(&mut t)
}

/// Run the measurements and print them.
pub async fn run(home: &Path, url: &str, iterations: usize) -> BpResult<()> {
    let dir = home.join("own-browsers");
    let mut browsers: Vec<UserBrowser> = Vec::new();
    let mut discovery = Vec::new();
    for want in [0usize, 1, 3] {
        while browsers.len() < want {
            browsers.push(UserBrowser::start(&dir, browsers.len(), url)?);
        }
        discovery.push((want, discovery_ms(20)));
    }
    // Attach to the first of them, by ID.
    let id = discovery::discover()
        .into_iter()
        .find(|c| {
            browsers
                .first()
                .is_some_and(|b| c.pid == Some(b.child.id()))
        })
        .map(|c| c.id)
        .ok_or_else(|| BpError::internal("the benchmark's browser was not discovered"))?;
    bp(home, &["tool", "list"])?;
    let mut attach = Vec::new();
    for _ in 0..iterations {
        let (t, _) = bp(home, &["connect", "--browser", &id])?;
        attach.push(ms(t));
        // The tool, not `bp disconnect`: that would stop the broker too.
        bp(home, &["tool", "call", "browser.disconnect"])?;
    }
    let mut cleanup = Vec::new();
    let first = browsers
        .first()
        .ok_or_else(|| BpError::internal("no browser"))?;
    let ws = first
        .ws_url()
        .ok_or_else(|| BpError::internal("no DevToolsActivePort"))?;
    // The floors: a bare DevTools client connecting, and closing a tab.
    let mut attach_floor = Vec::new();
    for _ in 0..iterations {
        let start = Instant::now();
        let c = Cdp::connect(&ws, Arc::new(|_| {})).await?;
        let discover = SetDiscoverTargetsParams {
            discover: true,
            filter: None,
        };
        c.send(&discover, None).await?;
        attach_floor.push(ms(start.elapsed()));
        c.close();
    }
    let cdp = Cdp::connect(&ws, Arc::new(|_| {})).await?;
    let mut close_floor = Vec::new();
    for _ in 0..iterations.clamp(1, 5) {
        let made = super::cdp::create_target(&cdp, "about:blank").await?;
        let before = page_ids(&cdp).await?;
        let start = Instant::now();
        cdp.send(&CloseTargetParams::new(TargetId::new(made)), None)
            .await?;
        while page_ids(&cdp).await?.len() >= before.len() {
            if start.elapsed() > Duration::from_secs(10) {
                return Err(BpError::internal("a closed tab stayed"));
            }
            tokio::time::sleep(Duration::from_millis(2)).await;
        }
        close_floor.push(ms(start.elapsed()));
    }
    for _ in 0..iterations.clamp(1, 5) {
        bp(home, &["connect", "--browser", &id])?;
        let (_, opened) = bp(home, &["open", url])?;
        let before = page_ids(&cdp).await?;
        let pid = broker_pid(home).ok_or_else(|| BpError::internal("no broker locator"))?;
        let start = Instant::now();
        // SAFETY: the broker this benchmark started.
        unsafe {
            libc::kill(pid, libc::SIGKILL);
        }
        loop {
            let now = page_ids(&cdp).await?;
            if now.len() < before.len() {
                break;
            }
            if start.elapsed() > Duration::from_secs(10) {
                return Err(BpError::internal(format!(
                    "the janitor did not close the managed tab ({opened})"
                )));
            }
            tokio::time::sleep(Duration::from_millis(2)).await;
        }
        cleanup.push(ms(start.elapsed()));
        // Let the stale locator be found dead before the next round.
        tokio::time::sleep(Duration::from_millis(50)).await;
    }
    println!("\nuser's own browser (started like a user does, --remote-debugging-port=0)");
    for (n, t) in discovery {
        println!("discovery with {n} user browser(s) running: {t:.2} ms");
    }
    let (a, af) = (median(&mut attach), median(&mut attach_floor));
    println!(
        "attach (a `bp connect --browser ID` process, warm broker): {a:.1} ms; floor (a DevTools connect and setDiscoverTargets inside the bench: no process start, none of the attach's checks): {af:.1} ms; {:.2}x",
        a / af
    );
    let (c, cf) = (median(&mut cleanup), median(&mut close_floor));
    println!(
        "janitor cleanup after SIGKILL of the broker: {c:.1} ms until its tab is gone; floor (closeTarget): {cf:.1} ms; {:.2}x",
        c / cf
    );
    Ok(())
}

async fn page_ids(cdp: &Cdp) -> BpResult<Vec<String>> {
    let reply = super::cdp::targets(cdp).await?;
    Ok(reply["targetInfos"]
        .as_array()
        .into_iter()
        .flatten()
        .filter(|t| t["type"] == "page")
        .filter_map(|t| t["targetId"].as_str().map(str::to_string))
        .collect::<Vec<_>>())
}

fn broker_pid(home: &Path) -> Option<i32> {
    let text = std::fs::read(home.join("broker.json")).ok()?;
    let v: Value = serde_json::from_slice(&text).ok()?;
    v["pid"].as_i64().and_then(|p| i32::try_from(p).ok())
}
