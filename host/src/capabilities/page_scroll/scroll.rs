//! The scrolls: the page by script, a container by a real wheel at its
//! centre (by script only when the wheel moved nothing), an element into
//! view; then the read-back, bounded, of where it ended and whether lazy
//! content came.

use super::metrics::{delta, word, Metrics, NODE_PROBE, PAGE_PROBE};
use crate::browser::types::SettleMode;
use crate::error::{BpError, BpResult};
use crate::tab::Tab;
use crate::wit::page_scroll::{Direction, Edge, Motion, Route, Scrolled, Step};
use serde_json::json;
use std::time::{Duration, Instant};

/// How long, at most, the requests a scroll started are waited for.
const GROWTH_WAIT_MS: u32 = 1_000;
/// How long a wheel's (possibly animated) scroll is waited for.
const WHEEL_WAIT: Duration = Duration::from_millis(800);
/// The pause between reads.
const TICK: Duration = Duration::from_millis(40);

/// Scroll as `motion` says: the page when `node` is none, else the
/// container `node` names (or, for into-view, the node itself).
pub async fn scroll(tab: &mut Tab<'_>, node: Option<u32>, motion: Motion) -> BpResult<Scrolled> {
    // Requests from here on are the scroll's (lazy content it loads).
    tab.settle_arm(SettleMode::Network).await?;
    match (node, motion) {
        (Some(n), Motion::IntoView) => into_view(tab, n).await,
        (None, Motion::IntoView) => Err(BpError::invalid(
            "`intoView` needs the element to bring into view (observationId and ref)",
        )),
        (None, motion) => page(tab, motion).await,
        (Some(n), Motion::By(step)) => container_by(tab, n, step).await,
        (Some(n), Motion::To(edge)) => container_to(tab, n, edge).await,
    }
}

async fn page_metrics(tab: &mut Tab<'_>) -> BpResult<Metrics> {
    let v = tab.evaluate(PAGE_PROBE).await?;
    Metrics::from_value(&v)
        .ok_or_else(|| BpError::internal("the page's scroll state was not readable"))
}

async fn node_metrics(tab: &mut Tab<'_>, node: u32) -> BpResult<Metrics> {
    let v = tab.call_on(node, NODE_PROBE).await?;
    Metrics::from_value(&v)
        .ok_or_else(|| BpError::internal("the element's scroll state was not readable"))
}

/// The direction a `to` motion scrolls in.
fn towards(edge: Edge) -> Direction {
    match edge {
        Edge::Top => Direction::Up,
        Edge::Bottom => Direction::Down,
    }
}

/// What one read says: the page's state (`node` none) or the node's.
async fn read(tab: &mut Tab<'_>, node: Option<u32>) -> BpResult<Metrics> {
    match node {
        Some(n) => node_metrics(tab, n).await,
        None => page_metrics(tab).await,
    }
}

/// What the content did after the scroll: lazy content comes in the
/// frames after it (an IntersectionObserver's callback, a scroll handler)
/// or by the requests those start. Two frames are waited for, then the
/// requests the scroll started (none started: nothing more), then the
/// content is read once: nothing pending costs two frames, no fixed wait.
async fn settle(
    tab: &mut Tab<'_>,
    node: Option<u32>,
    before: &Metrics,
) -> BpResult<(Metrics, bool)> {
    tab.after_frames().await?;
    tab.settle(GROWTH_WAIT_MS).await?;
    let now = read(tab, node).await?;
    let grew = now.grew_since(before);
    Ok((now, grew))
}

/// The evidence of a scroll towards `direction` from `before`.
async fn evidence(
    tab: &mut Tab<'_>,
    node: Option<u32>,
    before: &Metrics,
    direction: Option<Direction>,
    route: Route,
) -> BpResult<Scrolled> {
    let (after, grew) = settle(tab, node, before).await?;
    Ok(Scrolled {
        before: before.offset(),
        after: after.offset(),
        at_edge: direction.is_some_and(|d| after.at_edge(d)),
        content_grew: grew,
        route,
    })
}

/// The page, by script.
async fn page(tab: &mut Tab<'_>, motion: Motion) -> BpResult<Scrolled> {
    let before = page_metrics(tab).await?;
    let (expression, direction) = match &motion {
        Motion::By(step) => {
            let (dx, dy) = delta(step, &before);
            (
                format!("window.scrollBy({{left: {dx}, top: {dy}, behavior: 'instant'}})"),
                step.direction,
            )
        }
        Motion::To(edge) => {
            let top = match edge {
                Edge::Top => "0",
                Edge::Bottom => {
                    "(document.scrollingElement || document.documentElement).scrollHeight"
                }
            };
            (
                format!(
                    "window.scrollTo({{left: window.scrollX, top: {top}, behavior: 'instant'}})"
                ),
                towards(*edge),
            )
        }
        Motion::IntoView => return Err(BpError::invalid("`intoView` needs an element")),
    };
    tab.evaluate(&expression).await?;
    evidence(tab, None, &before, Some(direction), Route::Page).await
}

/// Refuse, before anything moves, a container that does not scroll that
/// way.
fn must_scroll(m: &Metrics, direction: Direction) -> BpResult<()> {
    if m.scrolls(direction) {
        return Ok(());
    }
    let axis = match direction {
        Direction::Up | Direction::Down => "vertically",
        Direction::Left | Direction::Right => "horizontally",
    };
    Err(BpError::invalid(format!(
        "the element does not scroll {axis} (no overflow to scroll {}); name its scroll container, or leave out the ref to scroll the page",
        word(direction)
    ))
    .with_context(json!({"reason": "not_scrollable"})))
}

/// A container by one step: a real wheel at its centre, so the page sees
/// the scroll as a person's (virtualized lists render what comes into
/// view); by script only when the wheel moved nothing.
async fn container_by(tab: &mut Tab<'_>, node: u32, step: Step) -> BpResult<Scrolled> {
    let before = node_metrics(tab, node).await?;
    must_scroll(&before, step.direction)?;
    if before.at_edge(step.direction) {
        return evidence(tab, Some(node), &before, Some(step.direction), Route::None).await;
    }
    let (dx, dy) = delta(&step, &before);
    let at = tab.center_of(node).await?;
    tab.wheel(at, dx, dy).await?;
    let route = if wheel_moved(tab, node, &before).await? {
        Route::Wheel
    } else {
        // To where the step ends, not by the step again: a wheel the
        // page took late (a busy renderer) is not doubled.
        let (x, y) = (before.x + dx, before.y + dy);
        let f = format!(
            "function () {{ this.scrollTo({{left: {x}, top: {y}, behavior: 'instant'}}); }}"
        );
        tab.call_on(node, &f).await?;
        Route::Script
    };
    evidence(tab, Some(node), &before, Some(step.direction), route).await
}

/// Whether the container moved after a wheel, waiting (bounded) for an
/// animated scroll to finish.
async fn wheel_moved(tab: &mut Tab<'_>, node: u32, before: &Metrics) -> BpResult<bool> {
    let start = Instant::now();
    let mut last = *before;
    loop {
        tokio::time::sleep(TICK).await;
        let now = node_metrics(tab, node).await?;
        let moved = now.moved_from(before);
        // Moved and then still for one tick: the scroll is done.
        if moved && !now.moved_from(&last) {
            return Ok(true);
        }
        if start.elapsed() >= WHEEL_WAIT {
            return Ok(moved);
        }
        last = now;
    }
}

/// A container to its top or bottom, by script.
async fn container_to(tab: &mut Tab<'_>, node: u32, edge: Edge) -> BpResult<Scrolled> {
    let before = node_metrics(tab, node).await?;
    let direction = towards(edge);
    must_scroll(&before, direction)?;
    let top = match edge {
        Edge::Top => "0",
        Edge::Bottom => "this.scrollHeight",
    };
    let f = format!("function () {{ this.scrollTo({{left: this.scrollLeft, top: {top}, behavior: 'instant'}}); }}");
    tab.call_on(node, &f).await?;
    evidence(tab, Some(node), &before, Some(direction), Route::Script).await
}

/// The node into view, centred; the page's offsets read back.
async fn into_view(tab: &mut Tab<'_>, node: u32) -> BpResult<Scrolled> {
    let before = page_metrics(tab).await?;
    tab.call_on(
        node,
        "function () { this.scrollIntoView({block: 'center', inline: 'center', behavior: 'instant'}); }",
    )
    .await?;
    evidence(tab, None, &before, None, Route::IntoView).await
}

#[cfg(test)]
pub(super) fn refusal(m: &Metrics, direction: Direction) -> BpResult<()> {
    must_scroll(m, direction)
}
