//! What `bp bridge --stdio` reads of the messages it relays: the ids of
//! requests and responses (so that a request the broker never answers
//! still gets a reply), and the broker's message limit for the
//! connection (so that the bridge knows which id the broker's refusal of
//! a longer line will carry).

use browser_pilot_host::broker::rpc::framing::{leading_id, over_limit, parse_line};
use browser_pilot_host::broker::rpc::MAX_MESSAGE_BYTES;
use serde::de::IgnoredAny;
use serde_json::Value;
use std::collections::BTreeSet;
use std::io::BufRead;
use std::sync::{Condvar, Mutex, MutexGuard};
use std::time::Duration;

/// What the two directions of the relay share.
pub(crate) struct Shared {
    /// Requests relayed and not yet answered, by `id` as JSON text: if the
    /// broker goes away, each still gets a reply.
    pub pending: Mutex<BTreeSet<String>>,
    limit: Mutex<Limit>,
    limit_known: Condvar,
}

/// The broker's message limit for the connection. An `initialize` can
/// lower it, from the next line on; until its answer says what is in
/// force, the limit is not known.
struct Limit {
    bytes: usize,
    /// The id of an `initialize` relayed and not yet answered.
    awaited: Option<String>,
    /// The broker's side has ended: no answer is coming.
    ended: bool,
}

impl Default for Shared {
    fn default() -> Self {
        Self {
            pending: Mutex::default(),
            limit: Mutex::new(Limit {
                bytes: MAX_MESSAGE_BYTES,
                awaited: None,
                ended: false,
            }),
            limit_known: Condvar::new(),
        }
    }
}

pub(crate) fn lock<T>(m: &Mutex<T>) -> MutexGuard<'_, T> {
    m.lock().unwrap_or_else(|e| e.into_inner())
}

/// How the broker will take one line from stdin.
pub(crate) struct Outgoing {
    /// The id its answer will carry, as JSON text (`None`: no answer, or
    /// one with `id: null`).
    pub id: Option<String>,
    /// It is an `initialize` request.
    pub initialize: bool,
}

impl Shared {
    /// Read `line` (its newline, if any, included) as the broker will. A
    /// line longer than the limit in force is refused unread, with the id
    /// the broker finds in the part it reads (see `broker::framing`);
    /// otherwise a request is read whole.
    pub fn outgoing(&self, line: &[u8]) -> Outgoing {
        let limit = lock(&self.limit).bytes;
        if over_limit(line, limit) {
            return Outgoing {
                id: line
                    .get(..=limit)
                    .and_then(leading_id)
                    .map(|id| id.to_string()),
                initialize: false,
            };
        }
        let Some(Ok(v)) = parse_line(line) else {
            return Outgoing {
                id: None,
                initialize: false,
            };
        };
        let method = v.get("method");
        Outgoing {
            id: method.and(v.get("id")).map(|id| id.to_string()),
            initialize: method.and_then(Value::as_str) == Some("initialize"),
        }
    }

    /// An `initialize` with this id is about to go to the broker.
    pub fn initialize_sent(&self, id: &str) {
        lock(&self.limit).awaited = Some(id.to_string());
    }

    /// Wait (at most `within`) until the awaited `initialize` is answered,
    /// so the next line is read against the limit it set.
    pub fn await_initialize(&self, within: Duration) {
        let limit = lock(&self.limit);
        let _unused = self
            .limit_known
            .wait_timeout_while(limit, within, |l| l.awaited.is_some() && !l.ended);
    }

    /// A line from the broker: a response is no longer pending, and the
    /// answer to the awaited `initialize` says the limit now in force.
    pub fn answered(&self, line: &[u8]) {
        let Some(id) = response_id(line) else {
            return;
        };
        lock(&self.pending).remove(&id);
        let mut limit = lock(&self.limit);
        if limit.awaited.as_deref() == Some(id.as_str()) {
            let v: Value = serde_json::from_slice(line).unwrap_or(Value::Null);
            if let Some(bytes) = v["result"]["limits"]["maxMessageBytes"]
                .as_u64()
                .and_then(|b| usize::try_from(b).ok())
            {
                limit.bytes = bytes;
            }
            limit.awaited = None;
            self.limit_known.notify_all();
        }
    }

    /// The broker's side ended.
    pub fn broker_ended(&self) {
        lock(&self.limit).ended = true;
        self.limit_known.notify_all();
    }
}

/// Read past the rest of a line without keeping it: `false` at end of
/// input.
pub(crate) fn pass_line(input: &mut impl BufRead) -> std::io::Result<bool> {
    loop {
        let buf = input.fill_buf()?;
        if buf.is_empty() {
            return Ok(false);
        }
        let (n, end) = match buf.iter().position(|&b| b == b'\n') {
            Some(i) => (i + 1, true),
            None => (buf.len(), false),
        };
        input.consume(n);
        if end {
            return Ok(true);
        }
    }
}

/// The members of a broker message the bridge looks at; the rest is skipped
/// without being built. A member that is present counts even when it is
/// `null` (a `null` result is still a response).
#[derive(serde::Deserialize)]
struct Probe {
    #[serde(default, deserialize_with = "present")]
    id: Option<Value>,
    #[serde(default, deserialize_with = "present")]
    result: Option<IgnoredAny>,
    #[serde(default, deserialize_with = "present")]
    error: Option<IgnoredAny>,
}

fn present<'de, D: serde::Deserializer<'de>, T: serde::Deserialize<'de>>(
    d: D,
) -> Result<Option<T>, D::Error> {
    T::deserialize(d).map(Some)
}

/// Only a JSON object is a message (serde would also read a struct from
/// an array).
fn probe(line: &[u8]) -> Option<Probe> {
    if line.iter().find(|b| !b.is_ascii_whitespace()) != Some(&b'{') {
        return None;
    }
    serde_json::from_slice(line).ok()
}

/// The `id` of a response (a message with `id` and `result` or `error`).
/// Responses come from the broker and may be large: only the members
/// looked at are built.
fn response_id(line: &[u8]) -> Option<String> {
    let p = probe(line)?;
    if p.result.is_none() && p.error.is_none() {
        return None;
    }
    p.id.map(|id| id.to_string())
}

#[cfg(test)]
mod tests {
    use super::*;

    fn request_id(line: &[u8]) -> Option<String> {
        Shared::default().outgoing(line).id
    }

    #[test]
    fn ids_are_read_from_requests_and_responses_only() {
        let req = br#"{"jsonrpc":"2.0","id": 7 ,"method":"tools/call","params":{"id":9}}"#;
        assert_eq!(request_id(req).as_deref(), Some("7"));
        assert_eq!(response_id(req), None);
        let res = br#"{"id":"a b","jsonrpc":"2.0","result":{"id":1}}"#;
        assert_eq!(response_id(res).as_deref(), Some("\"a b\""));
        assert_eq!(request_id(res), None);
        let err = br#"{"id":{"k" : 1},"jsonrpc":"2.0","error":{"code":-1}}"#;
        assert_eq!(response_id(err).as_deref(), Some(r#"{"k":1}"#));
        let null = br#"{"id":null,"jsonrpc":"2.0","result":null}"#;
        assert_eq!(response_id(null).as_deref(), Some("null"));
        let note = br#"{"jsonrpc":"2.0","method":"events/event","params":{}}"#;
        assert_eq!(request_id(note), None);
        assert_eq!(response_id(note), None);
        assert_eq!(request_id(b"not json"), None);
        // Arrays (a batch, or anything else) are no message of the bridge's.
        assert_eq!(request_id(br#"[1,"x"]"#), None);
        let batch = br#"[{"jsonrpc":"2.0","id":1,"method":"a"},{"id":2,"method":"b"}]"#;
        assert_eq!(request_id(batch), None);
        assert_eq!(response_id(br#" [1,null,{"x":1}]"#), None);
        // A repeated key: the last one counts, as for the broker.
        let twice = br#"{"id":1,"id":2,"method":"tools/call"}"#;
        assert_eq!(request_id(twice).as_deref(), Some("2"));
    }

    #[test]
    fn a_line_over_the_limit_the_broker_answered_carries_the_id_before_the_cut() {
        let shared = Shared::default();
        let init = br#"{"jsonrpc":"2.0","id":"i","method":"initialize","params":{}}"#;
        let out = shared.outgoing(init);
        assert!(out.initialize);
        assert_eq!(out.id.as_deref(), Some(r#""i""#));
        shared.initialize_sent(r#""i""#);
        // Answered: the limit in force from the next line on.
        shared.answered(br#"{"id":"i","result":{"limits":{"maxMessageBytes":65536}}}"#);
        shared.await_initialize(Duration::ZERO);
        let pad = "x".repeat(70_000);
        let first = format!(r#"{{"id":5,"method":"m","params":{{"p":"{pad}"}}}}"#);
        let out = shared.outgoing(first.as_bytes());
        assert_eq!((out.id.as_deref(), out.initialize), (Some("5"), false));
        let last = format!(r#"{{"method":"m","params":{{"p":"{pad}"}},"id":5}}"#);
        assert_eq!(shared.outgoing(last.as_bytes()).id, None);
        // Exactly at the limit, newline aside: read whole.
        let head = r#"{"method":"m","id":6,"p":""#;
        let fits = format!("{head}{}\"}}\n", "y".repeat(65536 - head.len() - 2));
        assert_eq!(fits.len(), 65537);
        assert_eq!(shared.outgoing(fits.as_bytes()).id.as_deref(), Some("6"));
        let over = format!("{head}{}\"}}\n", "y".repeat(65536 - head.len() - 1));
        assert_eq!(shared.outgoing(over.as_bytes()).id.as_deref(), Some("6"));
        let late = format!(
            "{{\"method\":\"m\",\"p\":\"{}\",\"id\":6}}\n",
            "y".repeat(65536)
        );
        assert_eq!(shared.outgoing(late.as_bytes()).id, None);
        // Over by one byte, the id last: the part read (the limit plus
        // one byte) is the whole object, id and closing brace included.
        // Over by two, the brace is cut off.
        let head = r#"{"method":"m","p":""#;
        let over_by = |n: usize| {
            format!(
                "{head}{}\",\"id\":8}}",
                "y".repeat(65536 + n - head.len() - 9)
            )
        };
        assert_eq!(over_by(1).len(), 65537);
        assert_eq!(
            shared.outgoing(over_by(1).as_bytes()).id.as_deref(),
            Some("8")
        );
        assert_eq!(shared.outgoing(over_by(2).as_bytes()).id, None);
        // A failed `initialize` leaves the limit as it was (under 16 MiB,
        // this line would be read whole).
        shared.initialize_sent("7");
        shared.answered(br#"{"id":7,"error":{"code":-32000}}"#);
        assert_eq!(shared.outgoing(late.as_bytes()).id, None);
        // Whitespace the broker ignores, around a request it reads.
        let spaced = "\u{a0}{\"id\":9,\"method\":\"m\"}\u{a0}\n";
        assert_eq!(shared.outgoing(spaced.as_bytes()).id.as_deref(), Some("9"));
    }
}
