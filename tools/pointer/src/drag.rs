//! `browser.drag`: press on an observed element, move in steps, release on
//! another (or at a distance); HTML5 drags are finished with drag events.
//! A drag after which nothing changed is `action_not_verified`.

use crate::browser_pilot::tools::page_read;
use crate::browser_pilot::tools::pointer::{self, DragRoute, DropAt, Offset};
use crate::pair;
use bp_sdk::pace;
use bp_sdk::spec::{target_id_schema, with_common};
use bp_sdk::{invalid, not_verified, Args, ToolError, ToolSpec};
use serde_json::{json, Map, Value};

/// Moves of a drag unless `steps` says otherwise, and the most.
const STEPS: u32 = 10;
const MAX_STEPS: u32 = 50;

pub fn spec() -> ToolSpec {
    let mut out = Map::new();
    let point =
        json!({"type": "object", "properties": {"x": {"type": "number"}, "y": {"type": "number"}}});
    out.insert("route".into(), json!({"enum": ["pointer", "html5"]}));
    out.insert("from".into(), point.clone());
    out.insert("to".into(), point);
    for key in ["moved", "orderChanged", "dropTargetChanged", "valueChanged"] {
        out.insert(key.into(), json!({"type": "boolean"}));
    }
    out.insert("value".into(), json!({"type": "string", "description": "The source's value after the drag (a slider's), page data."}));
    out.insert("settle".into(), pace::report_schema());
    out.insert("signals".into(), json!({"type": "array", "items": {"enum": ["moved", "order_changed", "drop_target_changed", "value_changed"]}}));
    ToolSpec::mutating(
        "browser.drag",
        "Drag an observed element with the real pointer (press at its centre, several moves, release) onto another observed element `to`, or by a distance `by` {dx, dy} in CSS pixels (sliders). Pages that use HTML5 drag and drop get real drag events. The source is waited for to be visible, stable, enabled and not covered (up to `waitMs`); after the drop the call settles (`settle`). Reports the route and whether the source moved, its order among its siblings changed, the drop target's content changed, or its value changed; a drag that changed none of these fails action_not_verified.",
        &["page-read", "pointer"],
    )
    .schemas(
        json!({
            "type": "object",
            "additionalProperties": false,
            "required": ["observationId", "from"],
            "properties": {
                "targetId": target_id_schema(),
                "observationId": {"type": "string"},
                "from": {"type": "integer", "minimum": 1, "description": "The ref of the element to drag."},
                "to": {"type": "integer", "minimum": 1, "description": "The ref of the element to drop on."},
                "by": {"type": "object", "additionalProperties": false, "required": ["dx", "dy"],
                    "description": "Drag by this distance in CSS pixels, instead of to a ref.",
                    "properties": {"dx": {"type": "number"}, "dy": {"type": "number"}}},
                "steps": {"type": "integer", "minimum": 1, "maximum": MAX_STEPS, "default": STEPS},
                "waitMs": pace::wait_schema(),
                "settle": pace::settle_schema()
            }
        }),
        json!({"type": "object", "required": ["route", "from", "to", "moved", "orderChanged", "dropTargetChanged", "valueChanged", "signals"], "properties": Value::Object(with_common(out))}),
    )
}

pub fn drag(mut args: Args) -> Result<Value, ToolError> {
    args.allow(&["targetId"]);
    let observation = args.str("observationId")?;
    let from = args.ref_number("from")?;
    let to = args.opt_ref("to")?;
    let by = args.opt_value("by");
    let steps = args.opt_u32("steps", 1, MAX_STEPS)?.unwrap_or(STEPS);
    let pace = pace::pace_arg(&mut args)?;
    args.finish()?;
    let by = match (to, by) {
        (Some(_), None) => None,
        (None, Some(b)) => Some(pair(&b, "by", ["dx", "dy"])?),
        (Some(_), Some(_)) => return Err(invalid("give either `to` or `by`, not both")),
        (None, None) => return Err(invalid("name where to drag: `to` (a ref) or `by` {dx, dy}")),
    };
    if to == Some(from) {
        return Err(invalid("`from` and `to` are the same element"));
    }
    // Both refs are checked before anything moves.
    let source = page_read::resolve_ref(&observation, from)?;
    let target = match (to, by) {
        (Some(r), _) => DropAt::Node(page_read::resolve_ref(&observation, r)?),
        (None, Some((dx, dy))) => DropAt::By(Offset { dx, dy }),
        (None, None) => return Err(invalid("`to` or `by` is required")),
    };
    let d = pointer::drag(source, target, steps, pace)?;
    let mut signals = Vec::new();
    for (on, name) in [
        (d.moved, "moved"),
        (d.order_changed, "order_changed"),
        (d.drop_target_changed, "drop_target_changed"),
        (d.value_changed, "value_changed"),
    ] {
        if on {
            signals.push(name);
        }
    }
    if signals.is_empty() {
        return Err(not_verified("nothing_changed"));
    }
    let mut out = json!({
        "route": match d.route { DragRoute::Pointer => "pointer", DragRoute::Html5 => "html5" },
        "from": {"x": d.start.x.round(), "y": d.start.y.round()},
        "to": {"x": d.end.x.round(), "y": d.end.y.round()},
        "moved": d.moved,
        "orderChanged": d.order_changed,
        "dropTargetChanged": d.drop_target_changed,
        "valueChanged": d.value_changed,
        "signals": signals,
    });
    if let Some(v) = d.value {
        out["value"] = json!(v);
    }
    pace::report_into(&mut out, d.settle);
    Ok(out)
}
