//! Requests of a page in flight, counted as their events arrive (before
//! any later reply is delivered, so a read answered after an input sees
//! the requests that input started). Settling after an action asks which
//! requests started after it are still unfinished (`input/settle.rs`).

use super::Registry;
use crate::cdp::CdpEvent;
use chromiumoxide::cdp::browser_protocol::network::{
    EventLoadingFailed, EventLoadingFinished, EventRequestWillBeSent,
};
use std::collections::HashMap;

/// Unfinished requests kept per page at most; the oldest go first.
const MAX_TRACKED: usize = 512;

/// Resource types that stay open by design (a stream), never waited for.
const LONG_LIVED: [&str; 2] = ["EventSource", "WebSocket"];

/// A page's requests in flight.
#[derive(Debug, Default)]
pub struct RequestsInFlight {
    /// Requests started so far (a serial; it only grows).
    pub started: u64,
    /// Unfinished requests: request ID -> the serial it started with.
    open: HashMap<String, u64>,
}

impl RequestsInFlight {
    /// Unfinished requests that started after serial `since`.
    pub fn open_since(&self, since: u64) -> u32 {
        self.open.values().filter(|s| **s > since).count() as u32
    }

    fn on_event(&mut self, method: &str, p: &serde_json::Value) {
        let Some(id) = p["requestId"].as_str() else {
            return;
        };
        match method {
            // A redirect keeps its request ID: still the same request.
            EventRequestWillBeSent::IDENTIFIER if p.get("redirectResponse").is_none() => {
                let kind = p["type"].as_str().unwrap_or_default();
                if LONG_LIVED.contains(&kind) {
                    return;
                }
                self.started += 1;
                if self.open.len() >= MAX_TRACKED {
                    if let Some(oldest) = self.open.iter().min_by_key(|(_, s)| **s) {
                        let oldest = oldest.0.clone();
                        self.open.remove(&oldest);
                    }
                }
                self.open.insert(id.to_string(), self.started);
            }
            EventLoadingFinished::IDENTIFIER | EventLoadingFailed::IDENTIFIER => {
                self.open.remove(id);
            }
            _ => {}
        }
    }
}

impl Registry {
    /// Count a network event of `raw` (without waking the target's
    /// waiters: nothing waits on it).
    pub(super) fn track_request(&self, raw: &str, ev: &CdpEvent) {
        // The Network domain's events (a family prefix, for routing); the
        // fields are read from the JSON, as `net_event` reads them.
        if !ev.method.starts_with("Network.") {
            return;
        }
        if let Some(t) = self.lock().targets.get_mut(raw) {
            t.requests.on_event(&ev.method, &ev.params);
        }
    }
}

#[cfg(test)]
mod tests {
    use super::RequestsInFlight;
    use serde_json::json;

    fn sent(r: &mut RequestsInFlight, id: &str, kind: &str) {
        r.on_event(
            "Network.requestWillBeSent",
            &json!({"requestId": id, "type": kind}),
        );
    }

    #[test]
    fn counts_requests_started_after_a_mark_until_they_end() {
        let mut r = RequestsInFlight::default();
        sent(&mut r, "old", "Fetch");
        let mark = r.started;
        assert_eq!(r.open_since(mark), 0, "one started before the mark");
        sent(&mut r, "a", "Fetch");
        sent(&mut r, "b", "XHR");
        // A stream stays open by design: never waited for.
        sent(&mut r, "s", "EventSource");
        assert_eq!(r.open_since(mark), 2);
        // A redirect is the same request, not a new one.
        r.on_event(
            "Network.requestWillBeSent",
            &json!({"requestId": "a", "type": "Fetch", "redirectResponse": {"status": 302}}),
        );
        assert_eq!(r.open_since(mark), 2);
        r.on_event("Network.loadingFinished", &json!({"requestId": "a"}));
        r.on_event("Network.loadingFailed", &json!({"requestId": "b"}));
        assert_eq!(r.open_since(mark), 0);
        assert_eq!(r.started - mark, 2);
    }

    #[test]
    fn keeps_a_bounded_number_of_open_requests() {
        let mut r = RequestsInFlight::default();
        for i in 0..(super::MAX_TRACKED + 50) {
            sent(&mut r, &format!("r{i}"), "Fetch");
        }
        assert_eq!(r.open_since(0) as usize, super::MAX_TRACKED);
    }
}
