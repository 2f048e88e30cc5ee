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
        // What a page's tool said, quoted as the data it is.
        if let Some(said) = ctx["pageData"]["message"].as_str() {
            line.push_str(&format!("\n  the page said (page data): {}", quoted(said)));
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
        out.push_str(&element_facts(el));
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

/// An element's states and facts, compactly: ` disabled expanded -> /docs`,
/// a select's options as ` options: "A", "B" (+15 more)`.
fn element_facts(el: &Value) -> String {
    let mut out = String::new();
    let on = |key: &str| el.get(key).and_then(Value::as_bool) == Some(true);
    for key in ["disabled", "selected", "required", "invalid", "scrollable"] {
        if on(key) {
            out.push_str(&format!(" {key}"));
        }
    }
    match el.get("expanded").and_then(Value::as_bool) {
        Some(true) => out.push_str(" expanded"),
        Some(false) => out.push_str(" collapsed"),
        None => {}
    }
    match el.get("pressed").and_then(Value::as_str) {
        Some("true") => out.push_str(" pressed"),
        Some("false") => out.push_str(" not-pressed"),
        Some(other) => out.push_str(&format!(" pressed={other}")),
        None => {}
    }
    if let Some(level) = el.get("level").and_then(Value::as_u64) {
        out.push_str(&format!(" level={level}"));
    }
    if let Some(href) = el.get("href").and_then(Value::as_str) {
        out.push_str(&format!(" -> {}", quoted_if_spaced(href)));
    }
    if let Some(options) = el.get("options").and_then(Value::as_array) {
        let labels: Vec<String> = options
            .iter()
            .filter_map(Value::as_str)
            .map(quoted)
            .collect();
        out.push_str(&format!(" options: {}", labels.join(", ")));
        if let Some(more) = el.get("moreOptions").and_then(Value::as_u64) {
            out.push_str(&format!(" (+{more} more)"));
        }
    }
    out
}

/// A link target as is, or quoted when it holds spaces or quotes.
fn quoted_if_spaced(text: &str) -> String {
    if text.chars().any(|c| c.is_whitespace() || c == '"') {
        quoted(text)
    } else {
        text.to_string()
    }
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

/// What `bp close` closed.
pub fn closed(v: &Value) -> String {
    let closed: Vec<&str> = v["closed"]
        .as_array()
        .into_iter()
        .flatten()
        .filter_map(|c| c.as_str())
        .collect();
    if closed.is_empty() {
        "no tabs closed".to_string()
    } else {
        format!("closed {}", closed.join(", "))
    }
}

/// What `bp read` says about the text a person cannot see, or `None`
/// when there was none: how much, why, and how to get it.
pub fn hidden_text_note(hidden: &Value, included: bool) -> Option<String> {
    let count = hidden["count"].as_u64().filter(|n| *n > 0)?;
    let reasons: Vec<String> = hidden["reasons"]
        .as_object()
        .into_iter()
        .flatten()
        .map(|(k, n)| format!("{} {}", k.replace('_', " "), n))
        .collect();
    let (what, how) = if included {
        ("kept", "")
    } else {
        ("left out", "; --include-hidden shows it")
    };
    Some(format!(
        "hidden text {what}: {count} ({}){how}",
        reasons.join(", ")
    ))
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
        let crashed = if t["crashed"] == true {
            " (crashed)"
        } else {
            ""
        };
        out.push_str(&format!(
            "{mark} {}  {:<13}  {} — {}{crashed}\n",
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

/// `bp connect`.
pub fn connected(v: &Value) -> String {
    let c = &v["connection"];
    let pid = c["browserPid"]
        .as_u64()
        .map(|p| format!(", browser pid {p}"))
        .unwrap_or_default();
    let browser = c["browser"]
        .as_str()
        .map(|b| format!(" to {b}"))
        .unwrap_or_default();
    let profile = c["profile"]
        .as_str()
        .map(|p| format!(", profile {p}"))
        .unwrap_or_default();
    let already = if v["alreadyConnected"] == true {
        "already connected"
    } else {
        "connected"
    };
    format!(
        "{already}{browser} (generation {}{pid}{profile})",
        c["generation"]
    )
}

/// `bp disconnect`.
pub fn disconnected(v: &Value) -> String {
    if v["kept"] == true {
        format!(
            "released this CLI's workspace ({} tab(s) closed); the browser connection stays up for {} other client(s)",
            v["closedTabs"], v["liveWorkspaces"]
        )
    } else if v["brokerStopped"] == true {
        format!(
            "disconnected ({} tab(s) closed); the broker stopped",
            v["closedTabs"]
        )
    } else {
        format!("disconnected ({} tab(s) closed)", v["closedTabs"])
    }
}

/// `bp browsers`: one line per candidate, and how to fix the ones that
/// cannot be attached.
pub fn browsers(list: &[Value]) -> String {
    if list.is_empty() {
        return "no Chromium-family browser found (install chromium or google-chrome)\n".into();
    }
    let mut out = format!(
        "{:<28} {:<8} {:<24} {:<12} {}\n",
        "ID", "PID", "DEBUGGING", "AUTH", "PROFILE"
    );
    for c in list {
        let debugging = match c["debugging"]["port"].as_u64() {
            Some(port) => format!("{} :{port}", s(&c["debugging"], "state")),
            None => s(&c["debugging"], "state").to_string(),
        };
        let pid = c["pid"]
            .as_u64()
            .map_or_else(|| "-".to_string(), |p| p.to_string());
        let viable = if c["viable"] == true { "*" } else { " " };
        out.push_str(&format!(
            "{viable}{:<27} {:<8} {:<24} {:<12} {}\n",
            s(c, "id"),
            pid,
            debugging,
            s(c, "authorization"),
            s(c, "userDataDir")
        ));
    }
    for c in list {
        if let Some(fix) = c["remediation"].as_str() {
            out.push_str(&format!("  {}: {fix}\n", s(c, "id")));
        }
        if let Some(note) = c["note"].as_str() {
            out.push_str(&format!("  {} (note): {note}\n", s(c, "id")));
        }
    }
    out.push_str("(* can be attached with `bp connect`)\n");
    out
}
