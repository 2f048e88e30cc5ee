//! Each step of the form workflow repeated on a settled page, over the
//! bridge and by the careful floor on the bridge's tab, taking turns call
//! by call, with a confidence interval on their ratio.
//!
//! In the workflow a step is timed once a round, right after the steps
//! before it, and its time on this machine spreads over a factor of two
//! or more from one round to the next; with tens of rounds, the ratio of
//! two medians is then known only to within 15 to 25% either way, too
//! loosely to tell 1.05x from 1.15x. Here each quick step is repeated
//! hundreds of times on the same page (the field typed into again, the
//! button clicked again), so its interval is about ±3% wide; the page is
//! loaded 60 times each way, for about ±6%. What one step leaves for the
//! next is left to the workflow's rows.

use super::floor::FloorTab;
use super::{find_ref_number, median, ms, BridgeClient};
use browser_pilot_host::BpResult;
use serde_json::{json, Value};
use std::time::Instant;

/// How many calls each way for a quick step, and for a navigation.
const PAIRS: usize = 300;
const NAVIGATIONS: usize = 60;

/// Resamples of the bootstrap interval.
const RESAMPLES: usize = 2000;

/// The goal for a bridge step: at most this times the floor.
const GOAL_RATIO: f64 = 1.1;

/// One step's times each way (ms).
pub(crate) struct SteadyStep {
    step: &'static str,
    bridge: Vec<f64>,
    floor: Vec<f64>,
}

/// The workflow's steps, each repeated with the bridge and the floor
/// taking turns going first: navigate, observe, type, click.
pub(crate) async fn run(
    b: &mut BridgeClient,
    (ws, lease): (&str, &str),
    floor: FloorTab<'_>,
    url: &str,
) -> BpResult<Vec<SteadyStep>> {
    let mut steps = Vec::new();
    let navigate = json!({"url": url});
    let (bridge, floor_times) = taking_turns(
        NAVIGATIONS,
        |_| {
            b.tool(ws, lease, "browser.navigate", navigate.clone())
                .map(drop)
        },
        async |_| floor.navigate(url).await,
    )
    .await?;
    steps.push(SteadyStep::new("navigate", (bridge, floor_times)));
    // The page is loaded once more by the bridge, and what the steps act
    // on is found.
    b.tool(ws, lease, "browser.navigate", navigate)?;
    let seen = b.tool(ws, lease, "browser.observe", json!({}))?;
    let target = |role: &str, name: &str| -> BpResult<Value> {
        let r = find_ref_number(&seen, role, name)?;
        Ok(json!({"observationId": seen["observationId"], "ref": r}))
    };
    let mut typing = target("textbox", "Name")?;
    typing["clear"] = json!(true);
    let clicking = target("button", "Sign in")?;
    let button = floor.backend_of("signin-button").await?;
    // Each type puts a text of its own in the field, so that it changes
    // the field as typing into a form does.
    let text = |k: usize, side: &str| format!("Ada {k}{side}");
    for (act, args) in [
        (Act::Observe, json!({})),
        (Act::Type, typing),
        (Act::Click, clicking),
    ] {
        let times = taking_turns(
            PAIRS,
            |k| {
                let mut args = args.clone();
                if act == Act::Type {
                    args["text"] = json!(text(k, "b"));
                }
                b.tool(ws, lease, act.tool(), args).map(drop)
            },
            async |k| match act {
                Act::Observe => floor.observe().await.map(drop),
                Act::Type => floor.type_name(true, &text(k, "f")).await,
                Act::Click => floor.click(button, true).await,
            },
        )
        .await?;
        steps.push(SteadyStep::new(act.step(), times));
    }
    Ok(steps)
}

/// `n` calls each way, the bridge's (`bridge(k)`) and the floor's
/// (`floor(k)`), taking turns, with the side that goes first changing
/// from one pair to the next; the times of each (ms).
pub(crate) async fn taking_turns(
    n: usize,
    mut bridge: impl FnMut(usize) -> BpResult<()>,
    mut floor: impl AsyncFnMut(usize) -> BpResult<()>,
) -> BpResult<(Vec<f64>, Vec<f64>)> {
    let (mut over_bridge, mut direct) = (Vec::with_capacity(n), Vec::with_capacity(n));
    for k in 0..n {
        for side in [k % 2, 1 - k % 2] {
            let t = Instant::now();
            if side == 0 {
                bridge(k)?;
                over_bridge.push(ms(t.elapsed()));
            } else {
                floor(k).await?;
                direct.push(ms(t.elapsed()));
            }
        }
    }
    Ok((over_bridge, direct))
}

/// The steps repeated on the settled page.
#[derive(Clone, Copy, PartialEq, Eq)]
enum Act {
    Observe,
    Type,
    Click,
}

impl Act {
    fn step(self) -> &'static str {
        match self {
            Act::Observe => "observe",
            Act::Type => "type",
            Act::Click => "click",
        }
    }

    fn tool(self) -> &'static str {
        match self {
            Act::Observe => "browser.observe",
            Act::Type => "browser.type",
            Act::Click => "browser.click",
        }
    }
}

impl SteadyStep {
    pub(crate) fn new(step: &'static str, (bridge, floor): (Vec<f64>, Vec<f64>)) -> Self {
        Self {
            step,
            bridge,
            floor,
        }
    }
}

/// bp's share of a step (the bridge's median less the floor's), and the
/// room [`GOAL_RATIO`] leaves it (the floor's median times the excess
/// the goal allows), in ms.
fn share_and_room(bridge: f64, floor: f64) -> (f64, f64) {
    (bridge - floor, floor * (GOAL_RATIO - 1.0))
}

/// Print each step: both medians, their ratio and its 95% interval, and
/// bp's share beside the room the goal leaves it ([`share_and_room`]).
pub(crate) fn print(steps: &mut [SteadyStep]) {
    print_titled(&format!("each step repeated on a settled page, the bridge and the careful floor on its tab taking turns call by call (medians, ms; the ratio's 95% bootstrap interval; bp's share is the bridge's median less the floor's, against the tenth of the floor's that {GOAL_RATIO}x allows):"), steps);
}

/// [`print`] under a title of the caller's.
pub(crate) fn print_titled(title: &str, steps: &mut [SteadyStep]) {
    println!("{title}");
    println!(
        "{:<10} {:>6} {:>10} {:>10} {:>9}   {:<18} {:>10} {:>10}",
        "step",
        "each",
        "bridge",
        "CDP floor",
        "bridge",
        "interval",
        "bp's share",
        format!("{GOAL_RATIO}x room")
    );
    for s in steps.iter_mut() {
        // The interval first: the medians sort each side in place, which
        // breaks up the pairs.
        let (lo, hi) = ratio_interval(&s.bridge, &s.floor, RESAMPLES);
        let (b, f) = (median(&mut s.bridge), median(&mut s.floor));
        let interval = format!("{lo:.2}x to {hi:.2}x");
        let (share, room) = share_and_room(b, f);
        println!(
            "{:<10} {:>6} {b:>10.2} {f:>10.2} {:>8.2}x   {interval:<18} {share:>10.2} {room:>10.2}",
            s.step,
            s.bridge.len(),
            b / f,
        );
    }
}

/// The 2.5th and 97.5th percentiles of the ratio of medians (`a` over
/// `b`) over `resamples` resamples of the pairs, with replacement. The
/// pairs are resampled together, since each pair ran back to back.
fn ratio_interval(a: &[f64], b: &[f64], resamples: usize) -> (f64, f64) {
    let n = a.len();
    if n == 0 || n != b.len() || resamples == 0 {
        return (f64::NAN, f64::NAN);
    }
    let mut rng = XorShift(0x9E37_79B9_7F4A_7C15);
    let (mut x, mut y) = (vec![0.0; n], vec![0.0; n]);
    let mut ratios: Vec<f64> = (0..resamples)
        .map(|_| {
            for j in 0..n {
                let i = rng.below(n);
                x[j] = a[i];
                y[j] = b[i];
            }
            median(&mut x) / median(&mut y)
        })
        .collect();
    ratios.sort_by(|p, q| p.total_cmp(q));
    (percentile(&ratios, 0.025), percentile(&ratios, 0.975))
}

/// The value a fraction `q` of the way up `sorted` (nearest rank).
fn percentile(sorted: &[f64], q: f64) -> f64 {
    let last = sorted.len().saturating_sub(1);
    let i = (last as f64 * q).round() as usize;
    sorted.get(i).copied().unwrap_or(f64::NAN)
}

/// A small fixed-seed generator: the interval is the same for the same
/// times.
struct XorShift(u64);

impl XorShift {
    fn below(&mut self, n: usize) -> usize {
        self.0 ^= self.0 << 13;
        self.0 ^= self.0 >> 7;
        self.0 ^= self.0 << 17;
        (self.0 % n as u64) as usize
    }
}

#[cfg(test)]
mod tests {
    use super::{percentile, ratio_interval, share_and_room};

    #[test]
    fn a_step_meets_the_goal_only_when_its_share_fits_the_room() {
        // 3.00 ms over the bridge against a 2.36 ms floor: 0.64 ms of
        // bp's against 0.236 ms of room, so the ratio (1.27x) misses.
        let (share, room) = share_and_room(3.00, 2.36);
        assert!((share - 0.64).abs() < 1e-9, "{share}");
        assert!((room - 0.236).abs() < 1e-9, "{room}");
        // At exactly the goal the share fills the room; under the floor
        // the share is negative.
        let (share, room) = share_and_room(2.2, 2.0);
        assert!((share - room).abs() < 1e-9, "{share} {room}");
        assert!(share_and_room(1.34, 1.41).0 < 0.0);
    }

    #[test]
    fn the_interval_resamples_pairs_and_narrows_with_more_of_them() {
        // Floor times spread over 2..6 ms; the bridge's, each 10% above
        // its pair's.
        let floor: Vec<f64> = (0..400).map(|i| 2.0 + f64::from(i % 41) / 10.0).collect();
        let paired: Vec<f64> = floor.iter().map(|f| f * 1.1).collect();
        // Pairs resampled together keep the ratio exactly.
        let (lo, hi) = ratio_interval(&paired, &floor, 500);
        assert!(
            (lo - 1.1).abs() < 1e-9 && (hi - 1.1).abs() < 1e-9,
            "{lo}..{hi}"
        );
        // Unrelated pairs: the interval brackets the ratio of medians,
        // and is wider with fewer pairs.
        let shuffled: Vec<f64> = paired.iter().rev().copied().collect();
        let (lo, hi) = ratio_interval(&shuffled, &floor, 1000);
        assert!(lo < 1.1 && 1.1 < hi, "{lo}..{hi}");
        let (lo_few, hi_few) = ratio_interval(&shuffled[..40], &floor[..40], 1000);
        assert!(
            hi_few - lo_few > hi - lo,
            "{lo_few}..{hi_few} vs {lo}..{hi}"
        );
        // Nothing to resample, or sides that do not pair up.
        assert!(ratio_interval(&[], &[], 100).0.is_nan());
        assert!(ratio_interval(&floor, &floor[1..], 100).1.is_nan());
    }

    #[test]
    fn percentiles_take_the_nearest_rank() {
        let sorted: Vec<f64> = (0..=2000).map(f64::from).collect();
        assert_eq!(percentile(&sorted, 0.025), 50.0);
        assert_eq!(percentile(&sorted, 0.975), 1950.0);
        assert_eq!(percentile(&sorted, 0.5), 1000.0);
        assert!(percentile(&[], 0.5).is_nan());
    }
}
