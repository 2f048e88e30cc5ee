//! The pure part of a wait: what is asked of the page, whether an answer
//! satisfies the condition, how often to ask, and the glob of URL waits.

use crate::wit::page_wait::{Condition, NodeState};
use std::time::Duration;

/// The first poll comes this soon; later ones back off to [`SLOWEST`].
const FIRST: Duration = Duration::from_millis(50);
const SLOWEST: Duration = Duration::from_millis(250);

/// How long to sleep before poll number `n` (0-based, after the first
/// immediate check): 50, 100, 200, 250, 250, ... ms.
pub fn interval(n: u32) -> Duration {
    FIRST.saturating_mul(1u32 << n.min(4)).min(SLOWEST)
}

/// What a node read says, from the page-side probe.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct NodeRead {
    pub connected: bool,
    pub visible: bool,
    pub enabled: bool,
    /// Its text, for stable waits.
    pub text: String,
}

/// Whether `read` satisfies `state` (`None`: the node's document is
/// gone, which only `detached` and `hidden` accept).
pub fn node_satisfies(state: NodeState, read: Option<&NodeRead>) -> bool {
    match (state, read) {
        (NodeState::Detached | NodeState::Hidden, None) => true,
        (_, None) => false,
        (NodeState::Visible, Some(r)) => r.connected && r.visible,
        (NodeState::Hidden, Some(r)) => !r.connected || !r.visible,
        (NodeState::Enabled, Some(r)) => r.connected && r.enabled,
        (NodeState::Detached, Some(r)) => !r.connected,
    }
}

/// Whether text waits find `needle` in `text` (whitespace runs compare
/// as one space, as a person reads them).
pub fn contains_text(text: &str, needle: &str) -> bool {
    let squash = |s: &str| s.split_whitespace().collect::<Vec<_>>().join(" ");
    squash(text).contains(&squash(needle))
}

/// A glob over a whole URL: `*` matches any run of characters, `?` one.
pub fn glob_matches(pattern: &str, url: &str) -> bool {
    let p: Vec<char> = pattern.chars().collect();
    let u: Vec<char> = url.chars().collect();
    let (mut pi, mut ui) = (0, 0);
    let (mut star, mut mark) = (None, 0);
    while ui < u.len() {
        if pi < p.len() && (p[pi] == '?' || p[pi] == u[ui]) {
            pi += 1;
            ui += 1;
        } else if pi < p.len() && p[pi] == '*' {
            star = Some(pi);
            mark = ui;
            pi += 1;
        } else if let Some(s) = star {
            pi = s + 1;
            mark += 1;
            ui = mark;
        } else {
            return false;
        }
    }
    p[pi..].iter().all(|c| *c == '*')
}

/// Tracks a node's text for a stable wait: satisfied once the text has
/// not changed for the quiet period.
#[derive(Debug)]
pub struct Quiet {
    last: Option<String>,
    since_ms: u64,
    quiet_ms: u64,
}

impl Quiet {
    pub fn new(quiet_ms: u32) -> Self {
        Self {
            last: None,
            since_ms: 0,
            quiet_ms: u64::from(quiet_ms),
        }
    }

    /// Record the text read at `now_ms` (from the wait's start); whether
    /// it has been the same for the quiet period.
    pub fn settled(&mut self, text: &str, now_ms: u64) -> bool {
        if self.last.as_deref() != Some(text) {
            self.last = Some(text.to_string());
            self.since_ms = now_ms;
            return false;
        }
        now_ms.saturating_sub(self.since_ms) >= self.quiet_ms
    }
}

/// What the condition names, for the `timeout` message (never page text
/// beyond the caller's own words, and those bounded).
pub fn describe(condition: &Condition) -> String {
    let words = |t: &str| {
        let cut: String = t.chars().take(80).collect();
        format!("{cut:?}")
    };
    match condition {
        Condition::Text(t) => format!("text {}", words(t)),
        Condition::TextGone(t) => format!("text {} to go", words(t)),
        Condition::Node(n) => format!("the element to be {}", state_name(n.state)),
        Condition::Url(g) => format!("the URL to match {}", words(g)),
        Condition::Stable(s) => {
            format!("the element's text to stay unchanged for {} ms", s.quiet_ms)
        }
    }
}

pub fn state_name(state: NodeState) -> &'static str {
    match state {
        NodeState::Visible => "visible",
        NodeState::Hidden => "hidden",
        NodeState::Enabled => "enabled",
        NodeState::Detached => "detached",
    }
}
