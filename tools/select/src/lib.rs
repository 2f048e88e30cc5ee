//! The select family: `browser.select` chooses options in a native
//! `<select>` (single or multiple) or an ARIA combobox or listbox, by
//! label or by value, and reports the selection read back from the page.
//! The component checks the request and resolves the ref; the host
//! looks every option up before choosing any, chooses, and reads back.

wit_bindgen::generate!({
    world: "select",
    path: "../../tools-wit",
    with: { "browser-pilot:tools/types@0.1.0": bp_sdk::types },
});

use bp_sdk::pace;
use bp_sdk::spec::{target_id_schema, with_common};
use bp_sdk::{invalid, Args, CallContext, Component, ToolError, ToolSpec};
use browser_pilot::tools::page_read;
use browser_pilot::tools::page_select::{self, Chosen, MatchBy, Widget};
use serde_json::{json, Map, Value};

/// The most options one call may name.
const MAX_OPTIONS: usize = 100;
/// The longest label or value one option may be named by.
const MAX_CHARS: usize = 500;

struct Select;

fn spec() -> ToolSpec {
    let names = json!({"type": "array", "minItems": 1, "maxItems": MAX_OPTIONS,
        "items": {"type": "string", "maxLength": MAX_CHARS}});
    let mut out = Map::new();
    out.insert(
        "evidence".into(),
        json!({"type": "object", "properties": {"settle": pace::report_schema()}}),
    );
    out.insert(
        "selected".into(),
        json!({"type": "array", "items": {"type": "object",
        "properties": {"label": {"type": "string"}, "value": {"type": ["string", "null"]}}}}),
    );
    out.insert(
        "widget".into(),
        json!({"enum": ["native_single", "native_multiple", "combobox", "listbox"]}),
    );
    ToolSpec::mutating(
        "browser.select",
        "Choose options in an observed <select> (single or multiple) or ARIA combobox/listbox, by visible label (`labels`) or by value (`values`). Comboboxes are opened with a real click and the option is found wherever the listbox is rendered. Every option is looked up before any is chosen; an unknown one is refused with the options that exist. A disabled widget is waited for (up to `waitMs`); after the choice the call settles (`settle`). Evidence reads the selection back: value_matches or mismatch.",
        &["page-read", "page-select"],
    )
    .schemas(
        json!({
            "type": "object",
            "additionalProperties": false,
            "required": ["observationId", "ref"],
            "properties": {
                "targetId": target_id_schema(),
                "observationId": {"type": "string"},
                "ref": {"type": "integer", "minimum": 1},
                "labels": names.clone(),
                "values": names,
                "waitMs": pace::wait_schema(),
                "settle": pace::settle_schema()
            }
        }),
        json!({"type": "object", "required": ["evidence", "selected"], "properties": Value::Object(with_common(out))}),
    )
}

/// The one list the arguments name, and how to match it.
fn wanted(args: &mut Args) -> Result<(MatchBy, Vec<String>), ToolError> {
    let labels = args.opt_str_list("labels")?;
    let values = args.opt_str_list("values")?;
    let (by, list) = match (labels, values) {
        (Some(l), None) => (MatchBy::Label, l),
        (None, Some(v)) => (MatchBy::Value, v),
        _ => {
            return Err(invalid(
                "name the options with exactly one of `labels` or `values`",
            ))
        }
    };
    if list.is_empty() || list.len() > MAX_OPTIONS {
        return Err(invalid(format!("name from 1 to {MAX_OPTIONS} options")));
    }
    if list.iter().any(|s| s.chars().count() > MAX_CHARS) {
        return Err(invalid(format!(
            "an option's label or value is longer than {MAX_CHARS} characters"
        )));
    }
    if by == MatchBy::Label && list.iter().any(|s| s.trim().is_empty()) {
        return Err(invalid("an empty label names no option"));
    }
    Ok((by, list))
}

fn widget(w: Widget) -> &'static str {
    match w {
        Widget::NativeSingle => "native_single",
        Widget::NativeMultiple => "native_multiple",
        Widget::Combobox => "combobox",
        Widget::Listbox => "listbox",
    }
}

fn chosen(c: &[Chosen]) -> Value {
    Value::Array(
        c.iter()
            .map(|c| json!({"label": c.label, "value": c.value}))
            .collect(),
    )
}

impl Component for Select {
    fn specs() -> Vec<ToolSpec> {
        vec![spec()]
    }

    fn call(_ctx: &CallContext, name: &str, mut args: Args) -> Result<Value, ToolError> {
        if name != "browser.select" {
            return Err(invalid(format!("unknown tool `{name}`")));
        }
        args.allow(&["targetId"]);
        let observation = args.str("observationId")?;
        let reference = args.ref_number("ref")?;
        let (by, list) = wanted(&mut args)?;
        let pace = pace::pace_arg(&mut args)?;
        args.finish()?;
        let node = page_read::resolve_ref(&observation, reference)?;
        let s = page_select::select(node, by, &list, pace)?;
        let status = if s.matches { "verified" } else { "mismatch" };
        let mut signals = vec![if s.matches {
            "value_matches"
        } else {
            "value_differs"
        }];
        if s.changed {
            signals.push("selection_changed");
        }
        if s.closed_with_escape {
            signals.push("popup_closed");
        }
        let route = if s.clicks > 0 {
            "trusted_input"
        } else {
            "dom_event"
        };
        let mut evidence = json!({
            "kind": "select",
            "status": status,
            "verdict": if s.matches { "value_matches" } else { "mismatch" },
            "signals": signals,
            "route": route,
            "clicks": s.clicks,
        });
        pace::report_into(&mut evidence, s.settle);
        Ok(json!({
            "evidence": evidence,
            "widget": widget(s.widget),
            "selected": chosen(&s.selected),
        }))
    }
}

bp_sdk::export_component!(Select);
