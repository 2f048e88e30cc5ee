//! A ref is revalidated when it is resolved, and that page call reads the
//! node's whole state (in the main frame, with the page facts) rather
//! than only whether it is still connected. An action's "before" read of
//! the same node usually comes next, with nothing sent in between: it is
//! answered from what was read, saving a round trip. Anything sent to the
//! browser since, another document, or an open dialog, and the node is
//! read again.

use super::call::TargetCall;
use super::js;
use super::types::NodeHandle;
use crate::error::BpResult;
use serde_json::{json, Value};

/// What revalidating a ref read, and when.
pub(super) struct Resolved {
    handle: NodeHandle,
    /// Commands sent on the connection when the read was answered.
    sent: u64,
    /// The document generation it was read in.
    doc: u64,
    /// `NODE_STATE`, or `{state, facts}` for a node of the main frame.
    value: Value,
}

impl TargetCall {
    /// Read the node of a ref just made into `handle`: whether it is still
    /// connected. The state read is kept for the next read of the node.
    pub(super) async fn revalidate(&mut self, handle: NodeHandle) -> BpResult<bool> {
        let main = self
            .handle(handle)
            .is_ok_and(|h| h.frame.is_none() && h.session == self.session);
        let function = if main {
            js::node_and_page()
        } else {
            js::NODE_STATE.to_string()
        };
        let value = self.call_on(handle, &function, json!([]), true).await?["value"].take();
        let state = if main { &value["state"] } else { &value };
        let connected = state["connected"] == json!(true);
        let (doc, _, dialog_open, _) = self.doc();
        self.resolved = (connected && !dialog_open).then(|| Resolved {
            handle,
            sent: self.cdp.commands_sent(),
            doc,
            value,
        });
        Ok(connected)
    }

    /// The state [`TargetCall::revalidate`] read of `handle`, if nothing
    /// was sent to the browser since and the document is the same: the
    /// node's `NODE_STATE`, and the page facts for a main-frame node
    /// (`{state, facts}`). Taken once.
    pub(super) fn take_resolved(&mut self, handle: NodeHandle) -> Option<Value> {
        let r = self.resolved.take()?;
        let (doc, _, dialog_open, _) = self.doc();
        let current = r.handle == handle
            && r.sent == self.cdp.commands_sent()
            && r.doc == doc
            && !dialog_open;
        current.then_some(r.value)
    }
}
