//! Target capabilities: their imports reach the call's one checked tab
//! through a [`TargetView`]. Each operation re-checks lease, generation
//! and target in one place before touching the browser. Arguments and
//! results cross between WIT and domain types here (see `host/convert.rs`).

use crate::error::BpResult;
use crate::runtime::bindings::capture::{self, Image, ScreenshotOptions};
use crate::runtime::bindings::cookies_read::{self, Cookie};
use crate::runtime::bindings::input::{
    self, FoundElement, Hit, Modifiers, MouseButton, Point, SettleMode, SettleReport,
};
use crate::runtime::bindings::navigation::{self, HistoryAction, NavResult};
use crate::runtime::bindings::page_read::{
    self, AxSnapshot, FrameInfo, NodeHandle, NodeState, ObservedElement, PageInfo, PageText,
};
use crate::runtime::bindings::upload::{self, UploadReadback};
use crate::runtime::bindings::{cookies_write, script};
use crate::runtime::host::convert::all;
use crate::runtime::host::views::TargetView;

impl page_read::Host for TargetView<'_> {
    async fn active_element(&mut self) -> BpResult<String> {
        self.call()?.active_element().await
    }

    async fn frames(&mut self) -> BpResult<Vec<FrameInfo>> {
        self.settled().await?.list_frames().map(all)
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
        let call = self.settled().await?;
        call.interactive_nodes(&roles, limit, max_depth, max_nodes)
            .await
            .map(Into::into)
    }

    async fn page_and_node(
        &mut self,
        node: Option<NodeHandle>,
    ) -> BpResult<(PageInfo, Option<NodeState>)> {
        let read = self.call()?.page_and_node(node).await;
        read.map(|(info, node)| (info.into(), node.map(Into::into)))
    }

    async fn record_observation(&mut self, elements: Vec<ObservedElement>) -> BpResult<String> {
        self.settled().await?.record_observation(&all(elements))
    }

    async fn resolve_ref(&mut self, observation_id: String, r: u32) -> BpResult<NodeHandle> {
        self.settled().await?.resolve_ref(&observation_id, r).await
    }

    async fn read_node(&mut self, node: NodeHandle) -> BpResult<NodeState> {
        self.call()?.read_node(node).await.map(Into::into)
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

impl navigation::Host for TargetView<'_> {
    async fn goto(&mut self, url: String) -> BpResult<NavResult> {
        self.settled().await?.goto(&url).await.map(Into::into)
    }

    async fn history(&mut self, action: HistoryAction) -> BpResult<NavResult> {
        self.settled()
            .await?
            .history(action.into())
            .await
            .map(Into::into)
    }

    async fn select_frame(&mut self, frame_id: Option<String>) -> BpResult<String> {
        self.settled().await?.select_frame(frame_id.as_deref())
    }
}

impl capture::Host for TargetView<'_> {
    async fn screenshot(&mut self, options: ScreenshotOptions) -> BpResult<Image> {
        self.settled()
            .await?
            .screenshot(options.full_page)
            .await
            .map(Into::into)
    }

    async fn pdf(&mut self) -> BpResult<Vec<u8>> {
        self.settled().await?.pdf().await
    }
}

impl upload::Host for TargetView<'_> {
    async fn set_files(
        &mut self,
        node: NodeHandle,
        artifact_ids: Vec<String>,
    ) -> BpResult<UploadReadback> {
        self.settled()
            .await?
            .set_files(node, &artifact_ids)
            .await
            .map(Into::into)
    }

    async fn choose_files(
        &mut self,
        node: NodeHandle,
        artifact_ids: Vec<String>,
    ) -> BpResult<UploadReadback> {
        self.settled()
            .await?
            .choose_files(node, &artifact_ids)
            .await
            .map(Into::into)
    }
}

impl cookies_read::Host for TargetView<'_> {
    async fn get_cookies(&mut self, urls: Vec<String>) -> BpResult<Vec<Cookie>> {
        self.settled().await?.get_cookies(urls).await.map(all)
    }
}

impl cookies_write::Host for TargetView<'_> {
    async fn set_cookies(&mut self, cookies: Vec<Cookie>) -> BpResult<u32> {
        self.settled().await?.set_cookies(all(cookies)).await
    }

    async fn clear_cookies(&mut self) -> BpResult<u32> {
        self.settled().await?.clear_cookies().await
    }
}

impl script::Host for TargetView<'_> {
    async fn evaluate(&mut self, expression: String) -> BpResult<String> {
        self.settled().await?.evaluate(&expression).await
    }
}

impl input::Host for TargetView<'_> {
    async fn actionable(&mut self, node: NodeHandle, wait_ms: u32) -> BpResult<()> {
        self.settled().await?.actionable(node, wait_ms, true).await
    }

    async fn settle_arm(&mut self, mode: SettleMode) -> BpResult<()> {
        use crate::browser::types::SettleMode as M;
        let mode = match mode {
            SettleMode::None => M::None,
            SettleMode::Dom => M::Dom,
            SettleMode::Network => M::Network,
        };
        self.call()?.settle_arm(mode)
    }

    async fn settle(&mut self, max_ms: u32) -> BpResult<SettleReport> {
        let report = self.settled().await?.settle_after(max_ms).await;
        report.map(|r| SettleReport {
            settled: r.settled,
            requests: r.requests,
            waited_ms: r.waited_ms,
        })
    }

    async fn element_at(&mut self, at: Point) -> BpResult<FoundElement> {
        let found = self.settled().await?.element_at(at.into()).await;
        found.map(|f| FoundElement {
            role: f.role,
            name: f.name,
            tag: f.tag,
        })
    }

    async fn scroll_into_view(&mut self, node: NodeHandle) -> BpResult<()> {
        self.settled().await?.scroll_into_view(node).await
    }

    async fn box_center(&mut self, node: NodeHandle) -> BpResult<Point> {
        self.settled().await?.box_center(node).await.map(Into::into)
    }

    async fn hit_test(&mut self, node: NodeHandle, at: Point) -> BpResult<Hit> {
        self.settled()
            .await?
            .hit_test(node, at.into())
            .await
            .map(Into::into)
    }

    async fn aim(&mut self, node: NodeHandle) -> BpResult<(Point, Hit)> {
        let aimed = self.settled().await?.aim(node).await;
        aimed.map(|(at, hit)| (at.into(), hit.into()))
    }

    async fn click(&mut self, at: Point, button: MouseButton, click_count: u32) -> BpResult<()> {
        self.settled()
            .await?
            .click(at.into(), button.into(), click_count)
            .await
    }

    async fn dom_click(&mut self, node: NodeHandle) -> BpResult<()> {
        self.settled().await?.dom_click(node).await
    }

    async fn focus(&mut self, node: NodeHandle) -> BpResult<()> {
        self.settled().await?.focus(node).await
    }

    async fn focus_editable(
        &mut self,
        observation_id: String,
        r: u32,
        select_all: bool,
        wait_ms: u32,
    ) -> BpResult<(NodeHandle, NodeState, bool)> {
        let call = self.settled().await?;
        let focused = call
            .focus_editable(&observation_id, r, select_all, wait_ms)
            .await;
        focused.map(|(handle, state, selected)| (handle, state.into(), selected))
    }

    async fn insert_text(&mut self, text: String) -> BpResult<()> {
        self.settled().await?.insert_text(&text).await
    }

    async fn press_key(&mut self, key: String, held: Modifiers) -> BpResult<()> {
        self.settled().await?.press_key(&key, held.into()).await
    }
}
