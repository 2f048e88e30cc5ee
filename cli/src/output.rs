//! Human-readable output. `--json` bypasses all of this.

use browser_pilot_host::BpError;
use serde_json::Value;

/// One line (plus context) describing an error, led by its stable code.
pub fn error_line(e: &BpError) -> String {
    let mut line = format!("error[{}]: {}", e.code.as_str(), e.message);
    if let Some(ctx) = &e.context {
        if let Some(reason) = ctx.get("reason").and_then(Value::as_str) {
            line.push_str(&format!(" (reason: {reason})"));
        }
    }
    line
}

fn s<'a>(v: &'a Value, key: &str) -> &'a str {
    v.get(key).and_then(Value::as_str).unwrap_or("")
}

fn quoted(text: &str) -> String {
    serde_json::to_string(text).unwrap_or_default()
}

/// `[3] button "Sign in"` lines under a title line.
pub fn snapshot(v: &Value) -> String {
    let mut out = format!("{} — {}\n", s(v, "title"), s(v, "url"));
    for el in v["elements"].as_array().into_iter().flatten() {
        out.push_str(&format!(
            "[{}] {} {}",
            el["ref"],
            s(el, "role"),
            quoted(s(el, "name"))
        ));
        if let Some(value) = el
            .get("value")
            .and_then(Value::as_str)
            .filter(|v| !v.is_empty())
        {
            out.push_str(&format!(" = {}", quoted(value)));
        }
        if let Some(checked) = el.get("checked").and_then(Value::as_str) {
            out.push_str(&format!(" checked={checked}"));
        }
        out.push('\n');
    }
    if v["truncated"].as_bool().unwrap_or(false) {
        let reasons: Vec<&str> = v["truncationReasons"]
            .as_array()
            .into_iter()
            .flatten()
            .filter_map(Value::as_str)
            .collect();
        out.push_str(&format!(
            "(truncated: {}; raise --limit or narrow the page)\n",
            reasons.join(", ")
        ));
    }
    out
}

/// `clicked [3]: verified (navigation)`.
pub fn action(verb: &str, reference: &str, v: &Value) -> String {
    let ev = &v["evidence"];
    let signals: Vec<&str> = ev["signals"]
        .as_array()
        .into_iter()
        .flatten()
        .filter_map(Value::as_str)
        .collect();
    let target = if reference.is_empty() {
        String::new()
    } else {
        format!(" [{reference}]")
    };
    let detail = if signals.is_empty() {
        String::new()
    } else {
        format!(" ({})", signals.join(", "))
    };
    format!("{verb}{target}: {}{detail}", s(ev, "status"))
}

/// Frame list lines, children indented under their parents' order.
pub fn frames(v: &Value) -> String {
    let mut out = String::new();
    for f in v["frames"].as_array().into_iter().flatten() {
        let mark = if f["selected"].as_bool().unwrap_or(false) {
            "*"
        } else {
            " "
        };
        let child = if f["parentFrameId"].is_null() {
            ""
        } else {
            "  "
        };
        let name = f["name"]
            .as_str()
            .map(|n| format!(" ({n})"))
            .unwrap_or_default();
        out.push_str(&format!(
            "{mark} {child}{}{name}  {}\n",
            s(f, "frameId"),
            s(f, "url")
        ));
    }
    out
}

/// Tab list lines.
pub fn tabs(v: &Value) -> String {
    let mut out = String::new();
    for t in v["tabs"].as_array().into_iter().flatten() {
        let mark = if t["current"].as_bool().unwrap_or(false) {
            "*"
        } else {
            " "
        };
        out.push_str(&format!(
            "{mark} {}  {:<13}  {} — {}\n",
            s(t, "targetId"),
            s(t, "origin"),
            s(t, "title"),
            s(t, "url")
        ));
    }
    if out.is_empty() {
        out.push_str("no tabs\n");
    }
    out
}

/// Tool list lines.
pub fn tool_list(v: &Value) -> String {
    let mut out = String::new();
    for t in v["tools"].as_array().into_iter().flatten() {
        let caps: Vec<&str> = t["capabilities"]
            .as_array()
            .into_iter()
            .flatten()
            .filter_map(Value::as_str)
            .collect();
        let caps = if caps.is_empty() {
            "broker".to_string()
        } else {
            caps.join(", ")
        };
        out.push_str(&format!(
            "{:<22} [{}] {}\n",
            s(t, "name"),
            caps,
            s(t, "description")
        ));
    }
    out
}
