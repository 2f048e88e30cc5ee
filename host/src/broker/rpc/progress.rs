//! The no-progress watchdog: actions on one tab by one lease whose
//! evidence shows no effect (`mismatch`, or `unavailable`: nothing
//! observable changed) form a streak. The third in a row gets a
//! `repeated_action` hint, and the streak emits one `watchdog.no_progress`
//! event. Verified progress, a navigation, a frame change, and the end of
//! the lease or workspace reset it.

use std::collections::HashMap;
use std::sync::Mutex;

/// Actions without effect before the watchdog speaks.
pub const STREAK: u32 = 3;
/// Streaks kept at most (the oldest are forgotten first).
const MAX_STREAKS: usize = 4096;

#[derive(Default)]
struct Streak {
    workspace: String,
    count: u32,
    reported: bool,
    touched: u64,
}

/// What one action did to its streak.
#[derive(Debug, PartialEq, Eq)]
pub enum Verdict {
    /// No streak (progress, or not an action with evidence).
    Clear,
    /// The streak is `count` long; `first_report` is true once per streak.
    Repeated { count: u32, first_report: bool },
    /// Still under the threshold.
    Counting,
}

/// Streaks by (lease, physical target).
#[derive(Default)]
pub struct Progress {
    streaks: Mutex<HashMap<(String, String), Streak>>,
    clock: std::sync::atomic::AtomicU64,
}

impl Progress {
    fn lock(&self) -> std::sync::MutexGuard<'_, HashMap<(String, String), Streak>> {
        self.streaks.lock().unwrap_or_else(|e| e.into_inner())
    }

    /// Record an action's evidence status (`None`: the result has no
    /// evidence, which neither counts nor resets).
    pub fn action(&self, workspace: &str, lease: &str, raw: &str, status: Option<&str>) -> Verdict {
        let Some(status) = status else {
            return Verdict::Clear;
        };
        let key = (lease.to_string(), raw.to_string());
        let mut map = self.lock();
        if !matches!(status, "mismatch" | "unavailable") {
            map.remove(&key);
            return Verdict::Clear;
        }
        let now = self
            .clock
            .fetch_add(1, std::sync::atomic::Ordering::Relaxed);
        if map.len() >= MAX_STREAKS && !map.contains_key(&key) {
            if let Some(oldest) = map
                .iter()
                .min_by_key(|(_, s)| s.touched)
                .map(|(k, _)| k.clone())
            {
                map.remove(&oldest);
            }
        }
        let streak = map.entry(key).or_default();
        streak.workspace = workspace.to_string();
        streak.count += 1;
        streak.touched = now;
        if streak.count < STREAK {
            return Verdict::Counting;
        }
        let first_report = !streak.reported;
        streak.reported = true;
        Verdict::Repeated {
            count: streak.count,
            first_report,
        }
    }

    /// A navigation or frame change on `raw`: every streak on it ends.
    pub fn reset_target(&self, raw: &str) {
        self.lock().retain(|(_, r), _| r != raw);
    }

    /// The lease ended.
    pub fn reset_lease(&self, lease: &str) {
        self.lock().retain(|(l, _), _| l != lease);
    }

    /// The workspace was released.
    pub fn reset_workspace(&self, workspace: &str) {
        self.lock().retain(|_, s| s.workspace != workspace);
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn three_dead_actions_report_once_per_streak() {
        let p = Progress::default();
        let act = |s| p.action("ws", "l1", "T1", Some(s));
        assert_eq!(act("unavailable"), Verdict::Counting);
        assert_eq!(act("mismatch"), Verdict::Counting);
        assert_eq!(
            act("unavailable"),
            Verdict::Repeated {
                count: 3,
                first_report: true
            }
        );
        assert_eq!(
            act("unavailable"),
            Verdict::Repeated {
                count: 4,
                first_report: false
            }
        );
        // Progress resets; a new streak reports again.
        assert_eq!(act("verified"), Verdict::Clear);
        assert_eq!(act("mismatch"), Verdict::Counting);
        assert_eq!(act("mismatch"), Verdict::Counting);
        assert_eq!(
            act("mismatch"),
            Verdict::Repeated {
                count: 3,
                first_report: true
            }
        );
        // Other leases and tabs have their own streaks; resets are scoped.
        assert_eq!(
            p.action("ws", "l2", "T1", Some("mismatch")),
            Verdict::Counting
        );
        p.reset_target("T1");
        assert_eq!(act("mismatch"), Verdict::Counting);
        p.reset_lease("l1");
        assert_eq!(act("mismatch"), Verdict::Counting);
        p.reset_workspace("ws");
        assert_eq!(act("mismatch"), Verdict::Counting);
        // No evidence: neither counts nor resets.
        assert_eq!(p.action("ws", "l1", "T1", None), Verdict::Clear);
        assert_eq!(act("mismatch"), Verdict::Counting);
        assert_eq!(
            act("mismatch"),
            Verdict::Repeated {
                count: 3,
                first_report: true
            }
        );
    }
}
