//! Settling after input. A click or key press may start a navigation;
//! before anything else reads the page or acts on it, the call waits for
//! that navigation's load. A round trip through the page is the barrier:
//! navigations the input caused are reported before its reply.
//!
//! The barrier is not a call of its own where it need not be: a page read
//! right after the input (the "after" evidence of a click, the focus check
//! between typed keys) is the round trip, and it is read again only if a
//! load had to be waited for. Any other operation, and the end of the tool
//! call, settle first.

use crate::browser::call::wire::evaluate_by_value;
use crate::browser::call::TargetCall;
use crate::browser::types::{NodeHandle, NodeState, PageInfo};
use crate::error::BpResult;

impl TargetCall {
    /// Input was dispatched: settle before the next operation.
    pub(in crate::browser) fn defer_settle(&mut self) {
        self.input.unsettled = true;
    }

    /// Settle input dispatched earlier, if any: the barrier, then the load
    /// of a navigation it started.
    pub async fn settle_pending(&mut self) {
        if !std::mem::take(&mut self.input.unsettled) {
            return;
        }
        if self.doc().2 {
            return;
        }
        // Only the round trip counts: the reply is not read.
        let barrier = evaluate_by_value("0");
        let _ = self
            .cdp
            .send_timeout(
                &barrier,
                Some(&self.session),
                std::time::Duration::from_secs(2),
            )
            .await;
        self.load_after_input().await;
    }

    /// After the barrier: wait for the load of a main-frame navigation
    /// the input started. Whether it had to wait.
    pub(in crate::browser) async fn load_after_input(&self) -> bool {
        let (_, _, dialog_open, loading) = self.doc();
        if !loading || dialog_open {
            return false;
        }
        // A stalled load after an input is not an input failure.
        let _ = self.wait_loaded(None, None).await;
        true
    }

    /// The page and, when given, one node's state (see
    /// [`TargetCall::page_and_node_now`]); with input pending, the read is
    /// the barrier.
    pub async fn page_and_node(
        &mut self,
        handle: Option<NodeHandle>,
    ) -> BpResult<(PageInfo, Option<NodeState>)> {
        let pending = std::mem::take(&mut self.input.unsettled);
        let read = self.page_and_node_now(handle).await;
        if pending && self.load_after_input().await {
            return self.page_and_node_now(handle).await;
        }
        read
    }

    /// One node's state; with input pending, the read is the barrier.
    pub async fn read_node(&mut self, handle: NodeHandle) -> BpResult<NodeState> {
        let pending = std::mem::take(&mut self.input.unsettled);
        let read = self.read_node_now(handle).await;
        if pending && self.load_after_input().await {
            return self.read_node_now(handle).await;
        }
        read
    }
}
