//! The navigate family: `browser.navigate` (goto, back, forward, reload)
//! and `browser.frames.select`.
//! The component validates the request; the host performs it and waits
//! for the new document to load.

wit_bindgen::generate!({
    world: "navigate",
    path: "../../tools-wit",
    with: { "browser-pilot:tools/types@0.1.0": bp_sdk::types },
});

use bp_sdk::spec::{target_id_schema, with_common};
use bp_sdk::{invalid, Args, CallContext, Component, ToolError, ToolSpec};
use browser_pilot::tools::navigation::{self, HistoryAction};
use serde_json::{json, Map, Value};

/// Longest URL accepted (the observation URL limit).
const MAX_URL_UNITS: usize = 16_384;
/// Schemes a navigation may use; `javascript:` and friends are refused.
const SCHEMES: &[&str] = &["http", "https", "file", "about", "data"];

struct Navigate;

fn spec() -> ToolSpec {
    let mut props = Map::new();
    props.insert(
        "title".into(),
        json!({"type": "string", "x-browser-pilot-sensitivity": ["browser_data"]}),
    );
    props.insert("status".into(), json!({"type": "integer"}));
    ToolSpec::mutating(
        "browser.navigate",
        "Load a URL in the target, or go back, forward or reload; waits for the load event.",
        &["page-read", "navigation"],
    )
    .open_world()
    .cooperative()
    .schemas(
        json!({
            "type": "object",
            "additionalProperties": false,
            "properties": {
                "targetId": target_id_schema(),
                "url": {"type": "string", "maxLength": MAX_URL_UNITS},
                "action": {"enum": ["goto", "back", "forward", "reload"], "default": "goto"}
            }
        }),
        json!({"type": "object", "required": ["url", "title"], "properties": Value::Object(with_common(props))}),
    )
    .sensitivity(&[], &["browser_data"])
}

/// Check a URL's shape and scheme; returns it trimmed.
fn validate_url(raw: &str) -> Result<String, ToolError> {
    let url = raw.trim();
    if url.is_empty() {
        return Err(invalid("`url` is empty"));
    }
    if url.encode_utf16().count() > MAX_URL_UNITS {
        return Err(invalid("`url` is too long"));
    }
    if url.chars().any(|c| c.is_control()) {
        return Err(invalid("`url` contains control characters"));
    }
    let scheme = url
        .split_once(':')
        .map(|(s, _)| s.to_ascii_lowercase())
        .filter(|s| {
            !s.is_empty()
                && s.chars()
                    .all(|c| c.is_ascii_alphanumeric() || "+-.".contains(c))
        })
        .ok_or_else(|| invalid("`url` must be absolute, with a scheme such as https:"))?;
    if !SCHEMES.contains(&scheme.as_str()) {
        return Err(invalid(format!(
            "scheme `{scheme}:` is not allowed (use http, https, file, about or data)"
        )));
    }
    if (scheme == "http" || scheme == "https") && !url[scheme.len() + 1..].starts_with("//") {
        return Err(invalid("`url` must look like scheme://host/..."));
    }
    Ok(url.to_string())
}

fn select_spec() -> ToolSpec {
    let mut props = Map::new();
    props.insert("frameId".into(), json!({"type": "string"}));
    ToolSpec::mutating(
        "browser.frames.select",
        "Select the frame later observations start at (frameId from browser.frames.list; null for the main frame).",
        &["page-read", "navigation"],
    )
    .schemas(
        json!({"type": "object", "additionalProperties": false, "properties": {
            "targetId": target_id_schema(), "frameId": {"type": ["string", "null"]}}}),
        json!({"type": "object", "required": ["frameId"], "properties": Value::Object(with_common(props))}),
    )
}

fn select_frame(mut args: Args) -> Result<Value, ToolError> {
    args.allow(&["targetId"]);
    // Null (or absent) selects the main frame.
    let frame = args.opt_str("frameId")?;
    args.finish()?;
    let selected = navigation::select_frame(frame.as_deref())?;
    Ok(json!({"frameId": selected}))
}

impl Component for Navigate {
    fn specs() -> Vec<ToolSpec> {
        vec![spec(), select_spec()]
    }

    fn call(_ctx: &CallContext, name: &str, mut args: Args) -> Result<Value, ToolError> {
        if name == "browser.frames.select" {
            return select_frame(args);
        }
        if name != "browser.navigate" {
            return Err(invalid(format!("unknown tool `{name}`")));
        }
        args.allow(&["targetId"]);
        let url = args.opt_str("url")?;
        let action = args
            .opt_str("action")?
            .unwrap_or_else(|| "goto".to_string());
        args.finish()?;
        let outcome = match (action.as_str(), url) {
            ("goto", Some(url)) => navigation::goto(&validate_url(&url)?)?,
            ("goto", None) => return Err(invalid("`url` is required for goto")),
            (_, Some(_)) => return Err(invalid("`url` is only used with action goto")),
            ("back", None) => navigation::history(HistoryAction::Back)?,
            ("forward", None) => navigation::history(HistoryAction::Forward)?,
            ("reload", None) => navigation::history(HistoryAction::Reload)?,
            (other, None) => return Err(invalid(format!("unknown action `{other}`"))),
        };
        Ok(json!({"url": outcome.url, "title": outcome.title, "status": outcome.status}))
    }
}

bp_sdk::export_component!(Navigate);
