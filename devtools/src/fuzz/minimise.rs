//! Shrinking a failing input: drop whole lines, then ever smaller byte
//! ranges, keeping each cut that still breaks an invariant.

use super::gen::Input;
use super::{Failure, Harness};

/// Re-runs allowed while shrinking one input.
const BUDGET: usize = 400;

impl Harness {
    /// The smallest input found that still fails (with its violation).
    pub(super) fn minimise(&self, input: Input, violation: String) -> Failure {
        let prologue = input.prologue;
        let mut best = Failure {
            violation,
            input: input.bytes,
            prologue,
        };
        let mut budget = BUDGET;
        let mut try_cut = |bytes: Vec<u8>, best: &mut Failure| -> bool {
            if budget == 0 {
                return false;
            }
            budget -= 1;
            let candidate = Input { bytes, prologue };
            match self.check(&candidate) {
                Err(v) => {
                    best.input = candidate.bytes;
                    best.violation = v;
                    true
                }
                Ok(_) => false,
            }
        };
        // Whole lines first.
        let mut i = 0;
        loop {
            let without = {
                let lines: Vec<&[u8]> = best.input.split(|b| *b == b'\n').collect();
                if i >= lines.len() || lines.len() < 2 {
                    break;
                }
                let kept: Vec<&[u8]> = lines
                    .iter()
                    .enumerate()
                    .filter(|(j, _)| *j != i)
                    .map(|(_, l)| *l)
                    .collect();
                kept.join(&b'\n')
            };
            if !try_cut(without, &mut best) {
                i += 1;
            }
        }
        // Then byte ranges, halving their size.
        let mut chunk = best.input.len() / 2;
        while chunk > 0 {
            let mut at = 0;
            while at < best.input.len() {
                let end = (at + chunk).min(best.input.len());
                let mut cut = best.input.clone();
                cut.drain(at..end);
                if !try_cut(cut, &mut best) {
                    at += chunk;
                }
            }
            chunk /= 2;
        }
        best
    }
}
