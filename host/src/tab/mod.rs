//! The tab: what the capabilities of one call share of its target, and
//! nothing more. A capability gets a [`Tab`] from its view, never the
//! whole call: it can ask the page (checked against the call's lease,
//! connection generation, target and session first), read the document
//! state the broker keeps, and act on the node handles the call resolved.
//! Per-capability state stays in the capability's own folder.
//!
//! The tab layer imports the browser layer below it and never the runtime
//! or the broker (checked by the layering test).

mod commands;
mod cookies;
mod emulation;
mod input;
mod navigation;
mod pace;
pub use pace::SETTLE_MS;
mod page_read;
mod page_tools;
mod pointer;
mod storage;
pub use storage::{bounded, StorageItem, MAX_ITEMS, MAX_VALUE_CHARS};
mod view;
pub use view::{TabScope, TabView};

use crate::browser::call::TargetCall;
use crate::browser::types::{Modifiers, MouseButton};
use crate::browser::types::{NodeHandle, Point, SettleMode, SettleReport};
use crate::error::BpResult;
use serde_json::{json, Value};

/// The call's target, as the capabilities share it.
pub struct Tab<'a> {
    call: &'a mut TargetCall,
}

impl<'a> Tab<'a> {
    pub fn new(call: &'a mut TargetCall) -> Self {
        Self { call }
    }

    /// The document generation (changes when the main document is
    /// replaced) and whether a JavaScript dialog is open, from the
    /// broker's own state: no page round trip.
    pub fn document(&self) -> BpResult<(u64, bool)> {
        self.call.check()?;
        self.call.document_state()
    }

    /// The document URL as the browser reports it.
    pub async fn url(&self) -> BpResult<String> {
        self.call.check()?;
        Ok(self.call.current_page().await?.url)
    }

    /// What a person sees of the whole page, cut to `max_chars`
    /// (invisible characters removed, hidden text left out).
    pub async fn visible_text(&mut self, max_chars: u32) -> BpResult<String> {
        Ok(self.call.text(None, max_chars, false).await?.text)
    }

    /// Run a page-side `function` with `this` bound to the node of
    /// `handle`, and return its result by value.
    pub async fn call_on(&mut self, handle: NodeHandle, function: &str) -> BpResult<Value> {
        self.call.check()?;
        let result = self.call.call_on(handle, function, json!([]), true).await?;
        Ok(result["value"].clone())
    }

    /// Evaluate `expression` in the main frame, by value.
    pub async fn evaluate(&mut self, expression: &str) -> BpResult<Value> {
        self.call.check()?;
        self.call.evaluate_value(expression).await
    }

    /// Wait for the page to draw two frames (at most 100 ms each): what a
    /// scroll or an input makes the page do at its next frame (an
    /// IntersectionObserver's callback, a scroll handler) has run.
    pub async fn after_frames(&mut self) -> BpResult<()> {
        self.call.check()?;
        let frames = "(() => { const frame = () => new Promise(q => \
                      { requestAnimationFrame(q); setTimeout(q, 100); }); \
                      return frame().then(frame).then(() => 0); })()";
        self.call.evaluate_awaited(frames).await.map(drop)
    }

    /// Bring the node of `handle` into view if it is not, and return the
    /// centre of its box in the top-level viewport.
    pub async fn center_of(&mut self, handle: NodeHandle) -> BpResult<Point> {
        self.call.scroll_into_view(handle).await?;
        self.call.box_center(handle).await
    }

    /// Wait, at most `wait_ms`, for the node to be where a pointer can
    /// reach it: attached, visible, stable and not covered (enabled or
    /// not: a hover shows a disabled control's tooltip).
    pub async fn pointer_ready(&mut self, handle: NodeHandle, wait_ms: u32) -> BpResult<()> {
        self.call.actionable_as(handle, wait_ms, true, false).await
    }

    /// Wait up to `wait_ms` for the node of `handle` to be ready for
    /// input: attached, visible, stable, enabled and, with `need_hit` (a
    /// pointer), in view and not covered. Refused `action_not_verified`
    /// naming the condition that failed (`browser/input/actionable.rs`). A
    /// node that is ready costs at most one page call.
    pub async fn actionable(
        &mut self,
        handle: NodeHandle,
        wait_ms: u32,
        need_hit: bool,
    ) -> BpResult<()> {
        self.call.actionable(handle, wait_ms, need_hit).await
    }

    /// Arm settling for the action about to be sent (for `dom`, with the
    /// mutation observer put in place: one page call); then
    /// [`Tab::settle`] once it is (`browser/input/settle_after.rs`).
    pub async fn settle_arm(&mut self, mode: SettleMode) -> BpResult<()> {
        self.call.settle_arm_now(mode).await
    }

    /// Wait, at most `max_ms`, for what the armed action started: its
    /// requests (`network`) and a short DOM quiet.
    pub async fn settle(&mut self, max_ms: u32) -> BpResult<SettleReport> {
        self.call.settle_after_barrier(max_ms).await
    }

    /// A real mouse wheel turn at `at`, by `dx` and `dy` CSS pixels.
    pub async fn wheel(&mut self, at: Point, dx: f64, dy: f64) -> BpResult<()> {
        self.call.wheel(at, dx, dy).await
    }

    /// A real left click (press and release, trusted input) at `at`, in
    /// the top-level viewport's CSS pixels.
    pub async fn click_at(&mut self, at: Point) -> BpResult<()> {
        self.call.click(at, MouseButton::Left, 1).await
    }

    /// Press and release one key (a DOM `KeyboardEvent.key` name) at
    /// whatever has focus, with no modifier held.
    pub async fn press_key(&mut self, key: &str) -> BpResult<()> {
        self.call.press_key(key, Modifiers::default()).await
    }
}
