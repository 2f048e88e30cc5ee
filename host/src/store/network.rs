//! Per-workspace network state: the request journal, request rules
//! (block / mock / headers) and HTTP credentials. Nothing here is global:
//! every entry belongs to one workspace and applies only to targets that
//! workspace controls.

use crate::error::{BpError, BpResult};
use crate::store::event_gate::EventGate;
use std::collections::{HashMap, VecDeque};
use std::sync::{Mutex, MutexGuard};

/// Requests a workspace journal keeps.
pub const JOURNAL_CAPACITY: usize = 2000;
/// Rules one workspace may hold.
pub const MAX_RULES: usize = 256;

/// What a rule does.
#[derive(Debug, Clone)]
pub enum Action {
    Block,
    Mock {
        status: u16,
        headers: Vec<(String, String)>,
        body: String,
    },
    Headers(Vec<(String, String)>),
}

/// A request rule.
#[derive(Debug, Clone)]
pub struct Rule {
    pub id: String,
    pub pattern: String,
    pub action: Action,
    /// Raw target it is limited to.
    pub target: Option<String>,
    /// The owning workspace's opaque ID of that target.
    pub target_id: Option<String>,
    /// The lease that made it (released with it).
    pub lease: String,
}

/// One journal entry.
#[derive(Debug, Clone)]
pub struct Entry {
    pub seq: u64,
    pub raw: String,
    pub target_id: String,
    pub request_id: String,
    pub url: String,
    pub method: String,
    pub status: Option<u16>,
    pub resource_type: String,
    pub outcome: String,
    pub rule_id: Option<String>,
    /// When the request was seen, for the `network.response` timing.
    pub started: std::time::Instant,
}

/// Network events published per workspace and second at most; the rest
/// are counted and reported with the next event that goes out.
pub const EVENTS_PER_SECOND: u32 = 50;

#[derive(Default)]
struct Workspace {
    events: EventGate,
    journal: VecDeque<Entry>,
    last_seq: u64,
    rules: Vec<Rule>,
    /// origin -> (username, password)
    auth: HashMap<String, (String, String)>,
    /// Auth challenges answered per (raw target, URL), to stop retry loops.
    auth_attempts: HashMap<(String, String), u32>,
    /// Rule marks for requests intercepted before their journal entry
    /// existed: (raw, request id) -> (rule id, outcome).
    marks: HashMap<(String, String), (String, String)>,
}

/// The broker's network state.
#[derive(Default)]
pub struct Network {
    inner: Mutex<HashMap<String, Workspace>>,
}

/// `*` matches any run of characters; everything else literally.
pub fn glob(pattern: &str, text: &str) -> bool {
    let parts: Vec<&str> = pattern.split('*').collect();
    if parts.len() == 1 {
        return pattern == text;
    }
    let mut rest = text;
    for (i, part) in parts.iter().enumerate() {
        if i == 0 {
            match rest.strip_prefix(part) {
                Some(r) => rest = r,
                None => return false,
            }
        } else if i == parts.len() - 1 {
            return rest.ends_with(part);
        } else if let Some(pos) = rest.find(part) {
            rest = &rest[pos + part.len()..];
        } else {
            return false;
        }
    }
    true
}

/// `scheme://host[:port]` of a URL, lower-cased.
pub fn origin_of(url: &str) -> Option<String> {
    let (scheme, rest) = url.split_once("://")?;
    let host = rest.split(['/', '?', '#']).next()?;
    let host = host.rsplit('@').next()?;
    Some(format!(
        "{}://{}",
        scheme.to_ascii_lowercase(),
        host.to_ascii_lowercase()
    ))
}

impl Network {
    fn lock(&self) -> MutexGuard<'_, HashMap<String, Workspace>> {
        self.inner.lock().unwrap_or_else(|p| p.into_inner())
    }

    pub fn add_rule(&self, ws: &str, rule: Rule) -> BpResult<String> {
        let mut all = self.lock();
        let w = all.entry(ws.to_string()).or_default();
        if w.rules.len() >= MAX_RULES {
            return Err(BpError::invalid(format!(
                "a workspace may hold at most {MAX_RULES} rules"
            )));
        }
        let id = rule.id.clone();
        w.rules.push(rule);
        Ok(id)
    }

    pub fn remove_rule(&self, ws: &str, id: &str) -> BpResult<()> {
        let mut all = self.lock();
        let w = all.entry(ws.to_string()).or_default();
        let before = w.rules.len();
        w.rules.retain(|r| r.id != id);
        if w.rules.len() == before {
            return Err(BpError::invalid("no such rule in this workspace"));
        }
        Ok(())
    }

    /// Rules in precedence order: target-specific first, then by age.
    pub fn rules(&self, ws: &str) -> Vec<Rule> {
        let all = self.lock();
        let mut rules = all.get(ws).map(|w| w.rules.clone()).unwrap_or_default();
        rules.sort_by_key(|r| r.target.is_none());
        rules
    }

    /// The rule that applies to `url` on `raw`, if any.
    pub fn matching_rule(&self, ws: &str, raw: &str, url: &str) -> Option<Rule> {
        self.rules(ws)
            .into_iter()
            .find(|r| r.target.as_deref().is_none_or(|t| t == raw) && glob(&r.pattern, url))
    }

    pub fn set_auth(&self, ws: &str, origin: &str, user: &str, password: &str) {
        let mut all = self.lock();
        let w = all.entry(ws.to_string()).or_default();
        w.auth_attempts.clear();
        w.auth
            .insert(origin.to_string(), (user.to_string(), password.to_string()));
    }

    pub fn clear_auth(&self, ws: &str, origin: Option<&str>) -> u32 {
        let mut all = self.lock();
        let w = all.entry(ws.to_string()).or_default();
        let before = w.auth.len();
        match origin {
            Some(o) => {
                w.auth.remove(o);
            }
            None => w.auth.clear(),
        }
        (before - w.auth.len()) as u32
    }

    /// Credentials for a challenge from `url` on `raw`; `None` after two
    /// answered challenges for the same URL (wrong credentials must not
    /// loop).
    pub fn credentials(&self, ws: &str, raw: &str, url: &str) -> Option<(String, String)> {
        let origin = origin_of(url)?;
        let mut all = self.lock();
        let w = all.get_mut(ws)?;
        let creds = w.auth.get(&origin).cloned()?;
        let attempts = w
            .auth_attempts
            .entry((raw.to_string(), url.to_string()))
            .or_insert(0);
        *attempts += 1;
        (*attempts <= 2).then_some(creds)
    }

    /// Whether the workspace holds credentials for `url`'s origin.
    pub fn has_credentials(&self, ws: &str, url: &str) -> bool {
        origin_of(url).is_some_and(|o| self.lock().get(ws).is_some_and(|w| w.auth.contains_key(&o)))
    }

    /// Whether requests of this workspace's targets must be intercepted.
    pub fn wants_interception(&self, ws: &str) -> bool {
        self.lock()
            .get(ws)
            .is_some_and(|w| !w.rules.is_empty() || !w.auth.is_empty())
    }

    /// Record a new request.
    pub fn record(&self, ws: &str, mut e: Entry) {
        let mut all = self.lock();
        let w = all.entry(ws.to_string()).or_default();
        w.last_seq += 1;
        e.seq = w.last_seq;
        if let Some((rule, outcome)) = w.marks.remove(&(e.raw.clone(), e.request_id.clone())) {
            e.rule_id = Some(rule);
            e.outcome = outcome;
        }
        w.journal.push_back(e);
        while w.journal.len() > JOURNAL_CAPACITY {
            w.journal.pop_front();
        }
    }

    /// Update the entry of a request.
    pub fn update(&self, ws: &str, raw: &str, request_id: &str, f: impl FnOnce(&mut Entry)) {
        let mut all = self.lock();
        if let Some(e) = all.get_mut(ws).and_then(|w| {
            w.journal
                .iter_mut()
                .rev()
                .find(|e| e.raw == raw && e.request_id == request_id)
        }) {
            f(e);
        }
    }

    /// Record that a rule handled a request, whether or not its journal
    /// entry exists yet (interception can come first).
    pub fn mark(&self, ws: &str, raw: &str, request_id: &str, rule: &str, outcome: &str) {
        let mut all = self.lock();
        let w = all.entry(ws.to_string()).or_default();
        match w
            .journal
            .iter_mut()
            .rev()
            .find(|e| e.raw == raw && e.request_id == request_id)
        {
            Some(e) => {
                e.rule_id = Some(rule.to_string());
                e.outcome = outcome.to_string();
            }
            None => {
                if w.marks.len() >= JOURNAL_CAPACITY {
                    w.marks.clear();
                }
                w.marks.insert(
                    (raw.to_string(), request_id.to_string()),
                    (rule.to_string(), outcome.to_string()),
                );
            }
        }
    }

    /// Entries after `since`, optionally of one raw target.
    pub fn read(&self, ws: &str, raw: Option<&str>, since: u64, limit: usize) -> (Vec<Entry>, u64) {
        let all = self.lock();
        let Some(w) = all.get(ws) else {
            return (Vec::new(), since);
        };
        let out: Vec<Entry> = w
            .journal
            .iter()
            .filter(|e| e.seq > since && raw.is_none_or(|r| r == e.raw))
            .take(limit)
            .cloned()
            .collect();
        let next = out.last().map(|e| e.seq).unwrap_or(since);
        (out, next)
    }

    /// Drop rules made by a lease that ended.
    pub fn remove_lease(&self, lease: &str) {
        for w in self.lock().values_mut() {
            w.rules.retain(|r| r.lease != lease);
        }
    }

    /// Drop everything of a released workspace.
    pub fn remove_workspace(&self, ws: &str) {
        self.lock().remove(ws);
    }

    /// Switch the workspace's network events on or off (on by default).
    pub fn set_events(&self, ws: &str, on: bool) {
        self.lock().entry(ws.to_string()).or_default().events.off = !on;
    }

    /// Whether the workspace's network events are on.
    pub fn events_on(&self, ws: &str) -> bool {
        self.lock().get(ws).is_none_or(|w| !w.events.off)
    }

    /// Whether one more network event may go out for `ws` now: `None` when
    /// events are off or this second's budget is spent (the event is
    /// counted as dropped), else the events dropped since the last one.
    pub fn event_slot(&self, ws: &str) -> Option<u32> {
        let mut all = self.lock();
        all.entry(ws.to_string())
            .or_default()
            .events
            .slot(EVENTS_PER_SECOND)
    }

    /// A copy of the journal entry of a request.
    pub fn entry(&self, ws: &str, raw: &str, request_id: &str) -> Option<Entry> {
        let all = self.lock();
        all.get(ws)?
            .journal
            .iter()
            .rev()
            .find(|e| e.raw == raw && e.request_id == request_id)
            .cloned()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn globs_and_origins() {
        assert!(glob("*", "http://a/b"));
        assert!(glob("*/api/*", "http://h/api/x?y"));
        assert!(glob("http://h/*.png", "http://h/a/b.png"));
        assert!(!glob("http://h/*.png", "http://h/a/b.jpg"));
        assert!(glob("http://h/exact", "http://h/exact"));
        assert!(!glob("http://h/exact", "http://h/exact2"));
        assert_eq!(
            origin_of("HTTP://User@Host:8080/x?y").as_deref(),
            Some("http://host:8080")
        );
    }
}
