//! Console messages, uncaught exceptions and browser log entries of an
//! attached page, as [`crate::store::console::Message`]s: cleaned and bounded
//! here, before anything keeps them.

use crate::store::console::{clean, Message, MAX_TEXT, MAX_URL};
use chromiumoxide::cdp::browser_protocol::log::EventEntryAdded;
use chromiumoxide::cdp::js_protocol::runtime::{EventConsoleApiCalled, EventExceptionThrown};
use serde_json::Value;

/// The message a CDP event carries, if it is one. Matched by type, read
/// from the JSON: the arguments are page data (remote objects whose
/// subtypes grow with each Chromium), read here bounded and tolerant.
pub(super) fn console_message(method: &str, p: &Value) -> Option<Message> {
    match method {
        EventConsoleApiCalled::IDENTIFIER => Some(api_call(p)),
        EventExceptionThrown::IDENTIFIER => Some(exception(&p["exceptionDetails"])),
        EventEntryAdded::IDENTIFIER => Some(log_entry(&p["entry"])),
        _ => None,
    }
}

fn level_of_api(kind: &str) -> &'static str {
    match kind {
        "error" | "assert" => "error",
        "warning" => "warning",
        "info" => "info",
        "debug" => "debug",
        _ => "log",
    }
}

/// One argument of a console call as text: a string as it is, anything
/// else as the browser describes it.
fn argument(a: &Value) -> String {
    match a.get("value") {
        Some(Value::String(s)) => s.clone(),
        Some(v) if !v.is_null() && a.get("description").is_none() => v.to_string(),
        _ => a
            .get("description")
            .or_else(|| a.get("unserializableValue"))
            .and_then(Value::as_str)
            .map_or_else(
                || {
                    a.get("type")
                        .and_then(Value::as_str)
                        .unwrap_or("")
                        .to_string()
                },
                str::to_string,
            ),
    }
}

/// The top frame of a stack trace: (URL, 1-based line).
fn top_frame(stack: &Value) -> (Option<String>, Option<u32>) {
    let frame = &stack["callFrames"][0];
    location(frame.get("url"), frame.get("lineNumber"))
}

fn location(url: Option<&Value>, line: Option<&Value>) -> (Option<String>, Option<u32>) {
    let url = url
        .and_then(Value::as_str)
        .filter(|u| !u.is_empty())
        .map(|u| clean(u, MAX_URL));
    let line = line
        .and_then(Value::as_u64)
        .and_then(|l| u32::try_from(l + 1).ok());
    (url, line)
}

fn api_call(p: &Value) -> Message {
    let text: Vec<String> = p["args"]
        .as_array()
        .into_iter()
        .flatten()
        .take(32)
        .map(argument)
        .collect();
    let (url, line) = top_frame(&p["stackTrace"]);
    Message {
        source: "console",
        level: level_of_api(p["type"].as_str().unwrap_or("log")),
        text: clean(&text.join(" "), MAX_TEXT),
        url,
        line,
    }
}

fn exception(d: &Value) -> Message {
    let text = d["exception"]["description"]
        .as_str()
        .or_else(|| d["exception"]["value"].as_str())
        .or_else(|| d["text"].as_str())
        .unwrap_or("uncaught exception");
    let (mut url, mut line) = location(d.get("url"), d.get("lineNumber"));
    if url.is_none() {
        (url, line) = top_frame(&d["stackTrace"]);
    }
    Message {
        source: "exception",
        level: "error",
        text: clean(text, MAX_TEXT),
        url,
        line,
    }
}

fn log_entry(e: &Value) -> Message {
    let level = match e["level"].as_str().unwrap_or("info") {
        "error" => "error",
        "warning" => "warning",
        "verbose" => "debug",
        _ => "info",
    };
    let (url, line) = location(e.get("url"), e.get("lineNumber"));
    Message {
        source: "browser",
        level,
        text: clean(e["text"].as_str().unwrap_or(""), MAX_TEXT),
        url,
        line,
    }
}

#[cfg(test)]
mod tests {
    use super::console_message;
    use serde_json::json;

    #[test]
    fn console_calls_exceptions_and_log_entries_become_messages() {
        let m = console_message(
            "Runtime.consoleAPICalled",
            &json!({"type": "warning", "args": [{"type": "string", "value": "low\u{200b} disk"},
                {"type": "number", "value": 3, "description": "3"}, {"type": "object", "description": "Object"}],
                "stackTrace": {"callFrames": [{"url": "http://h/p.html", "lineNumber": 9}]}}),
        )
        .unwrap();
        assert_eq!((m.source, m.level), ("console", "warning"));
        assert_eq!(m.text, "low disk 3 Object");
        assert_eq!(
            (m.url.as_deref(), m.line),
            (Some("http://h/p.html"), Some(10))
        );
        let e = console_message(
            "Runtime.exceptionThrown",
            &json!({"exceptionDetails": {"text": "Uncaught", "url": "http://h/p.html", "lineNumber": 4,
                "exception": {"description": "Error: boom\n    at f"}}}),
        )
        .unwrap();
        assert_eq!((e.source, e.level, e.line), ("exception", "error", Some(5)));
        assert!(e.text.starts_with("Error: boom"));
        let l = console_message(
            "Log.entryAdded",
            &json!({"entry": {"level": "error", "text": "Failed to load resource", "url": "http://h/x"}}),
        )
        .unwrap();
        assert_eq!((l.source, l.level), ("browser", "error"));
        assert!(console_message("Page.loadEventFired", &json!({})).is_none());
    }
}
