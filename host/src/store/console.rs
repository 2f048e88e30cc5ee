//! Per-workspace console journal: the console messages, uncaught
//! exceptions and browser log entries of the tabs a workspace controls,
//! from the moment it controls them. Page text is data: every message is
//! cleaned (control and invisible characters removed) and cut to
//! [`MAX_TEXT`] characters before it is kept. A journal keeps
//! [`CAPACITY`] entries; older ones are dropped and counted.

use crate::store::event_gate::EventGate;
use std::collections::{HashMap, VecDeque};
use std::sync::{Mutex, MutexGuard};

/// Entries a workspace journal keeps.
pub const CAPACITY: usize = 1000;
/// Characters of a message's text kept.
pub const MAX_TEXT: usize = 2000;
/// Characters of a source URL kept.
pub const MAX_URL: usize = 500;
/// Console events published per workspace and second at most; the rest
/// are counted and reported with the next event that goes out.
pub const EVENTS_PER_SECOND: u32 = 20;

/// The levels, as the tool names them.
pub const LEVELS: [&str; 5] = ["log", "info", "warning", "error", "debug"];

/// One message as the browser reported it (already cleaned and bounded).
#[derive(Debug, Clone, PartialEq)]
pub struct Message {
    /// `console` (the page's console API), `exception` (uncaught) or
    /// `browser` (the browser's own log: failed loads, interventions).
    pub source: &'static str,
    /// One of [`LEVELS`].
    pub level: &'static str,
    pub text: String,
    pub url: Option<String>,
    /// 1-based line in `url`.
    pub line: Option<u32>,
}

/// One journal entry.
#[derive(Debug, Clone)]
pub struct Entry {
    pub seq: u64,
    pub raw: String,
    pub target_id: String,
    pub message: Message,
    /// Milliseconds since the Unix epoch when the broker saw it.
    pub time_ms: u64,
}

#[derive(Default)]
struct Workspace {
    journal: VecDeque<Entry>,
    last_seq: u64,
    /// Entries pushed out of the journal by newer ones.
    dropped: u64,
    events: EventGate,
    /// The workspace uses the console (a `browser.console` call, or its
    /// console events switched on): its tabs' console is listened to.
    used: bool,
}

/// A read of the journal.
pub struct Page {
    pub entries: Vec<Entry>,
    /// The seq to pass as `since` next time.
    pub next_seq: u64,
    /// Entries dropped from the journal since it began.
    pub dropped: u64,
}

/// Every workspace's console journal.
#[derive(Default)]
pub struct Console {
    inner: Mutex<HashMap<String, Workspace>>,
}

/// `text` as page data: control characters (other than line breaks and
/// tabs) and invisible characters removed, at most `max` characters,
/// with a marker when cut.
pub fn clean(text: &str, max: usize) -> String {
    let visible = crate::sanitize::invisible::clean(text);
    let mut out: String = visible
        .chars()
        .filter(|c| !c.is_control() || *c == '\n' || *c == '\t')
        .take(max)
        .collect();
    let total = visible
        .chars()
        .filter(|c| !c.is_control() || *c == '\n' || *c == '\t')
        .count();
    if total > max {
        out.push_str(&format!(" [… {} more characters]", total - max));
    }
    out
}

impl Console {
    fn lock(&self) -> MutexGuard<'_, HashMap<String, Workspace>> {
        self.inner.lock().unwrap_or_else(|p| p.into_inner())
    }

    /// Record a message of `raw` (the workspace calls it `target_id`);
    /// returns the entry as kept.
    pub fn record(&self, ws: &str, raw: &str, target_id: &str, message: Message) -> Entry {
        let mut all = self.lock();
        let w = all.entry(ws.to_string()).or_default();
        w.last_seq += 1;
        let entry = Entry {
            seq: w.last_seq,
            raw: raw.to_string(),
            target_id: target_id.to_string(),
            message,
            time_ms: std::time::SystemTime::now()
                .duration_since(std::time::UNIX_EPOCH)
                .map(|d| d.as_millis() as u64)
                .unwrap_or(0),
        };
        w.journal.push_back(entry.clone());
        while w.journal.len() > CAPACITY {
            w.journal.pop_front();
            w.dropped += 1;
        }
        entry
    }

    /// Entries after `since` whose level is in `levels` (all when empty),
    /// at most `limit`.
    pub fn read(&self, ws: &str, since: u64, levels: &[&str], limit: usize) -> Page {
        let all = self.lock();
        let Some(w) = all.get(ws) else {
            return Page {
                entries: Vec::new(),
                next_seq: since,
                dropped: 0,
            };
        };
        let taken: Vec<Entry> = w
            .journal
            .iter()
            .filter(|e| e.seq > since)
            .filter(|e| levels.is_empty() || levels.contains(&e.message.level))
            .take(limit)
            .cloned()
            .collect();
        // Past the last entry returned; past everything when the page was
        // not cut by the limit (entries of other levels are skipped too).
        let next_seq = if taken.len() < limit {
            w.last_seq.max(since)
        } else {
            taken.last().map_or(since, |e| e.seq)
        };
        Page {
            entries: taken,
            next_seq,
            dropped: w.dropped,
        }
    }

    /// Drop everything of a released workspace.
    pub fn remove_workspace(&self, ws: &str) {
        self.lock().remove(ws);
    }

    /// Switch the workspace's console events on or off (on by default).
    pub fn set_events(&self, ws: &str, on: bool) {
        self.lock().entry(ws.to_string()).or_default().events.off = !on;
    }

    /// Mark the workspace as using the console; `true` the first time.
    pub fn start_using(&self, ws: &str) -> bool {
        let mut all = self.lock();
        let w = all.entry(ws.to_string()).or_default();
        !std::mem::replace(&mut w.used, true)
    }

    /// Whether the workspace uses the console (see [`Self::start_using`]).
    pub fn in_use(&self, ws: &str) -> bool {
        self.lock().get(ws).is_some_and(|w| w.used)
    }

    /// Whether the workspace's console events are on.
    pub fn events_on(&self, ws: &str) -> bool {
        self.lock().get(ws).is_none_or(|w| !w.events.off)
    }

    /// Whether one more console event may go out for `ws` now: `None` when
    /// events are off or this second's budget is spent (counted as
    /// dropped), else the events dropped since the last one.
    pub fn event_slot(&self, ws: &str) -> Option<u32> {
        let mut all = self.lock();
        all.entry(ws.to_string())
            .or_default()
            .events
            .slot(EVENTS_PER_SECOND)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn msg(level: &'static str, text: &str) -> Message {
        Message {
            source: "console",
            level,
            text: text.to_string(),
            url: None,
            line: None,
        }
    }

    #[test]
    fn the_journal_is_bounded_and_counts_what_it_dropped() {
        let c = Console::default();
        for i in 0..(CAPACITY + 5) {
            c.record("ws", "R", "t1", msg("log", &format!("m{i}")));
        }
        let page = c.read("ws", 0, &[], 10);
        assert_eq!(page.dropped, 5);
        assert_eq!(page.entries[0].seq, 6);
        assert_eq!(page.entries.len(), 10);
        assert_eq!(page.next_seq, 15);
        let rest = c.read("ws", page.next_seq, &[], 5000);
        assert_eq!(rest.entries.len(), CAPACITY - 10);
        assert_eq!(c.read("other", 0, &[], 10).entries.len(), 0);
    }

    #[test]
    fn levels_filter_and_the_cursor_passes_what_was_skipped() {
        let c = Console::default();
        c.record("ws", "R", "t1", msg("log", "a"));
        c.record("ws", "R", "t1", msg("error", "b"));
        c.record("ws", "R", "t1", msg("info", "c"));
        let page = c.read("ws", 0, &["error"], 10);
        assert_eq!(page.entries.len(), 1);
        assert_eq!(page.entries[0].message.text, "b");
        assert_eq!(page.next_seq, 3);
        c.remove_workspace("ws");
        assert!(c.read("ws", 0, &[], 10).entries.is_empty());
    }

    #[test]
    fn text_is_cleaned_and_cut() {
        assert_eq!(clean("a\u{200b}b\u{7}c\nd", 100), "abc\nd");
        let long = "x".repeat(MAX_TEXT + 10);
        let cut = clean(&long, MAX_TEXT);
        assert!(cut.starts_with(&"x".repeat(MAX_TEXT)));
        assert!(cut.ends_with("[… 10 more characters]"), "{cut}");
    }

    #[test]
    fn events_are_switchable_and_rate_bounded() {
        let c = Console::default();
        for _ in 0..EVENTS_PER_SECOND {
            assert!(c.event_slot("ws").is_some());
        }
        assert!(c.event_slot("ws").is_none());
        c.set_events("ws", false);
        assert!(!c.events_on("ws"));
        assert!(c.event_slot("ws").is_none());
    }
}
