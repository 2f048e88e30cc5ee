//! Per-workspace event journals: bounded, ordered by a monotonic sequence,
//! polled by cursor and pushed best-effort to connected clients.

use crate::error::{BpError, BpResult, Code};
use serde_json::{json, Value};
use std::collections::VecDeque;

/// Events a workspace journal keeps before compacting the oldest.
pub const JOURNAL_CAPACITY: usize = 1024;
/// Most events one poll returns.
pub const MAX_POLL: usize = 500;

/// One workspace's journal.
#[derive(Default)]
pub struct Journal {
    events: VecDeque<Value>,
    last_seq: u64,
}

/// What to record (the journal adds IDs, sequence and time).
pub struct NewEvent<'a> {
    pub kind: &'a str,
    pub lease_id: Option<&'a str>,
    pub target_id: Option<&'a str>,
    pub generation: u64,
    pub payload: Value,
}

/// Events that carry page data (URLs) are `browser_data`.
fn sensitivity_of(kind: &str) -> &'static str {
    match kind {
        "navigation" | "document.changed" | "target.attached" | "download" => "browser_data",
        "console.message" | "page.error" => "page_content",
        _ => "none",
    }
}

fn now_ms() -> u64 {
    std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)
        .map(|d| d.as_millis() as u64)
        .unwrap_or(0)
}

impl Journal {
    /// The cursor that sees only events after now.
    pub fn cursor(&self) -> String {
        self.last_seq.to_string()
    }

    /// Append an event; returns it.
    pub fn push(&mut self, workspace_id: &str, e: NewEvent<'_>) -> Value {
        self.last_seq += 1;
        let mut event = json!({
            "eventId": format!("ev_{workspace_id}_{}", self.last_seq),
            "seq": self.last_seq,
            "timestamp": now_ms(),
            "workspaceId": workspace_id,
            "type": e.kind,
            "payloadVersion": 1,
            "sensitivity": sensitivity_of(e.kind),
            "generation": e.generation,
            "payload": e.payload,
        });
        if let Some(obj) = event.as_object_mut() {
            if let Some(l) = e.lease_id {
                obj.insert("leaseId".into(), json!(l));
            }
            if let Some(t) = e.target_id {
                obj.insert("targetId".into(), json!(t));
            }
        }
        self.events.push_back(event.clone());
        while self.events.len() > JOURNAL_CAPACITY {
            self.events.pop_front();
        }
        event
    }

    /// Events after `cursor`, at most `limit`.
    pub fn poll(&self, cursor: &str, limit: usize) -> BpResult<Value> {
        let after: u64 = cursor
            .parse()
            .map_err(|_| BpError::invalid("`cursor` must be a cursor returned by the broker"))?;
        if after > self.last_seq {
            return Err(BpError::invalid("`cursor` is ahead of this journal"));
        }
        let oldest = self
            .events
            .front()
            .and_then(|e| e["seq"].as_u64())
            .unwrap_or(self.last_seq + 1);
        if after + 1 < oldest {
            return Err(BpError::new(
                Code::CursorExpired,
                "events after this cursor were compacted; rebuild state and take a new cursor",
            )
            .with_context(
                json!({"oldestCursor": (oldest - 1).to_string(), "latestCursor": self.cursor()}),
            ));
        }
        let limit = limit.clamp(1, MAX_POLL);
        let fresh: Vec<&Value> = self
            .events
            .iter()
            .filter(|e| e["seq"].as_u64().unwrap_or(0) > after)
            .collect();
        let page: Vec<Value> = fresh.iter().take(limit).map(|e| (*e).clone()).collect();
        let next = page.last().and_then(|e| e["seq"].as_u64()).unwrap_or(after);
        Ok(json!({"events": page, "nextCursor": next.to_string(), "hasMore": fresh.len() > limit}))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn push(j: &mut Journal, n: usize) {
        for _ in 0..n {
            j.push(
                "ws",
                NewEvent {
                    kind: "t",
                    lease_id: None,
                    target_id: None,
                    generation: 1,
                    payload: json!({}),
                },
            );
        }
    }

    #[test]
    fn cursor_paging_and_compaction() {
        let mut j = Journal::default();
        let start = j.cursor();
        push(&mut j, 5);
        let page = j.poll(&start, 3).unwrap();
        assert_eq!(page["events"].as_array().map(Vec::len), Some(3));
        assert_eq!(page["hasMore"], true);
        let next = page["nextCursor"].as_str().unwrap().to_string();
        let rest = j.poll(&next, 10).unwrap();
        assert_eq!(rest["events"][0]["seq"], 4);
        assert_eq!(rest["hasMore"], false);
        push(&mut j, JOURNAL_CAPACITY + 10);
        let err = j.poll(&start, 10).unwrap_err();
        assert_eq!(err.code, Code::CursorExpired);
        assert!(j.poll("x", 1).is_err());
        assert!(j.poll("999999", 1).is_err());
    }
}
