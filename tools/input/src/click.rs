//! `browser.click`: wait until an observed element is ready for input
//! (refusing, after the wait, with the condition that failed), aim at it,
//! click, and settle. Or click at a point of the viewport (`at`), naming
//! what is there.

use crate::browser_pilot::tools::input::{self as host_input, MouseButton, Point};
use crate::browser_pilot::tools::page_read::{self, NodeHandle};
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
        "Click an observed element with trusted input at its centre, once it is visible, stable and enabled (waits up to `waitMs`); refuses when another element covers it. Or click at a point of the viewport (`at`, CSS pixels as in a screenshot). Then settles (`settle`).",
        &["page-read", "input"],
    )
    .schemas(
        json!({
            "type": "object",
            "additionalProperties": false,
            "properties": {
                "targetId": target_id_schema(),
                "observationId": {"type": "string"},
                "ref": {"type": "integer", "minimum": 1},
                "at": {
                    "type": "object",
                    "additionalProperties": false,
                    "required": ["x", "y"],
                    "properties": {"x": {"type": "number"}, "y": {"type": "number"}}
                },
                "waitMs": evidence::wait_schema(),
                "settle": evidence::settle_schema(),
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
    let at = args.opt_value("at");
    let (observation, reference) = match at {
        Some(_) => (None, None),
        None => (
            Some(args.str("observationId")?),
            Some(args.ref_number("ref")?),
        ),
    };
    let trust = args
        .opt_str("trust")?
        .unwrap_or_else(|| "trusted".to_string());
    let button = button(args.opt_str("button")?)?;
    let count = args.opt_u32("clickCount", 1, 3)?.unwrap_or(1);
    let wait = evidence::wait_arg(&mut args)?;
    let settle = evidence::settle_arg(&mut args)?;
    args.finish()?;
    if trust != "trusted" && trust != "dom_event" {
        return Err(invalid("`trust` must be `trusted` or `dom_event`"));
    }
    if let Some(at) = at {
        if trust != "trusted" {
            return Err(invalid("a click `at` a point is trusted input only"));
        }
        return click_at(point(&at)?, button, count, settle);
    }
    let (Some(observation), Some(reference)) = (observation, reference) else {
        return Err(invalid("give `observationId` and `ref`, or `at`"));
    };

    let node = page_read::resolve_ref(&observation, reference)?;
    let before = Snapshot::take(Some(node))?;
    let (route, part) = if trust == "dom_event" {
        host_input::settle_arm(settle)?;
        host_input::dom_click(node)?;
        ("dom_event", String::new())
    } else {
        let part = trusted_click(node, Press { button, count }, wait, settle)?;
        ("trusted_input", part)
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
    // A link's click may start a download the browser announces a moment
    // later; the broker waits briefly for it when nothing else changed.
    if before.node.as_ref().is_some_and(|n| n.tag == "a") {
        evidence["link"] = json!(true);
    }
    evidence::settle_into(&mut evidence, settle)?;
    Ok(json!({
        "evidence": evidence,
        "hints": [],
    }))
}

/// Which button, how many times.
struct Press {
    button: MouseButton,
    count: u32,
}

/// Wait until the node is ready for input (visible, stable, enabled, in
/// view and not covered; refused with the condition that failed once
/// `wait` ran out), aim and click. Returns the part of the node's own
/// control the pointer landed on, if not the node itself (its label, a
/// wrapper, a styled track over it).
fn trusted_click(
    node: NodeHandle,
    press: Press,
    wait: u32,
    settle: host_input::SettleMode,
) -> Result<String, ToolError> {
    host_input::actionable(node, wait)?;
    let (at, hit) = host_input::aim(node)?;
    if !hit.on_target {
        return Err(ToolError::ActionNotVerified(NotVerified {
            reason: "covered".to_string(),
            covering_role: Some(hit.role),
            covering_name: Some(hit.name),
        }));
    }
    host_input::settle_arm(settle)?;
    host_input::click(at, press.button, press.count)?;
    Ok(hit.part)
}

/// The `at` argument: finite CSS pixel coordinates.
fn point(at: &Value) -> Result<Point, ToolError> {
    let coord = |k: &str| {
        at.get(k)
            .and_then(Value::as_f64)
            .filter(|v| v.is_finite())
            .ok_or_else(|| invalid(format!("`at.{k}` must be a number")))
    };
    Ok(Point {
        x: coord("x")?,
        y: coord("y")?,
    })
}

/// Click at a point: name what is there (a point outside the viewport is
/// refused before anything is sent), click, read the page before and
/// after.
fn click_at(
    at: Point,
    button: MouseButton,
    count: u32,
    settle: host_input::SettleMode,
) -> Result<Value, ToolError> {
    let found = host_input::element_at(at)?;
    let before = Snapshot::take(None)?;
    host_input::settle_arm(settle)?;
    host_input::click(at, button, count)?;
    let after = match Snapshot::take(None) {
        Err(ToolError::StaleRef(StaleReason::TargetClosed)) => {
            return Ok(json!({
                "evidence": evidence::evidence("click", "verified", &["target_closed"], "trusted_input", "trusted"),
                "hints": [],
            }))
        }
        other => other?,
    };
    let signals = evidence::signals(&before, &after);
    let status = evidence::status_from(&signals);
    let mut evidence = evidence::evidence("click", status, &signals, "trusted_input", "trusted");
    evidence["target"] = json!({"role": found.role, "name": found.name, "tag": found.tag});
    evidence["at"] = json!({"x": at.x, "y": at.y});
    evidence::settle_into(&mut evidence, settle)?;
    Ok(json!({
        "evidence": evidence,
        "hints": [],
    }))
}
