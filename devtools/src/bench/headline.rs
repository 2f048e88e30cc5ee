//! The bench's first table: the form workflow per step through each
//! client (one-shot CLI, bridge, `bp mcp`) beside the raw-CDP floor, with
//! their ratios to it and the goals checked in words.

use super::{median, Times, STEPS};

/// The medians of each client per step, and their sums.
pub(crate) struct Headline {
    rows: Vec<[f64; 4]>,
}

impl Headline {
    /// Medians per step of `one_shot`, `bridge`, `mcp` and `floor`.
    pub(crate) fn of(one_shot: &Times, bridge: &Times, mcp: &Times, floor: &Times) -> Self {
        let rows = (0..STEPS.len())
            .map(|i| {
                let m = |t: &Times| t.get(i).map_or(f64::NAN, |v| median(&mut v.clone()));
                [m(one_shot), m(bridge), m(mcp), m(floor)]
            })
            .collect();
        Self { rows }
    }

    /// The whole workflow: each client's step medians summed.
    fn total(&self) -> [f64; 4] {
        let mut sum = [0.0; 4];
        for row in &self.rows {
            for (s, v) in sum.iter_mut().zip(row) {
                *s += v;
            }
        }
        sum
    }

    pub(crate) fn print(&self) {
        println!(
            "{:<10} {:>9} {:>9} {:>9} {:>9} {:>9} {:>9} {:>9}",
            "step", "CDP floor", "one-shot", "bridge", "bp mcp", "one-shot", "bridge", "bp mcp"
        );
        for (step, row) in STEPS.iter().zip(&self.rows) {
            row_line(step, *row);
        }
        let total = self.total();
        row_line("workflow", total);
        let [one_shot, bridge, mcp, floor] = total;
        println!(
            "goals: bridge {:.2}x and bp mcp {:.2}x the floor (at most 1.3x); one-shot {:.2}x the bridge (at most 1.1x)",
            bridge / floor,
            mcp / floor,
            one_shot / bridge
        );
    }
}

/// One step: the medians (ms), then each client's ratio to the floor.
fn row_line(step: &str, [one_shot, bridge, mcp, floor]: [f64; 4]) {
    println!(
        "{step:<10} {floor:>9.1} {one_shot:>9.1} {bridge:>9.1} {mcp:>9.1} {:>8.2}x {:>8.2}x {:>8.2}x",
        one_shot / floor,
        bridge / floor,
        mcp / floor
    );
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_workflow_row_sums_each_clients_step_medians() {
        let times = |base: f64| -> Times {
            (0..STEPS.len())
                .map(|i| {
                    vec![
                        base + i as f64,
                        base + i as f64 + 10.0,
                        base + i as f64 - 10.0,
                    ]
                })
                .collect()
        };
        let h = Headline::of(&times(20.0), &times(15.0), &times(16.0), &times(10.0));
        assert_eq!(h.rows[1], [21.0, 16.0, 17.0, 11.0]);
        assert_eq!(h.total(), [110.0, 85.0, 90.0, 60.0]);
    }
}
