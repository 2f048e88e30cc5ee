//! The console family: `browser.console`, the workspace's console
//! journal (console messages, uncaught exceptions and browser log entries
//! of the tabs it controls). Message text is page data: the broker has
//! cleaned and bounded it; here it is only filtered and shaped.

wit_bindgen::generate!({
    world: "console-family",
    path: "../../tools-wit",
    with: { "browser-pilot:tools/types@0.1.0": bp_sdk::types },
});

use bp_sdk::spec::with_common;
use bp_sdk::{invalid, Args, CallContext, Component, ToolError, ToolSpec};
use browser_pilot::tools::console::{self, Level, Source};
use serde_json::{json, Map, Value};

const DEFAULT_LIMIT: u32 = 100;
const MAX_LIMIT: u32 = 1000;
const LEVELS: [&str; 5] = ["log", "info", "warning", "error", "debug"];

struct Console;

fn spec() -> ToolSpec {
    let mut props = Map::new();
    props.insert(
        "messages".into(),
        json!({"type": "array", "items": {"type": "object", "properties": {
            "seq": {"type": "integer"}, "targetId": {"type": "string"},
            "source": {"enum": ["console", "exception", "browser"]},
            "level": {"enum": LEVELS},
            "text": {"type": "string", "x-browser-pilot-sensitivity": ["page_content"]},
            "url": {"type": "string"}, "line": {"type": "integer"}, "timeMs": {"type": "integer"}}}}),
    );
    props.insert("nextSeq".into(), json!({"type": "integer"}));
    props.insert("dropped".into(), json!({"type": "integer"}));
    ToolSpec::read(
        "browser.console",
        "Console messages, uncaught exceptions (source exception) and browser log entries of this workspace's controlled tabs, kept from when it took control (the last 1000; dropped counts older ones). Filter by levels; read on with sinceSeq = nextSeq.",
        &["console"],
    )
    .schemas(
        json!({"type": "object", "additionalProperties": false, "properties": {
            "sinceSeq": {"type": "integer", "minimum": 0, "default": 0},
            "levels": {"type": "array", "items": {"enum": LEVELS}, "description": "Only these levels (default all)."},
            "limit": {"type": "integer", "minimum": 1, "maximum": MAX_LIMIT, "default": DEFAULT_LIMIT}}}),
        json!({"type": "object", "required": ["messages", "nextSeq", "dropped"], "properties": Value::Object(with_common(props))}),
    )
    .sensitivity(&[], &["page_content"])
}

fn level(name: &str) -> Result<Level, ToolError> {
    Ok(match name {
        "log" => Level::Log,
        "info" => Level::Info,
        "warning" => Level::Warning,
        "error" => Level::Error,
        "debug" => Level::Debug,
        other => {
            return Err(invalid(format!(
                "`levels` holds log, info, warning, error or debug, not `{other}`"
            )))
        }
    })
}

fn level_name(l: Level) -> &'static str {
    match l {
        Level::Log => "log",
        Level::Info => "info",
        Level::Warning => "warning",
        Level::Error => "error",
        Level::Debug => "debug",
    }
}

fn source_name(s: Source) -> &'static str {
    match s {
        Source::Console => "console",
        Source::Exception => "exception",
        Source::Browser => "browser",
    }
}

impl Component for Console {
    fn specs() -> Vec<ToolSpec> {
        vec![spec()]
    }

    fn call(_ctx: &CallContext, name: &str, mut args: Args) -> Result<Value, ToolError> {
        if name != "browser.console" {
            return Err(invalid(format!("unknown tool `{name}`")));
        }
        let since = args.opt_u32("sinceSeq", 0, u32::MAX)?.unwrap_or(0);
        let levels = args
            .opt_str_list("levels")?
            .unwrap_or_default()
            .iter()
            .map(|l| level(l))
            .collect::<Result<Vec<_>, _>>()?;
        let limit = args
            .opt_u32("limit", 1, MAX_LIMIT)?
            .unwrap_or(DEFAULT_LIMIT);
        args.finish()?;
        let page = console::read(u64::from(since), &levels, limit)?;
        let messages: Vec<Value> = page
            .messages
            .into_iter()
            .map(|m| {
                let mut v = json!({"seq": m.seq, "targetId": m.target_id,
                    "source": source_name(m.source), "level": level_name(m.level),
                    "text": m.text, "timeMs": m.time_ms});
                if let Some(url) = m.url {
                    v["url"] = json!(url);
                }
                if let Some(line) = m.line {
                    v["line"] = json!(line);
                }
                v
            })
            .collect();
        Ok(json!({"messages": messages, "nextSeq": page.next_seq, "dropped": page.dropped}))
    }
}

bp_sdk::export_component!(Console);
