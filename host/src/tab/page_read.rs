//! The tab's reads, for the `page-read` capability: the page and its
//! frames, the accessibility tree and the interactive nodes, observations
//! and their refs, one node's state, and the page's text.

use super::Tab;
use crate::browser::types::{
    AxSnapshot, FrameInfo, NodeHandle, NodeState, ObservedElement, PageInfo, PageText,
};
use crate::error::BpResult;

impl Tab<'_> {
    /// An opaque identity of the deep composed active element.
    pub async fn active_element(&mut self) -> BpResult<String> {
        self.call.active_element().await
    }

    /// The tab's frames, main frame first.
    pub fn frames(&self) -> BpResult<Vec<FrameInfo>> {
        self.call.list_frames()
    }

    /// URL, title, document generation and whether a dialog is open.
    pub async fn current_page(&self) -> BpResult<PageInfo> {
        self.call.current_page().await
    }

    /// The document generation and whether a dialog is open, from the
    /// broker's own state, as the call keeps it.
    pub fn document_state(&self) -> BpResult<(u64, bool)> {
        self.call.document_state()
    }

    /// The non-ignored accessibility nodes, bounded.
    pub async fn accessibility_tree(
        &mut self,
        max_depth: u32,
        max_nodes: u32,
    ) -> BpResult<AxSnapshot> {
        self.call.accessibility_tree(max_depth, max_nodes).await
    }

    /// The first `limit` + 1 nodes whose role is in `roles`.
    pub async fn interactive_nodes(
        &mut self,
        roles: &[String],
        limit: u32,
        max_depth: u32,
        max_nodes: u32,
    ) -> BpResult<AxSnapshot> {
        let call = &mut *self.call;
        call.interactive_nodes(roles, limit, max_depth, max_nodes)
            .await
    }

    /// The page and, if it can be read, one node's state.
    pub async fn page_and_node(
        &mut self,
        node: Option<NodeHandle>,
    ) -> BpResult<(PageInfo, Option<NodeState>)> {
        self.call.page_and_node(node).await
    }

    /// Store `(ref, handle)` pairs as an observation; its ID.
    pub fn record_observation(&mut self, elements: &[ObservedElement]) -> BpResult<String> {
        self.call.record_observation(elements)
    }

    /// The same live node of an observation's ref again, or stale.
    pub async fn resolve_ref(&mut self, observation_id: &str, r: u32) -> BpResult<NodeHandle> {
        self.call.resolve_ref(observation_id, r).await
    }

    /// One element's live state.
    pub async fn read_node(&mut self, node: NodeHandle) -> BpResult<NodeState> {
        self.call.read_node(node).await
    }

    /// Text of one node or of the document, cut to `max_chars`.
    pub async fn text(
        &mut self,
        node: Option<NodeHandle>,
        max_chars: u32,
        include_hidden: bool,
    ) -> BpResult<PageText> {
        self.call.text(node, max_chars, include_hidden).await
    }
}
