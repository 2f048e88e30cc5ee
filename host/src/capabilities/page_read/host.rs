//! The WIT `Host` impl of `page-read`. Reads that can serve as the
//! barrier after input (`active-element`, `page-and-node`, `read-node`)
//! take the tab as it is; the others wait for pending input to settle.

use crate::error::BpResult;
use crate::tab::TabView;
use crate::wit::page_read::{
    self, AxSnapshot, FrameInfo, NodeHandle, NodeState, ObservedElement, PageInfo, PageText,
};
use crate::wit::typed::all;

impl page_read::Host for TabView<'_> {
    async fn active_element(&mut self) -> BpResult<String> {
        self.tab()?.active_element().await
    }

    async fn frames(&mut self) -> BpResult<Vec<FrameInfo>> {
        self.settled().await?.frames().map(all)
    }

    async fn current_page(&mut self) -> BpResult<PageInfo> {
        self.settled().await?.current_page().await.map(Into::into)
    }

    async fn document_state(&mut self) -> BpResult<(u64, bool)> {
        self.settled().await?.document_state()
    }

    async fn accessibility_tree(&mut self, max_depth: u32, max_nodes: u32) -> BpResult<AxSnapshot> {
        self.settled()
            .await?
            .accessibility_tree(max_depth, max_nodes)
            .await
            .map(Into::into)
    }

    async fn interactive_nodes(
        &mut self,
        roles: Vec<String>,
        limit: u32,
        max_depth: u32,
        max_nodes: u32,
    ) -> BpResult<AxSnapshot> {
        let tab = self.settled().await?;
        tab.interactive_nodes(&roles, limit, max_depth, max_nodes)
            .await
            .map(Into::into)
    }

    async fn page_and_node(
        &mut self,
        node: Option<NodeHandle>,
    ) -> BpResult<(PageInfo, Option<NodeState>)> {
        let read = self.tab()?.page_and_node(node).await;
        read.map(|(info, node)| (info.into(), node.map(Into::into)))
    }

    async fn record_observation(&mut self, elements: Vec<ObservedElement>) -> BpResult<String> {
        self.settled().await?.record_observation(&all(elements))
    }

    async fn resolve_ref(&mut self, observation_id: String, r: u32) -> BpResult<NodeHandle> {
        self.settled().await?.resolve_ref(&observation_id, r).await
    }

    async fn read_node(&mut self, node: NodeHandle) -> BpResult<NodeState> {
        self.tab()?.read_node(node).await.map(Into::into)
    }

    async fn text(
        &mut self,
        node: Option<NodeHandle>,
        max_chars: u32,
        include_hidden: bool,
    ) -> BpResult<PageText> {
        self.settled()
            .await?
            .text(node, max_chars, include_hidden)
            .await
            .map(Into::into)
    }
}
