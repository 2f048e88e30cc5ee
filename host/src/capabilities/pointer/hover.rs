//! The hover: aim (a node as a click aims, waited for as `pace` says and
//! refused when covered; a point checked against the viewport), keep the
//! set of shown elements, move the pointer there in a few steps from where
//! it was left, leave it, settle as `pace` says, and read back what
//! appeared and whether `aria-expanded` changed.
//!
//! What a hover reveals shows by the page's next frames (a CSS `:hover`
//! rule, a `mouseenter` handler) or once the requests it started have
//! answered: two frames are waited for, then the settle (the requests,
//! then a DOM quiet), then one read. A hover that reveals nothing costs
//! the two frames, no polling.

use super::position::{inside, last, path, remember};
use super::probes::{self, NODE_EXPANDED, VIEWPORT};
use crate::browser::input::pointer::Mouse;
use crate::browser::types::Point;
use crate::error::{BpError, BpResult, Code};
use crate::tab::Tab;
use crate::wit::pointer::{self as wit, Element, HoverTarget, Hovered, Pace};
use serde_json::{json, Value};

/// Moves of a hover from where the pointer was.
const STEPS: u32 = 5;

/// What the page showed at one read.
struct Seen {
    count: u32,
    names: Vec<String>,
    expanded: Option<String>,
}

pub async fn hover(tab: &mut Tab<'_>, target: HoverTarget, pace: Pace) -> BpResult<Hovered> {
    let (to, node) = match target {
        HoverTarget::Node(n) => (aim(tab, n, pace.wait_ms).await?, Some(n)),
        HoverTarget::At(p) => (in_viewport(tab, Point { x: p.x, y: p.y }).await?, None),
    };
    let shown = tab.hold(&probes::visible_set()).await?;
    let expanded_before = expanded(tab, node, to).await?;
    let key = tab.key();
    tab.pace_arm(pace).await?;
    for p in path(last(&key), to, STEPS) {
        tab.mouse(Mouse::Moved(false), p).await?;
        remember(&key, p);
    }
    tab.after_frames().await?;
    let settle = tab.pace_settle(pace).await?;
    let seen = reveal(tab, &shown, node, to).await?;
    let under = under(tab, to).await?;
    Ok(Hovered {
        at: wit::Point { x: to.x, y: to.y },
        under,
        appeared_count: seen.count,
        appeared: seen.names,
        expanded_changed: seen.expanded != expanded_before,
        expanded: seen.expanded,
        settle,
    })
}

/// The node's centre, brought into view; refused when something covers it.
async fn aim(tab: &mut Tab<'_>, node: u32, wait_ms: u32) -> BpResult<Point> {
    // Ready first: attached, visible, stable and not covered, waited for
    // (bounded by `wait_ms`) as a click waits; a disabled control can be
    // hovered.
    tab.pointer_ready(node, wait_ms).await?;
    let (at, hit) = tab.aim(node).await?;
    if !hit.on_target {
        return Err(covered(&hit.role, &hit.name));
    }
    Ok(at)
}

/// `action_not_verified(covered)` naming the cover (page data, cleaned).
pub fn covered(role: &str, name: &str) -> BpError {
    let name = crate::sanitize::invisible::clean(name);
    BpError::new(
        Code::ActionNotVerified,
        format!("the element is covered by {role} \"{name}\""),
    )
    .with_context(json!({"reason": "covered", "coveringRole": role, "coveringName": name}))
}

/// `at`, if it lies in the viewport; else `invalid_argument`.
pub async fn in_viewport(tab: &mut Tab<'_>, at: Point) -> BpResult<Point> {
    let v = tab.evaluate(VIEWPORT).await?;
    let (w, h) = (v[0].as_f64().unwrap_or(0.0), v[1].as_f64().unwrap_or(0.0));
    if !at.x.is_finite() || !at.y.is_finite() || !inside(at, w, h) {
        return Err(BpError::invalid(format!(
            "the point {},{} is outside the viewport (0,0 to {w},{h} CSS pixels)",
            at.x, at.y
        ))
        .with_context(json!({"viewport": {"width": w, "height": h}})));
    }
    Ok(at)
}

/// `aria-expanded` of the node, or of what is at the point.
async fn expanded(tab: &mut Tab<'_>, node: Option<u32>, at: Point) -> BpResult<Option<String>> {
    let v = match node {
        Some(n) => tab.call_on(n, NODE_EXPANDED).await?,
        None => tab.evaluate(&probes::at_point(at.x, at.y)).await?["expanded"].clone(),
    };
    Ok(v.as_str().map(str::to_string))
}

/// One read, once the page drew and settled: what appeared, and the
/// `aria-expanded` now.
async fn reveal(tab: &mut Tab<'_>, shown: &str, node: Option<u32>, at: Point) -> BpResult<Seen> {
    let v = tab.call_held(shown, &probes::appeared(), json!([])).await?;
    Ok(Seen {
        count: count_of(&v),
        names: probes::names(&v),
        expanded: expanded(tab, node, at).await?,
    })
}

/// The element under the pointer at `at`.
pub async fn under(tab: &mut Tab<'_>, at: Point) -> BpResult<Element> {
    let v = tab.evaluate(&probes::at_point(at.x, at.y)).await?;
    let s = |k: &str| {
        v[k].as_str()
            .map(crate::sanitize::invisible::clean)
            .unwrap_or_default()
    };
    Ok(Element {
        role: s("role"),
        name: s("name"),
        tag: s("tag"),
    })
}

/// How many elements an appeared read counted.
pub fn count_of(v: &Value) -> u32 {
    v["count"]
        .as_u64()
        .map_or(0, |c| u32::try_from(c).unwrap_or(u32::MAX))
}
