//! Browser CPU while nothing happens: what a browser with several
//! workspaces costs the machine between an agent's steps. Through the
//! broker each workspace's first tab is a window of its own; the floor is
//! a browser of the bench's own, launched with the same flags, with as
//! many tabs in one window. The broker's own wake-ups are counted over the
//! same spell.

use super::{raw_target, BridgeClient};
use browser_pilot_host::discovery::procfs;
use browser_pilot_host::BpResult;
use serde_json::json;
use std::path::Path;
use std::time::Duration;

/// Workspaces (and tabs) kept open while the browser is idle.
const TABS: usize = 8;
/// How long the idle CPU is counted.
const WINDOW: Duration = Duration::from_secs(5);
/// Time for the tabs to finish loading before counting starts.
const SETTLE: Duration = Duration::from_secs(1);

pub(crate) async fn run(home: &Path, url: &str) -> BpResult<()> {
    let mut clients = Vec::new();
    for i in 0..TABS {
        let (mut b, ws, lease) = BridgeClient::session(home, &format!("bench-idle-{i}"))?;
        b.tool(&ws, &lease, "browser.tabs.open", json!({ "url": url }))?;
        clients.push((b, ws));
    }
    std::thread::sleep(SETTLE);
    let pid = super::broker_proc::broker_pid(home)?;
    let woken = wakeups(pid);
    let broker = cpu_seconds(&home.join("profiles"), WINDOW);
    let woken = wakeups(pid).saturating_sub(woken) as f64 / WINDOW.as_secs_f64();
    // Released, their windows close: nothing measured after this one
    // runs beside them.
    for (mut b, ws) in clients {
        b.call("workspaces/release", json!({ "workspaceId": ws }))?;
    }

    let (_browser, cdp, _) = raw_target(home, "profiles-idle-floor", url).await?;
    for _ in 1..TABS {
        super::cdp::create_target(&cdp, url).await?;
    }
    std::thread::sleep(SETTLE);
    let floor = cpu_seconds(&home.join("profiles-idle-floor"), WINDOW);
    let seconds = |s: Option<f64>| s.map_or("not available".into(), |s| format!("{s:.2} s"));
    println!(
        "browser CPU while idle for {:.0} s: {} with {TABS} more workspaces open \
         through the broker (a tab and a window each, beside the workflow's); floor {} \
         (a browser of the bench's own with {TABS} tabs in one window)",
        WINDOW.as_secs_f64(),
        seconds(broker),
        seconds(floor),
    );
    println!(
        "broker wake-ups over the same idle spell: {woken:.1} per s (its threads' voluntary \
         context switches; the wasm epoch ticker rests while no call runs)"
    );
    Ok(())
}

/// Voluntary context switches of all threads of process `pid` so far:
/// how often it has gone to sleep, and so been woken.
fn wakeups(pid: u64) -> u64 {
    let Ok(pid) = u32::try_from(pid) else {
        return 0;
    };
    per_thread_sum(pid, "status", |s| {
        procfs::parse_status_number(s, "voluntary_ctxt_switches")
    })
    .unwrap_or(0)
}

/// The sum over the threads `pid` has now of one figure read from each
/// thread's `/proc/PID/task/TID/FILE` by `field`; `None` where no thread
/// gave one. A thread that ends between two readings takes its share
/// with it, so a difference can come out short (callers saturate at 0).
fn per_thread_sum(pid: u32, file: &str, field: impl Fn(&str) -> Option<u64>) -> Option<u64> {
    let tasks = std::fs::read_dir(format!("/proc/{pid}/task")).ok()?;
    tasks
        .flatten()
        .filter_map(|t| std::fs::read_to_string(t.path().join(file)).ok())
        .filter_map(|text| field(&text))
        .reduce(u64::saturating_add)
}

/// CPU seconds that the browser processes with a profile in the
/// directory `root` use over `window`, process by process (one that ends
/// during the window takes its share with it); `None` when no such
/// process is running.
fn cpu_seconds(root: &Path, window: Duration) -> Option<f64> {
    let before = cpu_ticks(root);
    std::thread::sleep(window);
    let after = cpu_ticks(root);
    if after.is_empty() {
        return None;
    }
    // SAFETY: sysconf only reads a system constant.
    let hz = unsafe { libc::sysconf(libc::_SC_CLK_TCK) }.max(1) as f64;
    let used: u64 = after
        .iter()
        .map(|(pid, now)| now.saturating_sub(before.get(pid).copied().unwrap_or(0)))
        .sum();
    Some(used as f64 / hz)
}

/// User plus system clock ticks of every process whose profile
/// (`--user-data-dir`) is a directory in `root`: a browser and all its
/// children, by process ID.
fn cpu_ticks(root: &Path) -> std::collections::HashMap<u32, u64> {
    let proc_root = Path::new("/proc");
    procfs::pids(proc_root)
        .into_iter()
        .filter(|pid| {
            let dir = proc_root.join(pid.to_string());
            let args =
                procfs::parse_cmdline(&std::fs::read(dir.join("cmdline")).unwrap_or_default());
            procfs::parse_flags(&args)
                .user_data_dir
                .is_some_and(|profile| Path::new(&profile).parent() == Some(root))
        })
        .filter_map(|pid| {
            let stat =
                std::fs::read_to_string(proc_root.join(pid.to_string()).join("stat")).ok()?;
            Some((pid, procfs::parse_stat_cpu_ticks(&stat)?))
        })
        .collect()
}
