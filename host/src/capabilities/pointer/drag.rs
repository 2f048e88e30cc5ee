//! The drag: aim at the source (refused when covered), find the drop
//! point (a node's centre or a distance away, in the viewport), then press,
//! move in steps and release the real pointer. HTML5 drags the page starts
//! are intercepted (`Input.setInterceptDrags`) and finished with drag
//! events at the target. Then the read-back, bounded: did the source move,
//! change place or value, did the drop target's content change.

use super::hover::{covered, in_viewport};
use super::position::{last, path, remember};
use super::probes::{Change, Source, CONTENT, SOURCE};
use crate::browser::input::pointer::{DragStage, Mouse};
use crate::browser::types::Point;
use crate::cdp::CdpEvent;
use crate::error::{BpError, BpResult};
use crate::tab::Tab;
use crate::wit::pointer::{self as wit, DragRoute, Dragged, DropAt, Pace};
use serde_json::Value;
use std::sync::Arc;
use std::time::{Duration, Instant};
use tokio::sync::broadcast;

/// Most moves of one drag.
pub const MAX_STEPS: u32 = 50;
/// The pause after each event: pages handle moves per frame, and
/// pointer-driven widgets often on a timer.
const PAUSE: Duration = Duration::from_millis(25);
/// How long the pointer rests at the drop point before the release.
const HOLD: Duration = Duration::from_millis(120);
/// How long the page's answer to a drag is waited for.
const READ_WAIT: Duration = Duration::from_millis(600);
const TICK: Duration = Duration::from_millis(40);

pub async fn drag(
    tab: &mut Tab<'_>,
    source: u32,
    target: DropAt,
    steps: u32,
    pace: Pace,
) -> BpResult<Dragged> {
    let steps = steps.clamp(1, MAX_STEPS);
    let to_node = match target {
        DropAt::Node(n) => Some(n),
        DropAt::By(_) => None,
    };
    if let Some(n) = to_node {
        tab.scroll_into_view(n).await?;
    }
    // The source ready first (attached, visible, stable, enabled, not
    // covered), waited for as a click waits (up to `pace.wait_ms`).
    tab.actionable(source, pace.wait_ms, true).await?;
    let (start, hit) = tab.aim(source).await?;
    if !hit.on_target {
        return Err(covered(&hit.role, &hit.name));
    }
    let end = match target {
        DropAt::Node(n) => tab.box_center(n).await?,
        DropAt::By(o) => Point {
            x: start.x + o.dx,
            y: start.y + o.dy,
        },
    };
    let end = in_viewport(tab, end).await?;
    let before = source_state(tab, source).await?;
    let content_before = match to_node {
        Some(n) => Some(tab.call_on(n, CONTENT).await?),
        None => None,
    };
    let mut events = tab.watch_events();
    tab.pace_arm(pace).await?;
    tab.intercept_drags(true).await?;
    let route = gesture(tab, &mut events, start, end, steps).await;
    // Always restored, whatever the gesture met.
    let restored = tab.intercept_drags(false).await;
    let route = match route {
        Ok(r) => r,
        Err(e) => {
            let _ = tab.mouse(Mouse::Released, end).await;
            return Err(e);
        }
    };
    restored?;
    let settle = tab.pace_settle(pace).await?;
    let (after, change, dropped) =
        read_back(tab, source, to_node, &before, &content_before).await?;
    Ok(Dragged {
        route,
        start: wit::Point {
            x: start.x,
            y: start.y,
        },
        end: wit::Point { x: end.x, y: end.y },
        moved: change.moved,
        order_changed: change.order_changed,
        drop_target_changed: dropped,
        value_changed: change.value_changed,
        value: after.value.map(|v| crate::sanitize::invisible::clean(&v)),
        settle,
    })
}

async fn source_state(tab: &mut Tab<'_>, source: u32) -> BpResult<Source> {
    let v = tab.call_on(source, SOURCE).await?;
    Source::from_value(&v).ok_or_else(|| BpError::internal("the drag source was not readable"))
}

/// Press at `start`, move to `end` in `steps`, release; an HTML5 drag the
/// page starts on the way is finished with drag events instead.
async fn gesture(
    tab: &mut Tab<'_>,
    events: &mut broadcast::Receiver<Arc<CdpEvent>>,
    start: Point,
    end: Point,
    steps: u32,
) -> BpResult<DragRoute> {
    let key = tab.key();
    for p in path(last(&key), start, 3) {
        tab.mouse(Mouse::Moved(false), p).await?;
    }
    tab.mouse(Mouse::Pressed, start).await?;
    remember(&key, start);
    tokio::time::sleep(PAUSE).await;
    let points = path(Some(start), end, steps);
    for (i, p) in points.iter().enumerate() {
        tab.mouse(Mouse::Moved(true), *p).await?;
        remember(&key, *p);
        tokio::time::sleep(PAUSE).await;
        if let Some(data) = tab.drag_intercepted(events) {
            html5(tab, &data, *p, &points[i + 1..], end).await?;
            return Ok(DragRoute::Html5);
        }
    }
    tokio::time::sleep(HOLD).await;
    if let Some(data) = tab.drag_intercepted(events) {
        html5(tab, &data, end, &[], end).await?;
        return Ok(DragRoute::Html5);
    }
    tab.mouse(Mouse::Released, end).await?;
    Ok(DragRoute::Pointer)
}

/// Finish an intercepted HTML5 drag: enter where the pointer is, go over
/// the rest of the path, drop at `end`, and release the button.
async fn html5(
    tab: &mut Tab<'_>,
    data: &Value,
    at: Point,
    rest: &[Point],
    end: Point,
) -> BpResult<()> {
    tab.drag_event(DragStage::Enter, at, data).await?;
    tokio::time::sleep(PAUSE).await;
    for p in rest.iter().chain(std::iter::once(&end)) {
        tab.drag_event(DragStage::Over, *p, data).await?;
        tokio::time::sleep(PAUSE).await;
    }
    tab.drag_event(DragStage::Drop, end, data).await?;
    tab.mouse(Mouse::Released, end).await
}

/// Read until the source changed or the drop target's content did, or
/// the bound passes: the last read of the source and what changed.
async fn read_back(
    tab: &mut Tab<'_>,
    source: u32,
    to_node: Option<u32>,
    before: &Source,
    content_before: &Option<Value>,
) -> BpResult<(Source, Change, bool)> {
    let start = Instant::now();
    loop {
        let now = source_state(tab, source).await?;
        let change = Change::between(before, &now);
        let dropped = match (to_node, content_before) {
            (Some(n), Some(b)) => tab.call_on(n, CONTENT).await? != *b,
            _ => false,
        };
        if change.any() || dropped || start.elapsed() >= READ_WAIT {
            return Ok((now, change, dropped));
        }
        tokio::time::sleep(TICK).await;
    }
}
