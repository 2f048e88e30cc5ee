//! A workspace's gate for one kind of event (network, console): switched
//! on or off, and bounded to a number per second, with what it held back
//! counted and reported on the next event that goes out.

use std::time::{Duration, Instant};

#[derive(Default)]
pub struct EventGate {
    /// Switched off by the workspace.
    pub off: bool,
    window: Option<Instant>,
    sent: u32,
    dropped: u32,
}

impl EventGate {
    /// Whether one more event may go out now, at most `per_second` a
    /// second: `None` when off or this second's budget is spent (the event
    /// counted as dropped), else the events dropped since the last one.
    pub fn slot(&mut self, per_second: u32) -> Option<u32> {
        if self.off {
            return None;
        }
        let now = Instant::now();
        if self
            .window
            .is_none_or(|w| now.duration_since(w) >= Duration::from_secs(1))
        {
            self.window = Some(now);
            self.sent = 0;
        }
        if self.sent >= per_second {
            self.dropped += 1;
            return None;
        }
        self.sent += 1;
        Some(std::mem::take(&mut self.dropped))
    }
}

#[cfg(test)]
mod tests {
    use super::EventGate;

    #[test]
    fn a_gate_lets_its_budget_through_and_counts_the_rest() {
        let mut gate = EventGate::default();
        assert_eq!(gate.slot(2), Some(0));
        assert_eq!(gate.slot(2), Some(0));
        assert_eq!(gate.slot(2), None);
        assert_eq!(gate.slot(2), None);
        gate.off = true;
        assert_eq!(gate.slot(100), None);
    }
}
