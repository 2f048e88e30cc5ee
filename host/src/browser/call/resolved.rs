//! A ref is revalidated when it is resolved, and that page call reads the
//! node's whole state (in the main frame, with the page facts) rather
//! than only whether it is still connected. An action's "before" read of
//! the same node usually comes next, with nothing sent in between: it is
//! answered from what was read, saving a round trip. Anything sent to the
//! browser since, another document, or an open dialog, and the node is
//! read again.
//!
//! The same read of a main-frame node also finds where a click would aim
//! when the node is wholly in view and its centre hits it. A click's aim
//! that follows with nothing sent in between is answered from it; a node
//! out of view, or covered, is aimed by its own page call (which scrolls).

use crate::browser::call::state::Resolved;
use crate::browser::call::TargetCall;
use crate::browser::js;
use crate::browser::types::{NodeHandle, Point};
use crate::error::BpResult;
use serde_json::{json, Value};

impl TargetCall {
    /// Read the node of a ref just made into `handle`: whether it is still
    /// connected. The state read is kept for the next read of the node.
    /// `held` is the node's object from the observation (`observe/held_refs.rs`),
    /// tried first; if the page no longer knows it, the node is resolved
    /// by its backend ID.
    pub(in crate::browser) async fn revalidate(
        &mut self,
        handle: NodeHandle,
        held: Option<String>,
    ) -> BpResult<bool> {
        if let Some(object) = held {
            self.set_object(handle, object);
            match self.revalidate_read(handle).await {
                Ok(connected) => {
                    self.registry.count_ref_resolved(true);
                    return Ok(connected);
                }
                Err(e) => {
                    tracing::debug!("held ref object unusable ({}); resolving", e.message);
                    self.clear_object(handle);
                }
            }
        }
        let connected = self.revalidate_read(handle).await?;
        self.registry.count_ref_resolved(false);
        Ok(connected)
    }

    async fn revalidate_read(&mut self, handle: NodeHandle) -> BpResult<bool> {
        let main = self.in_main_frame(handle);
        let function = if main {
            js::revalidate_main()
        } else {
            js::NODE_STATE.to_string()
        };
        let mut value = self.call_on(handle, &function, json!([]), true).await?["value"].take();
        let aim = match value.get_mut("aim").map(Value::take) {
            Some(a) => a["x"].as_f64().zip(a["y"].as_f64()),
            None => None,
        }
        .map(|(x, y)| Point { x, y });
        let pointerups = value.get("pointerups").and_then(Value::as_u64);
        if main {
            // `js::revalidate_main` (re)installed the settle observer.
            self.observer_installed();
        }
        let state = if main { &value["state"] } else { &value };
        let connected = state["connected"] == json!(true);
        let (doc, _, dialog_open, _) = self.doc();
        self.observe.resolved = (connected && !dialog_open).then(|| Resolved {
            handle,
            sent: self.cdp.commands_sent(),
            doc,
            value: Some(value),
            aim,
            pointerups,
        });
        Ok(connected)
    }

    /// The state [`TargetCall::revalidate`] read of `handle`, if nothing
    /// was sent to the browser since and the document is the same: the
    /// node's `NODE_STATE`, and the page facts for a main-frame node
    /// (`{state, facts}`). Taken once.
    pub(in crate::browser) fn take_resolved(&mut self, handle: NodeHandle) -> Option<Value> {
        self.current_resolved(handle)?.value.take()
    }

    /// Where [`TargetCall::revalidate`] found a click on `handle` would
    /// aim, under the same conditions as [`TargetCall::take_resolved`].
    /// Taken once.
    /// With it, the page's `pointerup` count as it was read.
    pub(in crate::browser) fn take_resolved_aim(
        &mut self,
        handle: NodeHandle,
    ) -> Option<(Point, Option<u64>)> {
        let resolved = self.current_resolved(handle)?;
        Some((resolved.aim.take()?, resolved.pointerups))
    }

    /// The last revalidation read, if it is still what the page shows;
    /// otherwise it is dropped.
    pub(in crate::browser) fn current_resolved(
        &mut self,
        handle: NodeHandle,
    ) -> Option<&mut Resolved> {
        let (doc, _, dialog_open, _) = self.doc();
        let sent = self.cdp.commands_sent();
        let current =
            self.observe.resolved.as_ref().is_some_and(|r| {
                r.handle == handle && r.sent == sent && r.doc == doc && !dialog_open
            });
        if !current {
            self.observe.resolved = None;
        }
        self.observe.resolved.as_mut()
    }
}
