//! `browser.click`: aim at an observed element, refuse when covered.

use crate::browser_pilot::tools::input::{self as host_input, MouseButton};
use crate::browser_pilot::tools::page_read;
use crate::evidence::{self, Snapshot};
use bp_sdk::spec::{target_id_schema, with_common};
use bp_sdk::{invalid, Args, NotVerified, StaleReason, ToolError, ToolSpec};
use serde_json::{json, Map, Value};

pub fn spec() -> ToolSpec {
    let mut props = Map::new();
    props.insert("evidence".into(), evidence::schema());
    props.insert("hints".into(), json!({"type": "array"}));
    ToolSpec::mutating(
        "browser.click",
        "Click an observed element with trusted input at its centre; refuses when another element covers it.",
        &["page-read", "input"],
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
                "trust": {"enum": ["trusted", "dom_event"], "default": "trusted"},
                "button": {"enum": ["left", "middle", "right"], "default": "left"},
                "clickCount": {"type": "integer", "minimum": 1, "maximum": 3, "default": 1}
            }
        }),
        json!({"type": "object", "required": ["evidence"], "properties": Value::Object(with_common(props))}),
    )
}

fn button(name: Option<String>) -> Result<MouseButton, ToolError> {
    match name.as_deref() {
        None | Some("left") => Ok(MouseButton::Left),
        Some("middle") => Ok(MouseButton::Middle),
        Some("right") => Ok(MouseButton::Right),
        Some(other) => Err(invalid(format!(
            "`button` must be left, middle or right, not `{other}`"
        ))),
    }
}

pub fn click(mut args: Args) -> Result<Value, ToolError> {
    args.allow(&["targetId"]);
    let observation = args.str("observationId")?;
    let reference = args.ref_number("ref")?;
    let trust = args
        .opt_str("trust")?
        .unwrap_or_else(|| "trusted".to_string());
    let button = button(args.opt_str("button")?)?;
    let count = args.opt_u32("clickCount", 1, 3)?.unwrap_or(1);
    args.finish()?;
    if trust != "trusted" && trust != "dom_event" {
        return Err(invalid("`trust` must be `trusted` or `dom_event`"));
    }

    let node = page_read::resolve_ref(&observation, reference)?;
    let before = Snapshot::take(Some(node))?;
    // The part of the node's own control the pointer lands on, if not the
    // node itself (its label, a wrapper, a styled track over it).
    let mut part = String::new();
    let route = if trust == "dom_event" {
        host_input::dom_click(node)?;
        "dom_event"
    } else {
        let (at, hit) = host_input::aim(node)?;
        if !hit.on_target {
            return Err(ToolError::ActionNotVerified(NotVerified {
                reason: "covered".to_string(),
                covering_role: Some(hit.role),
                covering_name: Some(hit.name),
            }));
        }
        host_input::click(at, button, count)?;
        part = hit.part;
        "trusted_input"
    };
    let after = match Snapshot::take(Some(node)) {
        // The click closed its own tab (for example `window.close()`).
        Err(ToolError::StaleRef(StaleReason::TargetClosed)) => {
            return Ok(json!({
                "evidence": evidence::evidence("click", "verified", &["target_closed"], route, &trust),
                "hints": [],
            }))
        }
        other => other?,
    };
    let signals = evidence::signals(&before, &after);
    let mut status = evidence::status_from(&signals);
    // A checkbox or radio that was clicked but did not change state is an
    // observable mismatch, unless the page moved on.
    if let (Some(b), Some(a)) = (&before.node, &after.node) {
        // A checkbox always toggles; a radio only turns on (clicking a
        // checked radio rightly changes nothing).
        let should_change = match b.input_type.as_deref() {
            Some("checkbox") => b.checked.is_some(),
            Some("radio") => b.checked == Some(false),
            _ => false,
        };
        if should_change && b.checked == a.checked && signals.is_empty() {
            status = "mismatch";
        }
    }
    let mut evidence = evidence::evidence("click", status, &signals, route, &trust);
    if !part.is_empty() {
        evidence["hit"] = json!(part);
    }
    Ok(json!({
        "evidence": evidence,
        "hints": [],
    }))
}
