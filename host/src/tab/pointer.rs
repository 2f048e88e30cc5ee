//! The tab's pointer, for the `pointer` capability: aim at a node (the
//! same route a click takes), single mouse events, intercepted HTML5
//! drags, and remote objects held between the two halves of a
//! before/after read.

use super::Tab;
use crate::browser::input::pointer::{DragStage, Mouse};
use crate::browser::types::{Hit, NodeHandle, Point};
use crate::cdp::CdpEvent;
use crate::error::BpResult;
use serde_json::Value;
use std::sync::Arc;
use tokio::sync::broadcast;

impl Tab<'_> {
    /// The browser's ID of the tab: a key for state kept across calls.
    pub fn key(&self) -> String {
        self.call.target_key().to_string()
    }

    /// Bring the node into view, take the centre of its box and hit-test
    /// it there, as a click aims.
    pub async fn aim(&mut self, handle: NodeHandle) -> BpResult<(Point, Hit)> {
        self.call.aim(handle).await
    }

    /// Scroll the node into view if it is not.
    pub async fn scroll_into_view(&mut self, handle: NodeHandle) -> BpResult<()> {
        self.call.scroll_into_view(handle).await
    }

    /// The centre of the node's box in the top-level viewport, as it is.
    pub async fn box_center(&mut self, handle: NodeHandle) -> BpResult<Point> {
        self.call.box_center(handle).await
    }

    /// One event of the left mouse button at `at`.
    pub async fn mouse(&mut self, event: Mouse, at: Point) -> BpResult<()> {
        self.call.mouse(event, at).await
    }

    /// Events from now on (see [`Tab::drag_intercepted`]).
    pub fn watch_events(&self) -> broadcast::Receiver<Arc<CdpEvent>> {
        self.call.watch_events()
    }

    /// The data of an HTML5 drag the page started, if one was intercepted.
    pub fn drag_intercepted(
        &self,
        events: &mut broadcast::Receiver<Arc<CdpEvent>>,
    ) -> Option<Value> {
        self.call.drag_intercepted(events)
    }

    /// Intercept HTML5 drags the page starts (`on`), or stop.
    pub async fn intercept_drags(&mut self, on: bool) -> BpResult<()> {
        self.call.intercept_drags(on).await
    }

    /// One stage of an intercepted drag at `at`.
    pub async fn drag_event(&mut self, stage: DragStage, at: Point, data: &Value) -> BpResult<()> {
        self.call.drag_event(stage, at, data).await
    }

    /// Evaluate `expression` in the main frame and keep the result for
    /// this call: its remote object ID.
    pub async fn hold(&mut self, expression: &str) -> BpResult<String> {
        self.call.hold(expression).await
    }

    /// Run `function` on a held object with `args`, by value.
    pub async fn call_held(
        &mut self,
        object: &str,
        function: &str,
        args: Value,
    ) -> BpResult<Value> {
        self.call.call_held(object, function, args).await
    }
}
