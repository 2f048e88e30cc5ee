//! What bp itself spends on a bridge step, apart from the browser: the
//! CPU time of the broker and of the `bp bridge` relay during each step,
//! and the fixed cost of one call, measured as a trivial call over the
//! bridge (`browser.eval` of `1`) against the same `Runtime.evaluate`
//! sent by the floor on the same tab.
//!
//! A step's wall time moves by half a millisecond from run to run on a
//! loaded 2-core machine, which is as much as bp adds to it; these
//! figures move far less, so they show what a change to bp's own path
//! saves or costs.

use super::floor::FloorTab;
use super::{median, BridgeClient, Times};
use browser_pilot_host::BpResult;
use serde_json::json;

/// CPU time, in ms, that process `pid` has used: its CPU-time clock,
/// which counts threads that have ended as well as the running ones.
/// `None` where the system does not give it.
pub(crate) fn process_cpu_ms(pid: u32) -> Option<f64> {
    let pid = libc::pid_t::try_from(pid).ok()?;
    let mut clock: libc::clockid_t = 0;
    // SAFETY: the out-pointer is valid for the call.
    if unsafe { libc::clock_getcpuclockid(pid, &mut clock) } != 0 {
        return None;
    }
    let mut now = libc::timespec {
        tv_sec: 0,
        tv_nsec: 0,
    };
    // SAFETY: the out-pointer is valid for the call.
    if unsafe { libc::clock_gettime(clock, &mut now) } != 0 {
        return None;
    }
    Some(now.tv_sec as f64 * 1e3 + now.tv_nsec as f64 / 1e6)
}

/// The CPU the broker and the relay used over one step.
pub(crate) struct StepCpu {
    broker: Option<(u32, f64)>,
    relay: Option<(u32, f64)>,
}

impl StepCpu {
    /// Start counting for the processes `b` talks through.
    pub(crate) fn start(b: &BridgeClient) -> Self {
        let read = |pid: Option<u32>| pid.and_then(|p| Some((p, process_cpu_ms(p)?)));
        Self {
            broker: read(b.broker_pid),
            relay: read(Some(b.relay_pid())),
        }
    }

    /// Record the CPU used since `start` into step `i` of `broker` and
    /// `relay` (nothing where a reading failed).
    pub(crate) fn finish(self, i: usize, broker: &mut Times, relay: &mut Times) {
        let since = |start: Option<(u32, f64)>| {
            let (pid, then) = start?;
            Some(process_cpu_ms(pid)? - then)
        };
        if let (Some(used), Some(times)) = (since(self.broker), broker.get_mut(i)) {
            times.push(used);
        }
        if let (Some(used), Some(times)) = (since(self.relay), relay.get_mut(i)) {
            times.push(used);
        }
    }
}

/// `calls` trivial calls each way, taking turns: `browser.eval` of `1`
/// over the bridge, and `Runtime.evaluate` of `1` by the floor on the
/// bridge's tab. Returns both lists of times (ms).
pub(crate) async fn per_call(
    b: &mut BridgeClient,
    (ws, lease): (&str, &str),
    floor: FloorTab<'_>,
    calls: usize,
) -> BpResult<(Vec<f64>, Vec<f64>)> {
    super::steady::taking_turns(
        calls,
        |_| {
            b.tool(ws, lease, "browser.eval", json!({"expression": "1"}))
                .map(drop)
        },
        async |_| floor.evaluate("1").await.map(drop),
    )
    .await
}

/// Print bp's own cost: CPU per bridge step (medians), and the trivial
/// call each way with the median of the paired differences.
pub(crate) fn print(
    steps: &[&str],
    broker: &mut Times,
    relay: &mut Times,
    calls: &mut (Vec<f64>, Vec<f64>),
) {
    let row = |label: &str, times: &mut Times| {
        let cells: Vec<String> = steps
            .iter()
            .zip(times.iter_mut())
            .filter(|(_, t)| !t.is_empty())
            .map(|(step, t)| format!("{step} {:.2}", median(t)))
            .collect();
        if cells.is_empty() {
            println!("{label}: not available here (no process CPU-time clock)");
        } else {
            println!("{label}: {}", cells.join(", "));
        }
    };
    println!("bp's own cost per bridge step, apart from the browser (medians, ms):");
    row("  broker CPU", broker);
    row("  bp bridge relay CPU", relay);
    let mut gaps: Vec<f64> = calls.0.iter().zip(&calls.1).map(|(b, d)| b - d).collect();
    let (b, d, gap) = (
        median(&mut calls.0),
        median(&mut calls.1),
        median(&mut gaps),
    );
    println!(
        "  a trivial call on the bridge's tab, x{}: `browser.eval` of 1 over the bridge {b:.2}, \
         `Runtime.evaluate` of 1 from the floor {d:.2}; bp adds {gap:.2} a call",
        gaps.len()
    );
}
