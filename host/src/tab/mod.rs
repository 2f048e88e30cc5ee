//! The tab: what the capabilities of one call share of its target, and
//! nothing more. A capability gets a [`Tab`] from its view, never the
//! whole call: it can ask the page (checked against the call's lease,
//! connection generation, target and session first), read the document
//! state the broker keeps, and act on the node handles the call resolved.
//! Per-capability state stays in the capability's own folder.
//!
//! The tab layer imports the browser layer below it and never the runtime
//! or the broker (checked by the layering test).

mod emulation;
mod pointer;
mod view;
pub use view::{TabScope, TabView};

use crate::browser::call::TargetCall;
use crate::browser::types::{NodeHandle, Point};
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

    /// Bring the node of `handle` into view if it is not, and return the
    /// centre of its box in the top-level viewport.
    pub async fn center_of(&mut self, handle: NodeHandle) -> BpResult<Point> {
        self.call.scroll_into_view(handle).await?;
        self.call.box_center(handle).await
    }

    /// A real mouse wheel turn at `at`, by `dx` and `dy` CSS pixels.
    pub async fn wheel(&mut self, at: Point, dx: f64, dy: f64) -> BpResult<()> {
        self.call.wheel(at, dx, dy).await
    }
}
