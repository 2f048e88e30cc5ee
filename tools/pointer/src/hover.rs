//! `browser.hover`: the real pointer onto an observed element (aimed as a
//! click aims, refused when covered) or a viewport point, left there.

use crate::browser_pilot::tools::page_read;
use crate::browser_pilot::tools::pointer::{self, HoverTarget, Point};
use crate::pair;
use bp_sdk::pace;
use bp_sdk::spec::{target_id_schema, with_common};
use bp_sdk::{invalid, Args, ToolError, ToolSpec};
use serde_json::{json, Map, Value};

pub fn spec() -> ToolSpec {
    let mut out = Map::new();
    let point =
        json!({"type": "object", "properties": {"x": {"type": "number"}, "y": {"type": "number"}}});
    out.insert("hovered".into(), json!({"enum": ["element", "point"]}));
    out.insert("at".into(), point);
    out.insert("under".into(), json!({"type": "object", "description": "The element under the pointer (page data): role, name, tag.",
        "properties": {"role": {"type": "string"}, "name": {"type": "string"}, "tag": {"type": "string"}}}));
    out.insert("appeared".into(), json!({"type": "object", "description": "Elements that became visible: how many, and a few names (page data).",
        "properties": {"count": {"type": "integer"}, "names": {"type": "array", "items": {"type": "string"}}}}));
    out.insert("expandedChanged".into(), json!({"type": "boolean"}));
    out.insert("expanded".into(), json!({"enum": ["true", "false"]}));
    out.insert("settle".into(), pace::report_schema());
    ToolSpec::mutating(
        "browser.hover",
        "Move the real mouse pointer onto an observed element (brought into view, refused when covered) or onto a viewport point `at` {x, y} in CSS pixels (as in screenshots), and leave it there, so hover menus open and a following click on a revealed item moves on from there. An element is waited for to be visible, stable and not covered (up to `waitMs`); after the move the call settles (`settle`). Reports the element under the pointer, the elements that appeared (count and a few names), and whether aria-expanded changed.",
        &["page-read", "pointer"],
    )
    .schemas(
        json!({
            "type": "object",
            "additionalProperties": false,
            "properties": {
                "targetId": target_id_schema(),
                "observationId": {"type": "string"},
                "ref": {"type": "integer", "minimum": 1, "description": "The element to hover (with observationId)."},
                "at": {"type": "object", "additionalProperties": false, "required": ["x", "y"],
                    "description": "A viewport point in CSS pixels, instead of a ref.",
                    "properties": {"x": {"type": "number"}, "y": {"type": "number"}}},
                "waitMs": pace::wait_schema(),
                "settle": pace::settle_schema()
            }
        }),
        json!({"type": "object", "required": ["hovered", "at", "under", "appeared", "expandedChanged"], "properties": Value::Object(with_common(out))}),
    )
}

pub fn hover(mut args: Args) -> Result<Value, ToolError> {
    args.allow(&["targetId"]);
    let observation = args.opt_str("observationId")?;
    let reference = args.opt_ref("ref")?;
    let at = args.opt_value("at");
    let pace = pace::pace_arg(&mut args)?;
    args.finish()?;
    let target = match (observation, reference, at) {
        (Some(o), Some(r), None) => HoverTarget::Node(page_read::resolve_ref(&o, r)?),
        (None, None, Some(at)) => {
            let (x, y) = pair(&at, "at", ["x", "y"])?;
            HoverTarget::At(Point { x, y })
        }
        (_, _, Some(_)) => {
            return Err(invalid(
                "give either observationId and ref, or at {x, y}, not both",
            ))
        }
        (None, None, None) => {
            return Err(invalid(
                "name what to hover: observationId and ref, or at {x, y}",
            ))
        }
        _ => return Err(invalid("`observationId` and `ref` go together")),
    };
    let what = match target {
        HoverTarget::Node(_) => "element",
        HoverTarget::At(_) => "point",
    };
    let h = pointer::hover(target, pace)?;
    let mut out = json!({
        "hovered": what,
        "at": {"x": h.at.x.round(), "y": h.at.y.round()},
        "under": {"role": h.under.role, "name": h.under.name, "tag": h.under.tag},
        "appeared": {"count": h.appeared_count, "names": h.appeared},
        "expandedChanged": h.expanded_changed,
    });
    if let Some(e) = h.expanded {
        out["expanded"] = json!(e);
    }
    pace::report_into(&mut out, h.settle);
    Ok(out)
}
