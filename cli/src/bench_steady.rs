//! Each step of the form workflow repeated on a settled page, over the
//! bridge and by the careful floor on the bridge's tab, taking turns call
//! by call, with a confidence interval on their ratio.
//!
//! In the workflow a step is timed once a round, right after the steps
//! before it, and its time on this machine spreads over a factor of two
//! or more from one round to the next; with tens of rounds, the ratio of
//! two medians is then known only to within about ±15%, too loosely to
//! tell 1.05x from 1.15x. Here each step is repeated hundreds of times on
//! the same page (the field typed into again, the button clicked again,
//! the page loaded again), so the interval is a few percent wide. What
//! one step leaves for the next is left to the workflow's rows.

use crate::bench::{find_ref, median, ms, BridgeClient};
use crate::bench_floor::FloorTab;
use browser_pilot_host::BpResult;
use serde_json::{json, Value};
use std::time::Instant;

/// How many calls each way for a quick step, and for a navigation.
const PAIRS: usize = 300;
const NAVIGATIONS: usize = 60;

/// Resamples of the bootstrap interval.
const RESAMPLES: usize = 2000;

/// One step's times each way (ms).
pub(crate) struct SteadyStep {
    pub step: &'static str,
    pub bridge: Vec<f64>,
    pub floor: Vec<f64>,
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
    let mut nav = SteadyStep::new("navigate");
    for k in 0..NAVIGATIONS {
        for side in [k % 2, 1 - k % 2] {
            let t = Instant::now();
            if side == 0 {
                b.tool(ws, lease, "browser.navigate", navigate.clone())?;
                nav.bridge.push(ms(t.elapsed()));
            } else {
                floor.navigate(url).await?;
                nav.floor.push(ms(t.elapsed()));
            }
        }
    }
    steps.push(nav);
    // The page is loaded once more by the bridge, and what the steps act
    // on is found.
    b.tool(ws, lease, "browser.navigate", navigate)?;
    let seen = b.tool(ws, lease, "browser.observe", json!({}))?;
    let target = |role: &str, name: &str| -> BpResult<Value> {
        let r: u64 = find_ref(&seen, role, name)?.parse().unwrap_or(0);
        Ok(json!({"observationId": seen["observationId"], "ref": r}))
    };
    let mut typing = target("textbox", "Name")?;
    typing["clear"] = json!(true);
    let clicking = target("button", "Sign in")?;
    let button = floor.backend_of("signin-button").await?;
    for (step, tool, args) in [
        ("observe", "browser.observe", json!({})),
        ("type", "browser.type", typing),
        ("click", "browser.click", clicking),
    ] {
        let mut times = SteadyStep::new(step);
        for k in 0..PAIRS {
            for side in [k % 2, 1 - k % 2] {
                // Each type puts a text of its own in the field, so that
                // it changes the field as typing into a form does.
                let text = format!("Ada {k}{side}");
                let mut args = args.clone();
                if step == "type" {
                    args["text"] = json!(text);
                }
                let t = Instant::now();
                if side == 0 {
                    b.tool(ws, lease, tool, args)?;
                    times.bridge.push(ms(t.elapsed()));
                } else {
                    match step {
                        "observe" => {
                            floor.observe().await?;
                        }
                        "type" => floor.type_name(true, &text).await?,
                        _ => floor.click(button, true).await?,
                    }
                    times.floor.push(ms(t.elapsed()));
                }
            }
        }
        steps.push(times);
    }
    Ok(steps)
}

impl SteadyStep {
    fn new(step: &'static str) -> Self {
        Self {
            step,
            bridge: Vec::new(),
            floor: Vec::new(),
        }
    }
}

/// Print each step: both medians, their ratio and its 95% interval.
pub(crate) fn print(steps: &mut [SteadyStep]) {
    println!("each step repeated on a settled page, the bridge and the careful floor on its tab taking turns call by call (medians, ms; the ratio's 95% bootstrap interval):");
    println!(
        "{:<10} {:>6} {:>10} {:>10} {:>9}   interval",
        "step", "calls", "bridge", "CDP floor", "bridge"
    );
    for s in steps.iter_mut() {
        let (lo, hi) = ratio_interval(&s.bridge, &s.floor, RESAMPLES);
        let (b, f) = (median(&mut s.bridge), median(&mut s.floor));
        println!(
            "{:<10} {:>6} {b:>10.2} {f:>10.2} {:>8.2}x   {lo:.2}x to {hi:.2}x",
            s.step,
            s.bridge.len(),
            b / f
        );
    }
}

/// The 2.5th and 97.5th percentiles of the ratio of medians (`a` over
/// `b`) over `resamples` resamples of the pairs, with replacement. The
/// pairs are resampled together, since each pair ran back to back.
pub(crate) fn ratio_interval(a: &[f64], b: &[f64], resamples: usize) -> (f64, f64) {
    let n = a.len().min(b.len());
    if n == 0 || resamples == 0 {
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
    let at = |q: f64| {
        let i = ((resamples - 1) as f64 * q).round() as usize;
        ratios.get(i).copied().unwrap_or(f64::NAN)
    };
    (at(0.025), at(0.975))
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
    use super::ratio_interval;

    #[test]
    fn the_interval_brackets_the_ratio_and_narrows_with_more_pairs() {
        // Bridge times 10% above the floor's, both spread over 2..6.
        let floor: Vec<f64> = (0..400).map(|i| 2.0 + f64::from(i % 41) / 10.0).collect();
        let bridge: Vec<f64> = floor.iter().rev().map(|f| f * 1.1).collect();
        let (lo, hi) = ratio_interval(&bridge, &floor, 1000);
        assert!(lo < 1.1 && 1.1 < hi, "{lo}..{hi}");
        let (lo_few, hi_few) = ratio_interval(&bridge[..40], &floor[..40], 1000);
        assert!(
            hi_few - lo_few > hi - lo,
            "{lo_few}..{hi_few} vs {lo}..{hi}"
        );
        // Equal times give exactly 1.
        assert_eq!(ratio_interval(&floor, &floor, 100), (1.0, 1.0));
        assert!(ratio_interval(&[], &[], 100).0.is_nan());
    }
}
