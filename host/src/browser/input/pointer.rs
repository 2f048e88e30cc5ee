//! The pointer of a [`TargetCall`], beyond a click: single mouse events
//! (move, press, release with the left button), HTML5 drags intercepted
//! and finished with drag events, and the remote objects a before/after
//! read of the page keeps between its two halves. The `pointer`
//! capability reaches these through the tab façade (`crate::tab`).

use crate::browser::call::wire::{call_args, call_function, Wire};
use crate::browser::call::TargetCall;
use crate::browser::types::Point;
use crate::cdp::event::CdpEvent;
use crate::error::{BpError, BpResult};
use chromiumoxide::cdp::browser_protocol::input::{
    DispatchDragEventParams, DispatchDragEventType as DragEvent, DispatchMouseEventParams,
    DispatchMouseEventType as MouseEvent, DragData, EventDragIntercepted, MouseButton,
    SetInterceptDragsParams,
};
use chromiumoxide::cdp::js_protocol::runtime::EvaluateParams;
use serde_json::Value;
use std::sync::Arc;
use tokio::sync::broadcast;

/// A mouse event of the left button.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Mouse {
    /// The pointer moves; `true` while the button is held.
    Moved(bool),
    Pressed,
    Released,
}

/// The stage of an intercepted HTML5 drag.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum DragStage {
    Enter,
    Over,
    Drop,
    Cancel,
}

impl TargetCall {
    /// The browser's own ID of the call's target: a key for state the
    /// broker keeps per tab across calls.
    pub fn target_key(&self) -> &str {
        &self.raw_id
    }

    /// One event of the left mouse button at `at` (top-level viewport).
    /// Stops waiting when a JavaScript dialog opens.
    pub async fn mouse(&mut self, event: Mouse, at: Point) -> BpResult<()> {
        self.check()?;
        self.mark_dispatched();
        let (kind, buttons, count) = match event {
            Mouse::Moved(held) => (MouseEvent::MouseMoved, i64::from(held), 0),
            Mouse::Pressed => (MouseEvent::MousePressed, 1, 1),
            Mouse::Released => (MouseEvent::MouseReleased, 0, 1),
        };
        let mut ev = DispatchMouseEventParams::new(kind, at.x, at.y);
        ev.buttons = Some(buttons);
        if event != Mouse::Moved(false) {
            ev.button = Some(MouseButton::Left);
            ev.click_count = Some(count);
        }
        let session = self.session.clone();
        self.send_unless_dialog(&session, Wire::of(&ev)?).await?;
        self.defer_settle();
        Ok(())
    }

    /// Events from now on, to find the `Input.dragIntercepted` of a drag
    /// the page starts ([`TargetCall::drag_intercepted`]).
    pub fn watch_events(&self) -> broadcast::Receiver<Arc<CdpEvent>> {
        self.cdp.subscribe()
    }

    /// The drag data of an `Input.dragIntercepted` of this tab among the
    /// events received so far, if one came.
    pub fn drag_intercepted(
        &self,
        events: &mut broadcast::Receiver<Arc<CdpEvent>>,
    ) -> Option<Value> {
        while let Ok(ev) = events.try_recv() {
            if ev.is::<EventDragIntercepted>()
                && ev.session_id.as_deref() == Some(self.session.as_str())
            {
                // Kept as sent: the component hands it back to `drag_event`.
                return Some(ev.params["data"].clone());
            }
        }
        None
    }

    /// Have HTML5 drags the page starts reported as `Input.dragIntercepted`
    /// instead of run by the browser (`on`), or no longer.
    pub async fn intercept_drags(&mut self, on: bool) -> BpResult<()> {
        self.check()?;
        self.cmd(&SetInterceptDragsParams::new(on))
            .await
            .map(|_| ())
    }

    /// One stage of an intercepted drag at `at`, with its drag `data`.
    pub async fn drag_event(&mut self, stage: DragStage, at: Point, data: &Value) -> BpResult<()> {
        self.check()?;
        self.mark_dispatched();
        let kind = match stage {
            DragStage::Enter => DragEvent::DragEnter,
            DragStage::Over => DragEvent::DragOver,
            DragStage::Drop => DragEvent::Drop,
            DragStage::Cancel => DragEvent::DragCancel,
        };
        // The browser's own drag data, from its `Input.dragIntercepted`.
        let data: DragData = serde_json::from_value(data.clone())
            .map_err(|e| BpError::internal(format!("drag data not understood: {e}")))?;
        let ev = DispatchDragEventParams::new(kind, at.x, at.y, data);
        let session = self.session.clone();
        self.send_unless_dialog(&session, Wire::of(&ev)?).await?;
        self.defer_settle();
        Ok(())
    }

    /// Evaluate `expression` in the main frame and keep its result as a
    /// remote object of this call (released when the call ends): its ID.
    pub async fn hold(&mut self, expression: &str) -> BpResult<String> {
        self.check()?;
        let session = self.session.clone();
        self.group_sessions.insert(session);
        let mut evaluate = EvaluateParams::new(expression);
        evaluate.object_group = Some(self.group.clone());
        let reply = self.cmd_raw(&evaluate).await?;
        if reply.get("exceptionDetails").is_some() {
            return Err(BpError::internal("a page-side helper threw"));
        }
        reply["result"]["objectId"]
            .as_str()
            .map(str::to_string)
            .ok_or_else(|| BpError::internal("a page-side helper kept no object"))
    }

    /// Run `function` with `this` bound to a held object (main frame) and
    /// `args`, and return its result by value.
    pub async fn call_held(
        &mut self,
        object: &str,
        function: &str,
        args: Value,
    ) -> BpResult<Value> {
        self.check()?;
        let mut call = call_function(object, function);
        call.arguments = Some(call_args(&args));
        call.return_by_value = Some(true);
        let reply = self.cmd_raw(&call).await?;
        if reply.get("exceptionDetails").is_some() {
            return Err(BpError::internal("a page-side helper threw"));
        }
        Ok(reply["result"]["value"].clone())
    }
}
