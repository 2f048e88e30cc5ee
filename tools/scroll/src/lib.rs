//! The scroll family: `browser.scroll` scrolls the page, a scroll
//! container (a real wheel at its centre, so virtualized lists render what
//! comes into view), or an element into view, and reports the offsets
//! before and after, whether it reached an edge, and whether lazy content
//! came. The component checks the request and resolves the ref; the host
//! scrolls and reads back.

wit_bindgen::generate!({
    world: "scroll",
    path: "../../tools-wit",
    with: { "browser-pilot:tools/types@0.1.0": bp_sdk::types },
});

use bp_sdk::spec::{target_id_schema, with_common};
use bp_sdk::{invalid, Args, CallContext, Component, ToolError, ToolSpec};
use browser_pilot::tools::page_read;
use browser_pilot::tools::page_scroll::{self, Direction, Edge, Motion, Offset, Route, Step};
use serde_json::{json, Map, Value};

/// The largest step one call may ask for, in CSS pixels.
const MAX_AMOUNT: u32 = 100_000;

struct Scroll;

fn spec() -> ToolSpec {
    let mut out = Map::new();
    let offset =
        json!({"type": "object", "properties": {"x": {"type": "number"}, "y": {"type": "number"}}});
    out.insert("before".into(), offset.clone());
    out.insert("after".into(), offset);
    out.insert("atEdge".into(), json!({"type": "boolean"}));
    out.insert("contentGrew".into(), json!({"type": "boolean"}));
    out.insert(
        "route".into(),
        json!({"enum": ["page", "wheel", "script", "intoView", "none"]}),
    );
    out.insert(
        "scrolled".into(),
        json!({"enum": ["page", "element", "intoView"]}),
    );
    ToolSpec::mutating(
        "browser.scroll",
        "Scroll the page, or the scroll container an observed ref names (a real mouse wheel, so virtualized lists render), by direction and amount (default one viewport) or to the top or bottom; or bring an element into view. Reports offsets before and after, atEdge, and contentGrew (lazy content came).",
        &["page-read", "page-scroll"],
    )
    .schemas(
        json!({
            "type": "object",
            "additionalProperties": false,
            "properties": {
                "targetId": target_id_schema(),
                "observationId": {"type": "string"},
                "ref": {"type": "integer", "minimum": 1, "description": "The scroll container to scroll, or with intoView the element to bring into view; without it the page scrolls."},
                "direction": {"enum": ["up", "down", "left", "right"]},
                "amount": {"type": "integer", "minimum": 1, "maximum": MAX_AMOUNT, "description": "CSS pixels, with direction; default one viewport (or one container box)."},
                "to": {"enum": ["top", "bottom"]},
                "intoView": {"type": "boolean", "description": "With ref: scroll the element into view, centred."}
            }
        }),
        json!({"type": "object", "required": ["before", "after", "atEdge", "contentGrew", "route"], "properties": Value::Object(with_common(out))}),
    )
}

fn direction(name: &str) -> Result<Direction, ToolError> {
    Ok(match name {
        "up" => Direction::Up,
        "down" => Direction::Down,
        "left" => Direction::Left,
        "right" => Direction::Right,
        other => {
            return Err(invalid(format!(
                "`direction` must be up, down, left or right, not `{other}`"
            )))
        }
    })
}

/// The one motion the arguments name.
fn motion(args: &mut Args) -> Result<Motion, ToolError> {
    let dir = args.opt_str("direction")?;
    let amount = args.opt_u32("amount", 1, MAX_AMOUNT)?;
    let to = args.opt_str("to")?;
    let into_view = args.opt_bool("intoView")?.unwrap_or(false);
    let named = [dir.is_some(), to.is_some(), into_view];
    if named.iter().filter(|n| **n).count() != 1 {
        return Err(invalid(
            "name exactly one motion: direction (with an optional amount), to (top or bottom), or intoView",
        ));
    }
    if amount.is_some() && dir.is_none() {
        return Err(invalid("`amount` goes with `direction`"));
    }
    Ok(match (dir, to) {
        (Some(d), _) => Motion::By(Step {
            direction: direction(&d)?,
            amount,
        }),
        (_, Some(t)) => Motion::To(match t.as_str() {
            "top" => Edge::Top,
            "bottom" => Edge::Bottom,
            other => {
                return Err(invalid(format!(
                    "`to` must be top or bottom, not `{other}`"
                )))
            }
        }),
        _ => Motion::IntoView,
    })
}

fn offset(o: &Offset) -> Value {
    json!({"x": o.x.round(), "y": o.y.round()})
}

fn route(r: Route) -> &'static str {
    match r {
        Route::Page => "page",
        Route::Wheel => "wheel",
        Route::Script => "script",
        Route::IntoView => "intoView",
        Route::None => "none",
    }
}

impl Component for Scroll {
    fn specs() -> Vec<ToolSpec> {
        vec![spec()]
    }

    fn call(_ctx: &CallContext, name: &str, mut args: Args) -> Result<Value, ToolError> {
        if name != "browser.scroll" {
            return Err(invalid(format!("unknown tool `{name}`")));
        }
        args.allow(&["targetId"]);
        let motion = motion(&mut args)?;
        let observation = args.opt_str("observationId")?;
        let reference = args.opt_ref("ref")?;
        args.finish()?;
        let node = match (observation, reference) {
            (Some(o), Some(r)) => Some(page_read::resolve_ref(&o, r)?),
            (None, None) => None,
            _ => return Err(invalid("`observationId` and `ref` go together")),
        };
        if node.is_none() && matches!(motion, Motion::IntoView) {
            return Err(invalid(
                "`intoView` needs the element to bring into view: give observationId and ref",
            ));
        }
        let what = match (&motion, node) {
            (Motion::IntoView, _) => "intoView",
            (_, Some(_)) => "element",
            (_, None) => "page",
        };
        let s = page_scroll::scroll(node, motion)?;
        Ok(json!({
            "scrolled": what,
            "before": offset(&s.before),
            "after": offset(&s.after),
            "atEdge": s.at_edge,
            "contentGrew": s.content_grew,
            "route": route(s.route),
        }))
    }
}

bp_sdk::export_component!(Scroll);
