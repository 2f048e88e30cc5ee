//! Agent hints the broker adds to results and events: bounded, in a fixed
//! order, made only of codes, counts, statuses and enums (never page text,
//! values, selectors or CDP IDs). Hints are advice, never a success claim.

use serde_json::{json, Value};

/// At most this many hints on one result or event.
pub const MAX_HINTS: usize = 8;
/// At most this much hint JSON on one result or event.
pub const MAX_HINT_BYTES: usize = 1024;

/// A main document answered 403 or 429: the page is a refusal, not the
/// content asked for.
pub fn access_blocked(status: u16) -> Value {
    json!({"code": "access_blocked", "source": "navigation", "confidence": "high",
           "recommendedAction": "read", "status": status})
}

/// Whether a main-document status means access was refused.
pub fn is_blocked(status: u16) -> bool {
    matches!(status, 403 | 429)
}

/// The same kind of action failed to change anything several times in a
/// row on one tab.
pub fn repeated_action(count: u32) -> Value {
    json!({"code": "repeated_action", "source": "watchdog", "confidence": "high",
           "recommendedAction": "observe", "count": count})
}

/// Whether the last observation of each (workspace, tab) showed a sign-in
/// surface, to report it appearing and going away.
#[derive(Default)]
pub struct AuthStates(std::sync::Mutex<AuthMap>);

/// (workspace, tab) -> (surface present, when last observed), and the
/// observation counter.
#[derive(Default)]
pub struct AuthMap {
    seen: std::collections::HashMap<(String, String), (bool, u64)>,
    clock: u64,
}

/// Tabs remembered at most; the one observed longest ago goes first.
const MAX_AUTH_STATES: usize = 4096;

impl AuthStates {
    /// Mark an observation result's `auth_surface` hint as `appeared`, or
    /// add one with state `gone`, against the previous observation of the
    /// same tab by the same workspace.
    pub fn observe(&self, workspace: &str, raw: &str, value: &mut Value) {
        let present = value["hints"]
            .as_array()
            .is_some_and(|h| h.iter().any(|x| x["code"] == "auth_surface"));
        let key = (workspace.to_string(), raw.to_string());
        let previous = {
            let mut map = self.0.lock().unwrap_or_else(|e| e.into_inner());
            map.clock += 1;
            let now = map.clock;
            if map.seen.len() >= MAX_AUTH_STATES && !map.seen.contains_key(&key) {
                let oldest = map
                    .seen
                    .iter()
                    .min_by_key(|(_, (_, at))| *at)
                    .map(|(k, _)| k.clone());
                if let Some(k) = oldest {
                    map.seen.remove(&k);
                }
            }
            map.seen.insert(key, (present, now)).map(|(p, _)| p)
        };
        match (previous, present) {
            (Some(false), true) => {
                if let Some(h) = value["hints"]
                    .as_array_mut()
                    .and_then(|h| h.iter_mut().find(|x| x["code"] == "auth_surface"))
                {
                    h["state"] = json!("appeared");
                }
            }
            (Some(true), false) => add(
                value,
                json!({"code": "auth_surface", "source": "observation", "confidence": "high",
                       "recommendedAction": "observe", "state": "gone"}),
            ),
            _ => {}
        }
    }

    /// The workspace was released.
    pub fn forget_workspace(&self, workspace: &str) {
        self.0
            .lock()
            .unwrap_or_else(|e| e.into_inner())
            .seen
            .retain(|(w, _), _| w != workspace);
    }
}

/// Add `hint` to `value["hints"]`, keeping the bounds: the first
/// [`MAX_HINTS`] hints that fit in [`MAX_HINT_BYTES`] stay, in order.
pub fn add(value: &mut Value, hint: Value) {
    let Some(obj) = value.as_object_mut() else {
        return;
    };
    let mut hints = match obj.remove("hints") {
        Some(Value::Array(h)) => h,
        _ => Vec::new(),
    };
    hints.push(hint);
    obj.insert("hints".into(), Value::Array(bounded(hints)));
}

/// The first hints that fit both bounds.
pub fn bounded(hints: Vec<Value>) -> Vec<Value> {
    let mut bytes = 2;
    let mut out = Vec::new();
    for h in hints {
        let size = h.to_string().len() + 1;
        if out.len() >= MAX_HINTS || bytes + size > MAX_HINT_BYTES {
            break;
        }
        bytes += size;
        out.push(h);
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn hints_stay_within_their_bounds_in_order() {
        let mut v = json!({"hints": []});
        for i in 0..20 {
            add(&mut v, repeated_action(i));
        }
        let hints = v["hints"].as_array().unwrap();
        assert_eq!(hints.len(), MAX_HINTS);
        assert_eq!(hints[0]["count"], 0);
        assert!(v["hints"].to_string().len() <= MAX_HINT_BYTES);
        let big: Vec<Value> = (0..8)
            .map(|i| json!({"code": "x", "pad": "y".repeat(200), "i": i}))
            .collect();
        let kept = bounded(big);
        assert_eq!(kept.len(), 4);
        assert!(Value::Array(kept).to_string().len() <= MAX_HINT_BYTES);
        assert!(is_blocked(403) && is_blocked(429) && !is_blocked(404) && !is_blocked(200));
    }

    #[test]
    fn auth_states_report_changes_and_evict_the_oldest_tab() {
        let states = AuthStates::default();
        let with = || json!({"hints": [{"code": "auth_surface", "state": "present"}]});
        let mut first = with();
        states.observe("w", "tab0", &mut first);
        assert_eq!(first["hints"][0]["state"], "present");
        let mut gone = json!({"hints": []});
        states.observe("w", "tab0", &mut gone);
        assert_eq!(gone["hints"][0]["state"], "gone");
        let mut back = with();
        states.observe("w", "tab0", &mut back);
        assert_eq!(back["hints"][0]["state"], "appeared");
        // Fill the map: the oldest tab (tab0) goes, the newest stay.
        for i in 1..=MAX_AUTH_STATES {
            states.observe("w", &format!("tab{i}"), &mut json!({"hints": []}));
        }
        let mut fresh = json!({"hints": []});
        states.observe("w", "tab0", &mut fresh);
        assert!(
            fresh["hints"].as_array().unwrap().is_empty(),
            "tab0 was forgotten"
        );
        let mut kept = with();
        states.observe("w", &format!("tab{MAX_AUTH_STATES}"), &mut kept);
        assert_eq!(kept["hints"][0]["state"], "appeared", "the newest was kept");
    }
}
