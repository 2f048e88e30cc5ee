//! The fuzzer's generator turned on the MCP boundary (`bp fuzz --mcp`):
//! the same values, strings, numbers and byte mutations as the broker's
//! inputs, shaped as MCP requests (every method an MCP client may send,
//! the offered tools with their own argument names, notifications, wrong
//! JSON-RPC framing), and the invariants every line `bp mcp` writes must
//! hold. Deterministic for a seed.

use super::gen::{self, Rng};
use serde_json::Value;

/// MCP methods (and notifications) a client may send, with their
/// parameter names, and a few no server knows.
const METHODS: &[(&str, &[&str])] = &[
    (
        "initialize",
        &["protocolVersion", "capabilities", "clientInfo"],
    ),
    ("notifications/initialized", &[]),
    ("ping", &[]),
    ("tools/list", &["cursor"]),
    ("tools/call", &["name", "arguments", "_meta"]),
    ("resources/list", &["cursor"]),
    ("resources/templates/list", &["cursor"]),
    ("resources/read", &["uri"]),
    ("resources/subscribe", &["uri"]),
    ("prompts/list", &["cursor"]),
    ("prompts/get", &["name", "arguments"]),
    ("completion/complete", &["ref", "argument"]),
    ("logging/setLevel", &["level"]),
    ("notifications/cancelled", &["requestId", "reason"]),
    (
        "notifications/progress",
        &["progressToken", "progress", "total"],
    ),
    ("notifications/roots/list_changed", &[]),
    ("tasks/list", &[]),
    ("", &[]),
    ("rpc.discover", &[]),
];

/// An offered MCP tool: its name and argument names.
pub struct McpTool {
    pub name: String,
    pub args: Vec<String>,
}

/// Argument names whose values are file paths: always `$DIR/...`, so no
/// generated call reads or writes outside the run's own directory.
const PATH_ARGS: &[&str] = &["path", "paths", "files", "file", "dir", "directory"];

/// One input: a few MCP lines, now and then mutated at the byte level.
pub fn input(rng: &mut Rng, tools: &[McpTool]) -> Vec<u8> {
    let mut text = String::new();
    for _ in 0..1 + rng.below(4) {
        request(rng, tools, &mut text);
        text.push('\n');
    }
    if rng.chance(4) {
        let mutated = gen::mutate(rng, text.into_bytes());
        // A mutation must not reach outside `$DIR` through a path either:
        // keep the bytes only if they name no path argument.
        return if mentions_path(&mutated) {
            b"{\"jsonrpc\":\"2.0\",\"id\":\"m\",\"method\":\"ping\"}\n".to_vec()
        } else {
            mutated
        };
    }
    text.into_bytes()
}

fn mentions_path(bytes: &[u8]) -> bool {
    let text = String::from_utf8_lossy(bytes).to_ascii_lowercase();
    PATH_ARGS.iter().any(|p| text.contains(&format!("\"{p}\""))) || text.contains("file:")
}

fn request(rng: &mut Rng, tools: &[McpTool], out: &mut String) {
    let (method, params) = rng.pick(METHODS);
    out.push('{');
    match rng.below(12) {
        0 => {}
        1 => out.push_str(r#""jsonrpc":"1.0","#),
        _ => out.push_str(r#""jsonrpc":"2.0","#),
    }
    if !method.starts_with("notifications/") || rng.chance(6) {
        match rng.below(10) {
            0 => {}
            1 => out.push_str(r#""id":null,"#),
            2 => out.push_str(r#""id":"s","#),
            3 => {
                out.push_str(r#""id":"#);
                gen::value(rng, 2, out);
                out.push(',');
            }
            _ => out.push_str(&format!(r#""id":{},"#, rng.below(50))),
        }
    }
    out.push_str(&format!(r#""method":{}"#, Value::from(method)));
    if !rng.chance(10) {
        out.push_str(r#","params":"#);
        if rng.chance(12) {
            gen::value(rng, 3, out);
        } else if method == "tools/call" {
            tool_params(rng, tools, out);
        } else {
            object_of(rng, params, out);
        }
    }
    out.push('}');
}

fn tool_params(rng: &mut Rng, tools: &[McpTool], out: &mut String) {
    let (name, args): (String, &[String]) = if tools.is_empty() || rng.chance(10) {
        (format!("t{}", rng.below(1000)), &[])
    } else {
        let t = &tools[rng.below(tools.len())];
        (t.name.clone(), &t.args)
    };
    out.push_str(&format!(r#"{{"name":{}"#, Value::from(name)));
    if !rng.chance(8) {
        out.push_str(r#","arguments":"#);
        let names: Vec<&str> = args.iter().map(String::as_str).collect();
        object_of(rng, &names, out);
    }
    if rng.chance(4) {
        out.push_str(r#","_meta":{"progressToken":"#);
        gen::value(rng, 1, out);
        out.push_str(r#","browser-pilot/deadlineMs":"#);
        gen::value(rng, 0, out);
        out.push('}');
    }
    out.push('}');
}

/// An object with some of `names` (and now and then an unknown key).
fn object_of(rng: &mut Rng, names: &[&str], out: &mut String) {
    gen::object_with(rng, names, out, typed_value);
}

/// A value for a named MCP parameter: paths inside `$DIR`, protocol
/// revisions mostly real ones, anything else from the generator.
fn typed_value(rng: &mut Rng, name: &str, out: &mut String) {
    if PATH_ARGS.contains(&name) {
        out.push_str(&format!("\"$DIR/f{}\"", rng.below(4)));
    } else if name == "protocolVersion" && !rng.chance(3) {
        out.push_str(rng.pick(&[
            "\"2025-11-25\"",
            "\"2025-06-18\"",
            "\"2024-11-05\"",
            "\"1999-01-01\"",
        ]));
    } else {
        gen::value(rng, 3, out);
    }
}

/// Check one line `bp mcp` wrote: JSON-RPC 2.0; a reply has exactly one
/// of `result` and `error` (an error with an integer code and a message);
/// a `tools/call` result has content, and an `isError` one says
/// `error[code]:` first. `calls` holds the IDs (as JSON text) of the
/// `tools/call` requests sent.
pub fn check_line(line: &str, calls: &std::collections::HashSet<String>) -> Result<(), String> {
    let v: Value = serde_json::from_str(line).map_err(|e| format!("not JSON ({e})"))?;
    if v.get("jsonrpc").and_then(Value::as_str) != Some("2.0") {
        return Err("no `jsonrpc: 2.0`".into());
    }
    if let Some(m) = v.get("method") {
        return match (m.as_str(), v.get("id")) {
            (Some(_), None) => Ok(()),
            // A request from the server to the client (MCP allows some).
            (Some(_), Some(_)) => Ok(()),
            _ => Err("a method that is not a string".into()),
        };
    }
    let id = v.get("id").ok_or("a reply without `id`")?;
    match (v.get("result"), v.get("error")) {
        (Some(r), None) => {
            if calls.contains(&id.to_string()) {
                call_result(r)?;
            }
            Ok(())
        }
        (None, Some(e)) => {
            if !e["code"].is_i64() || !e["message"].is_string() {
                return Err("an error without an integer code and a message".into());
            }
            Ok(())
        }
        _ => Err("a reply with neither or both of result and error".into()),
    }
}

fn call_result(r: &Value) -> Result<(), String> {
    let content = r["content"]
        .as_array()
        .ok_or("a tools/call result without content")?;
    if r["isError"] == Value::Bool(true) {
        let text = content
            .first()
            .and_then(|c| c["text"].as_str())
            .unwrap_or_default();
        if !text.starts_with("error[") {
            return Err("an isError result whose text does not start error[code]:".into());
        }
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::collections::HashSet;

    #[test]
    fn inputs_cover_every_method_and_keep_paths_inside_dir() {
        let mut rng = Rng::new(11);
        let tools = [McpTool {
            name: "browser_upload".into(),
            args: vec!["ref".into(), "paths".into()],
        }];
        let mut methods = HashSet::new();
        for _ in 0..3000 {
            let bytes = input(&mut rng, &tools);
            for line in String::from_utf8_lossy(&bytes).lines() {
                if let Ok(v) = serde_json::from_str::<Value>(line) {
                    if let Some(m) = v["method"].as_str() {
                        methods.insert(m.to_string());
                    }
                    if let Some(p) = v["params"]["arguments"].get("paths") {
                        assert!(p.as_str().is_some_and(|p| p.starts_with("$DIR/")), "{line}");
                    }
                }
            }
        }
        for (m, _) in METHODS {
            assert!(methods.contains(*m), "{m} never generated");
        }
    }

    #[test]
    fn lines_that_break_the_rules_are_caught() {
        let calls: HashSet<String> = ["7".to_string()].into();
        assert!(check_line(r#"{"jsonrpc":"2.0","id":1,"result":{}}"#, &calls).is_ok());
        assert!(check_line(
            r#"{"jsonrpc":"2.0","method":"notifications/progress","params":{}}"#,
            &calls
        )
        .is_ok());
        assert!(check_line(
            r#"{"jsonrpc":"2.0","id":1,"error":{"code":-32602,"message":"x"}}"#,
            &calls
        )
        .is_ok());
        assert!(check_line("{", &calls).is_err());
        assert!(check_line(r#"{"id":1,"result":{}}"#, &calls).is_err());
        assert!(check_line(r#"{"jsonrpc":"2.0","id":1,"result":{},"error":{}}"#, &calls).is_err());
        assert!(check_line(r#"{"jsonrpc":"2.0","id":1,"error":{"code":"x"}}"#, &calls).is_err());
        assert!(check_line(r#"{"jsonrpc":"2.0","id":7,"result":{}}"#, &calls).is_err());
        let bad = r#"{"jsonrpc":"2.0","id":7,"result":{"isError":true,"content":[{"type":"text","text":"oops"}]}}"#;
        assert!(check_line(bad, &calls).is_err());
        let good = r#"{"jsonrpc":"2.0","id":7,"result":{"isError":true,"content":[{"type":"text","text":"error[stale_ref]: x"}]}}"#;
        assert!(check_line(good, &calls).is_ok());
    }

    #[test]
    fn the_same_seed_gives_the_same_inputs() {
        let run = |seed| {
            let mut rng = Rng::new(seed);
            (0..50).map(|_| input(&mut rng, &[])).collect::<Vec<_>>()
        };
        assert_eq!(run(5), run(5));
        assert_ne!(run(5), run(6));
    }
}
