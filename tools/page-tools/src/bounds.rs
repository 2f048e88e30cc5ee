//! Bounds for page-written text: every string the page wrote is cut to
//! a length, stripped of control and bidirectional-override characters
//! (which could hide text from a person reading the same output), and
//! schemas and outputs are bounded in depth and size.

use serde_json::Value;

pub const MAX_NAME: usize = 128;
pub const MAX_DESCRIPTION: usize = 1_000;
/// A thrown error's message.
pub const MAX_MESSAGE: usize = 500;
/// A declared schema as listed (the call validates against all of it).
const MAX_SCHEMA_BYTES: usize = 16 * 1024;
const MAX_SCHEMA_DEPTH: usize = 16;
/// A tool's output.
const MAX_OUTPUT_BYTES: usize = 64 * 1024;

/// Characters that are never passed on: C0/C1 controls (but tab and
/// newline become spaces) and bidirectional overrides and isolates.
fn hidden(c: char) -> bool {
    c.is_control()
        || matches!(c, '\u{202a}'..='\u{202e}' | '\u{2066}'..='\u{2069}' | '\u{200e}' | '\u{200f}')
}

/// `s` cleaned and cut to `max` characters; whether it was cut.
pub fn text(s: &str, max: usize) -> (String, bool) {
    let clean: String = s
        .chars()
        .filter_map(|c| match c {
            '\t' | '\n' | '\r' => Some(' '),
            c if hidden(c) => None,
            c => Some(c),
        })
        .collect();
    bp_sdk::bound::chars(&clean, max)
}

fn depth(v: &Value) -> usize {
    match v {
        Value::Array(a) => 1 + a.iter().map(depth).max().unwrap_or(0),
        Value::Object(o) => 1 + o.values().map(depth).max().unwrap_or(0),
        _ => 0,
    }
}

/// Clean every string in `v` (keys too) to `max` characters each.
fn clean(v: &Value, max: usize) -> Value {
    match v {
        Value::String(s) => Value::String(text(s, max).0),
        Value::Array(a) => Value::Array(a.iter().map(|x| clean(x, max)).collect()),
        Value::Object(o) => Value::Object(
            o.iter()
                .map(|(k, x)| (text(k, MAX_NAME).0, clean(x, max)))
                .collect(),
        ),
        other => other.clone(),
    }
}

/// The declared schema as listed: parsed, cleaned, or `null` with `true`
/// when it is too deep or too large to pass on.
pub fn schema(json_text: &str) -> (Value, bool) {
    let Ok(v) = serde_json::from_str::<Value>(json_text) else {
        return (Value::Null, true);
    };
    if json_text.len() > MAX_SCHEMA_BYTES || depth(&v) > MAX_SCHEMA_DEPTH {
        return (Value::Null, true);
    }
    (clean(&v, MAX_DESCRIPTION), false)
}

/// A tool's output: the value (strings cleaned) when it fits, else
/// `null` and the start of its text; whether it was cut.
pub fn output(json_text: &str) -> (Value, Option<String>, bool) {
    let parsed = serde_json::from_str::<Value>(json_text).unwrap_or(Value::Null);
    if json_text.len() <= MAX_OUTPUT_BYTES && depth(&parsed) <= MAX_SCHEMA_DEPTH * 2 {
        return (clean(&parsed, MAX_OUTPUT_BYTES), None, false);
    }
    let start = match &parsed {
        Value::String(s) => s.as_str(),
        _ => json_text,
    };
    let (cut, _) = text(start, MAX_OUTPUT_BYTES / 4);
    (Value::Null, Some(cut), true)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn page_text_loses_controls_and_overrides_and_is_cut() {
        assert_eq!(
            text("a\u{202e}b\u{0007}c\nd", 100),
            ("abc d".to_string(), false)
        );
        assert_eq!(text("abcdef", 3), ("abc".to_string(), true));
    }

    #[test]
    fn deep_or_large_schemas_are_not_passed_on() {
        let deep = "[".repeat(40) + &"]".repeat(40);
        assert_eq!(schema(&deep), (Value::Null, true));
        let (v, cut) = schema(r#"{"type":"object","description":"x\u0000y"}"#);
        assert!(!cut);
        assert_eq!(v["description"], "xy");
    }

    #[test]
    fn large_outputs_keep_only_their_start() {
        let big = serde_json::to_string(&"z".repeat(200_000)).unwrap_or_default();
        let (v, text, cut) = output(&big);
        assert!(cut && v.is_null());
        assert_eq!(text.map(|t| t.len()), Some(MAX_OUTPUT_BYTES / 4));
        assert_eq!(output("{\"a\":1}").0["a"], 1);
    }
}
