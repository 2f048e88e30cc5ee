//! The invariants every reply must hold, whatever the input was.

use browser_pilot_host::Code;
use serde_json::Value;
use std::collections::{BTreeMap, HashMap};

/// JSON-RPC error codes the broker may use.
const RPC_CODES: [i64; 5] = [-32700, -32600, -32601, -32602, -32000];

/// Command states after which a `tools/call` reply must carry its
/// outcome.
const TERMINAL: [&str; 5] = [
    "completed",
    "failed",
    "cancelled",
    "expired",
    "unknown_outcome",
];

/// What one input's replies held.
#[derive(Default)]
pub struct Tally {
    pub replies: u64,
    /// Error replies by stable code.
    pub codes: BTreeMap<String, u64>,
}

/// The methods of the input's requests, by ID, where an ID was used once
/// (read the way the broker frames: lines, lossy UTF-8, trimmed).
pub fn methods_by_id(input: &[u8]) -> HashMap<String, String> {
    let mut seen: HashMap<String, Option<String>> = HashMap::new();
    for line in input.split(|b| *b == b'\n') {
        let text = String::from_utf8_lossy(line);
        let Ok(v) = serde_json::from_str::<Value>(text.trim()) else {
            continue;
        };
        let (Some(id), Some(m)) = (v.get("id"), v.get("method").and_then(Value::as_str)) else {
            continue;
        };
        seen.entry(id.to_string())
            .and_modify(|e| *e = None)
            .or_insert_with(|| Some(m.to_string()));
    }
    seen.into_iter()
        .filter_map(|(id, m)| m.map(|m| (id, m)))
        .collect()
}

/// Check every line the broker wrote; `Err` names the first violation.
pub fn replies(output: &[u8], methods: &HashMap<String, String>) -> Result<Tally, String> {
    let mut tally = Tally::default();
    let text = std::str::from_utf8(output).map_err(|e| format!("reply is not UTF-8: {e}"))?;
    for line in text.lines() {
        let v: Value =
            serde_json::from_str(line).map_err(|e| format!("reply is not JSON ({e}): {line}"))?;
        one(&v, methods, &mut tally).map_err(|why| format!("{why}: {line}"))?;
    }
    Ok(tally)
}

fn one(v: &Value, methods: &HashMap<String, String>, tally: &mut Tally) -> Result<(), String> {
    if v.get("jsonrpc").and_then(Value::as_str) != Some("2.0") {
        return Err("no `jsonrpc: 2.0`".into());
    }
    if let Some(m) = v.get("method") {
        // The only notification the broker sends.
        return match (m.as_str(), v.get("id")) {
            (Some("events/event"), None) if v["params"].is_object() => Ok(()),
            _ => Err("unexpected notification".into()),
        };
    }
    let id = v.get("id").ok_or("reply without `id`")?;
    tally.replies += 1;
    match (v.get("result"), v.get("error")) {
        (Some(r), None) => {
            if methods.get(&id.to_string()).map(String::as_str) == Some("tools/call") {
                envelope(r)?;
            }
            Ok(())
        }
        (None, Some(e)) => {
            let code = error(e)?;
            *tally.codes.entry(code).or_default() += 1;
            Ok(())
        }
        _ => Err("a reply needs exactly one of `result` and `error`".into()),
    }
}

/// A JSON-RPC error object carrying one of the stable codes.
fn error(e: &Value) -> Result<String, String> {
    let rpc = e["code"].as_i64().ok_or("error without an integer code")?;
    if !RPC_CODES.contains(&rpc) {
        return Err(format!("JSON-RPC code {rpc} is not one the broker uses"));
    }
    if !e["message"].is_string() {
        return Err("error without a message".into());
    }
    stable(&e["data"])
}

/// `{code, message, retryable}` with a code from the stable table.
fn stable(data: &Value) -> Result<String, String> {
    let code = data["code"].as_str().ok_or("error without a stable code")?;
    if Code::parse(code).is_none() {
        return Err(format!("`{code}` is not a stable code"));
    }
    if !data["message"].is_string() || !data["retryable"].is_boolean() {
        return Err("error data lacks message or retryable".into());
    }
    Ok(code.to_string())
}

/// A `tools/call` result: a command whose terminal state comes with
/// exactly one of `result` and `error` (a duplicate may still be running).
fn envelope(r: &Value) -> Result<(), String> {
    let state = r["command"]["state"]
        .as_str()
        .ok_or("tools/call result without command.state")?;
    if r["duplicate"] == true {
        return Ok(());
    }
    if !TERMINAL.contains(&state) {
        return Err(format!("tools/call answered in state `{state}`"));
    }
    match (r.get("result"), r.get("error")) {
        (Some(_), None) => Ok(()),
        (None, Some(e)) => stable(e).map(|_| ()),
        _ => Err("tools/call result needs exactly one of `result` and `error`".into()),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn check(input: &str, output: &str) -> Result<Tally, String> {
        replies(output.as_bytes(), &methods_by_id(input.as_bytes()))
    }

    #[test]
    fn good_replies_pass_and_count_codes() {
        let input = "{\"id\":1,\"method\":\"tools/call\"}\n{\"id\":2,\"method\":\"x\"}";
        let out = concat!(
            r#"{"jsonrpc":"2.0","id":1,"result":{"command":{"state":"failed"},"error":{"code":"stale_ref","message":"m","retryable":false}}}"#,
            "\n",
            r#"{"jsonrpc":"2.0","id":2,"error":{"code":-32601,"message":"m","data":{"code":"invalid_argument","message":"m","retryable":false}}}"#,
            "\n",
            r#"{"jsonrpc":"2.0","method":"events/event","params":{}}"#,
        );
        let t = check(input, out).unwrap();
        assert_eq!(t.replies, 2);
        assert_eq!(t.codes["invalid_argument"], 1);
    }

    #[test]
    fn each_broken_reply_is_caught() {
        let call = "{\"id\":1,\"method\":\"tools/call\"}";
        for bad in [
            "not json",
            r#"{"id":1,"result":{}}"#,
            r#"{"jsonrpc":"2.0","result":{}}"#,
            r#"{"jsonrpc":"2.0","id":1}"#,
            r#"{"jsonrpc":"2.0","id":1,"result":{},"error":{}}"#,
            r#"{"jsonrpc":"2.0","id":2,"error":{"code":-1,"message":"m","data":{"code":"stale_ref","message":"m","retryable":false}}}"#,
            r#"{"jsonrpc":"2.0","id":2,"error":{"code":-32000,"message":"m","data":{"code":"oops","message":"m","retryable":false}}}"#,
            // The defect the first fuzz run found: a command with neither.
            r#"{"jsonrpc":"2.0","id":1,"result":{"command":{"state":"failed"}}}"#,
            r#"{"jsonrpc":"2.0","id":1,"result":{"command":{"state":"accepted"}}}"#,
            r#"{"jsonrpc":"2.0","method":"other","params":{}}"#,
        ] {
            assert!(check(call, bad).is_err(), "{bad} passed");
        }
    }

    #[test]
    fn an_id_used_twice_names_no_method() {
        let m = methods_by_id(b"{\"id\":1,\"method\":\"a\"}\n{\"id\":1,\"method\":\"b\"}\n{\"id\":2,\"method\":\"c\"}");
        assert_eq!(m.len(), 1);
        assert_eq!(m["2"], "c");
    }
}
