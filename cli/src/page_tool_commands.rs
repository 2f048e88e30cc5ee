//! `bp page-tools` and `bp page-tool REF --input JSON|-`: the tools the
//! current tab's page declares for agents (WebMCP), as a table, and
//! calling one. Everything the page wrote (names, descriptions, output)
//! is shown as data; the broker has already bounded it and stripped
//! control characters.

use crate::session::Session;
use browser_pilot_host::{BpError, BpResult};
use serde_json::{json, Value};
use std::io::Read;

/// The most `--input -` reads from stdin.
const MAX_INPUT_BYTES: u64 = 1 << 20;
/// Description characters shown in the table.
const DESCRIPTION_CHARS: usize = 60;

pub(crate) async fn list(s: &mut Session, frame: Option<String>) -> BpResult<(Value, String)> {
    let mut args = json!({});
    if let Some(f) = frame {
        args["frameId"] = json!(f);
    }
    let v = s.tool("browser.page_tools.list", args).await?;
    Ok((v.clone(), table(&v)))
}

pub(crate) async fn call(
    s: &mut Session,
    tool_ref: String,
    input: &str,
) -> BpResult<(Value, String)> {
    let input = parse_input(input)?;
    let v = s
        .tool(
            "browser.page_tools.call",
            json!({"ref": tool_ref, "input": input}),
        )
        .await?;
    Ok((v.clone(), called(&v)))
}

/// `--input`: JSON text, or `-` for JSON on stdin; it must be an object.
fn parse_input(input: &str) -> BpResult<Value> {
    let text = if input == "-" {
        let mut text = String::new();
        std::io::stdin()
            .take(MAX_INPUT_BYTES + 1)
            .read_to_string(&mut text)
            .map_err(|e| BpError::invalid(format!("cannot read the input from stdin: {e}")))?;
        if text.len() as u64 > MAX_INPUT_BYTES {
            return Err(BpError::invalid(format!(
                "the input on stdin is over {MAX_INPUT_BYTES} bytes"
            )));
        }
        text
    } else {
        input.to_string()
    };
    let value: Value = serde_json::from_str(&text)
        .map_err(|e| BpError::invalid(format!("--input is not JSON: {e}")))?;
    if !value.is_object() {
        return Err(BpError::invalid(
            "--input must be a JSON object (the tool's arguments)",
        ));
    }
    Ok(value)
}

fn table(v: &Value) -> String {
    let tools: Vec<&Value> = v["tools"].as_array().into_iter().flatten().collect();
    let mut out = String::new();
    if tools.is_empty() {
        out.push_str("no page tools this client may call\n");
    } else {
        out.push_str(&format!(
            "{:<20}  {:<13}  {:<11}  {:<24}  {:<24}  DESCRIPTION (page text)\n",
            "REF", "EFFECT", "KIND", "NAME (page text)", "ORIGIN"
        ));
    }
    for t in tools {
        out.push_str(&format!(
            "{:<20}  {:<13}  {:<11}  {:<24}  {:<24}  {}\n",
            str_of(&t["ref"]),
            str_of(&t["effect"]),
            str_of(&t["kind"]),
            str_of(&t["pageData"]["name"]),
            str_of(&t["origin"]),
            shortened(str_of(&t["pageData"]["description"])),
        ));
    }
    let hidden = &v["hidden"];
    let (policy, grant) = (
        hidden["byPolicy"].as_u64().unwrap_or(0),
        hidden["byGrant"].as_u64().unwrap_or(0),
    );
    if policy + grant > 0 {
        out.push_str(&format!(
            "hidden: {policy} above the broker's page-tools level, {grant} needing the page.consequential grant (--allow-consequential)\n"
        ));
    }
    out
}

fn called(v: &Value) -> String {
    let data = &v["pageData"];
    let output = data["outputText"]
        .as_str()
        .map(str::to_string)
        .unwrap_or_else(|| data["output"].to_string());
    let truncated = if v["outputTruncated"] == true {
        " (truncated)"
    } else {
        ""
    };
    let changed = match v["outcome"]["changed"].as_bool() {
        Some(true) => "yes",
        Some(false) => "no",
        None => "not observed",
    };
    let signals: Vec<&str> = v["evidence"]["signals"]
        .as_array()
        .into_iter()
        .flatten()
        .filter_map(Value::as_str)
        .collect();
    let seen = if signals.is_empty() {
        String::new()
    } else {
        format!(" ({})", signals.join(", "))
    };
    format!("output (page data){truncated}: {output}\npage changed: {changed}{seen}")
}

fn str_of(v: &Value) -> &str {
    v.as_str().unwrap_or("")
}

fn shortened(text: &str) -> String {
    let one_line: String = text
        .chars()
        .map(|c| if c.is_whitespace() { ' ' } else { c })
        .collect();
    if one_line.chars().count() <= DESCRIPTION_CHARS {
        return one_line;
    }
    let cut: String = one_line.chars().take(DESCRIPTION_CHARS - 1).collect();
    format!("{cut}…")
}

#[cfg(test)]
#[allow(clippy::unwrap_used)]
mod tests {
    use super::*;

    #[test]
    fn input_must_be_a_json_object() {
        assert_eq!(parse_input(r#"{"q": 1}"#).unwrap(), json!({"q": 1}));
        for bad in ["", "[1]", "\"x\"", "{", "nul"] {
            let e = parse_input(bad).unwrap_err();
            assert_eq!(e.code.as_str(), "invalid_argument", "{bad}");
        }
    }

    #[test]
    fn the_table_shows_refs_effects_and_what_was_hidden() {
        let v = json!({"tools": [{"ref": "pt_1", "effect": "read", "kind": "imperative",
            "origin": "http://127.0.0.1:1", "pageData": {"name": "search",
            "description": "a\nb ".repeat(40)}}], "hidden": {"byPolicy": 1, "byGrant": 2}});
        let t = table(&v);
        let row = t.lines().nth(1).unwrap();
        assert!(row.starts_with("pt_1") && row.contains("read") && row.contains("search"));
        assert!(row.ends_with('…') && !row.contains('\n'));
        assert!(t.contains("hidden: 1 above") && t.contains("2 needing"));
        let empty = table(&json!({"tools": [], "hidden": {"byPolicy": 0, "byGrant": 0}}));
        assert_eq!(empty, "no page tools this client may call\n");
    }
}
