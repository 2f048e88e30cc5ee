//! Refusing a line longer than the reader's limit, shared by the broker's
//! framing and `bp bridge --stdio`: the refusal names the request's `id`
//! when it was read before the cut, so a client loses that one request
//! and nothing else.

use crate::broker::rpc::rpc_error;
use crate::error::{BpError, Code};
use serde::de::{Deserializer, IgnoredAny, MapAccess, Visitor};
use serde_json::{json, Value};
use std::cell::RefCell;
use std::fmt;

/// The error line (no newline) for a message longer than `max` bytes, of
/// which `prefix` was read. `by` says which reader refused it
/// (`"broker"` or `"bridge"`).
pub fn oversized_refusal(prefix: &[u8], max: usize, by: &str) -> String {
    let e = BpError::new(
        Code::ResultTooLarge,
        format!("message larger than {max} bytes; not read"),
    )
    .with_context(json!({"limitBytes": max, "refusedBy": by}));
    rpc_error(&leading_id(prefix).unwrap_or(Value::Null), -32600, &e)
}

/// Whether `line` (what was read of one, its newline included if it came)
/// holds more than `max` bytes before its newline: such a line is refused
/// unread. The broker reads at most `max + 1` bytes of a line, so for it
/// this means that many arrived with no newline among them.
pub fn over_limit(line: &[u8], max: usize) -> bool {
    line.len() - usize::from(line.ends_with(b"\n")) > max
}

/// A line as the broker reads it: `None` when it is blank, else the JSON
/// it holds (invalid UTF-8 replaced, surrounding whitespace ignored). The
/// bridge reads requests with it too, to see them as the broker will.
pub fn parse_line(line: &[u8]) -> Option<serde_json::Result<Value>> {
    let text = String::from_utf8_lossy(line);
    let text = text.trim();
    (!text.is_empty()).then(|| serde_json::from_str(text))
}

/// The top-level `id` of a JSON object cut off somewhere after it. An `id`
/// counts only once the next member's name (or the end of the object) was
/// read after it, so a number cut in the middle is never taken for the
/// id. Of
/// repeated `id` members read, the last counts, as when a whole line is
/// parsed.
pub fn leading_id(prefix: &[u8]) -> Option<Value> {
    let found = RefCell::new(None);
    let mut de = serde_json::Deserializer::from_slice(prefix);
    // The cut makes this fail; what was found before it stays.
    let _ = (&mut de).deserialize_map(Seek(&found));
    found.into_inner()
}

struct Seek<'a>(&'a RefCell<Option<Value>>);

impl<'de> Visitor<'de> for Seek<'_> {
    type Value = ();

    fn expecting(&self, f: &mut fmt::Formatter) -> fmt::Result {
        f.write_str("a JSON-RPC message")
    }

    fn visit_map<A: MapAccess<'de>>(self, mut map: A) -> Result<(), A::Error> {
        let mut read: Option<Value> = None;
        loop {
            let key = map.next_key::<String>()?;
            if let Some(id) = read.take() {
                *self.0.borrow_mut() = Some(id);
            }
            match key.as_deref() {
                None => return Ok(()),
                Some("id") => read = Some(map.next_value()?),
                Some(_) => {
                    map.next_value::<IgnoredAny>()?;
                }
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_id_is_found_before_the_cut_and_only_when_whole() {
        let cut = |s: &str| leading_id(s.as_bytes());
        let pad = "x".repeat(100);
        let head = format!(r#"{{"id":7,"jsonrpc":"2.0","method":"m","params":{{"t":"{pad}"#);
        assert_eq!(cut(&head), Some(json!(7)));
        let s = format!(r#" {{ "jsonrpc":"2.0", "id" : "a\"b", "params":["{pad}"#);
        assert_eq!(cut(&s), Some(json!("a\"b")));
        // A number at the cut may be cut itself: not taken.
        assert_eq!(cut(r#"{"jsonrpc":"2.0","id":12"#), None);
        assert_eq!(cut(r#"{"jsonrpc":"2.0","id":"ab"#), None);
        // The id after the cut is not known.
        assert_eq!(cut(&format!(r#"{{"params":{{"t":"{pad}"#)), None);
        // Repeated: the last read counts.
        assert_eq!(cut(r#"{"id":1,"id":2,"params":"#), Some(json!(2)));
        // Not an object, or not JSON.
        assert_eq!(cut(r#"[{"id":1},"#), None);
        assert_eq!(cut("yyyyyyyy"), None);
        assert_eq!(cut(""), None);
        // A whole object works too.
        assert_eq!(cut(r#"{"id":null,"method":"m"}"#), Some(Value::Null));
    }

    #[test]
    fn a_line_is_over_the_limit_by_what_comes_before_its_newline() {
        assert!(!over_limit(b"abcd\n", 4));
        assert!(!over_limit(b"abcd", 4));
        assert!(over_limit(b"abcde", 4));
        assert!(over_limit(b"abcde\n", 4));
        assert!(!over_limit(b"", 0));
    }

    #[test]
    fn the_refusal_has_the_protocol_shape() {
        let line = oversized_refusal(br#"{"id":"q1","params":{"#, 65536, "broker");
        let v: Value = serde_json::from_str(&line).unwrap();
        assert_eq!(v["id"], "q1");
        assert_eq!(v["error"]["code"], -32600);
        assert_eq!(v["error"]["data"]["code"], "result_too_large");
        assert_eq!(v["error"]["data"]["context"]["limitBytes"], 65536);
        assert_eq!(v["error"]["data"]["context"]["refusedBy"], "broker");
    }
}
