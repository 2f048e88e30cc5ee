//! Target capabilities: their imports reach the call's one checked tab
//! through a [`TargetView`]. Each operation re-checks lease, generation
//! and target in one place before touching the browser. Arguments and
//! results cross between WIT and domain types here (see `host/convert.rs`).

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
use crate::runtime::host::{typed, Res};

impl page_read::Host for TargetView<'_> {
    async fn active_element(&mut self) -> Res<String> {
        typed(self.call()?.active_element().await)
    }

    async fn frames(&mut self) -> Res<Vec<FrameInfo>> {
        typed(self.settled().await?.list_frames().map(all))
    }

    async fn current_page(&mut self) -> Res<PageInfo> {
        typed(self.settled().await?.current_page().await.map(Into::into))
    }

    async fn document_state(&mut self) -> Res<(u64, bool)> {
        typed(self.settled().await?.document_state())
    }

    async fn accessibility_tree(&mut self, max_depth: u32, max_nodes: u32) -> Res<AxSnapshot> {
        typed(
            self.settled()
                .await?
                .accessibility_tree(max_depth, max_nodes)
                .await
                .map(Into::into),
        )
    }

    async fn interactive_nodes(
        &mut self,
        roles: Vec<String>,
        limit: u32,
        max_depth: u32,
        max_nodes: u32,
    ) -> Res<AxSnapshot> {
        let call = self.settled().await?;
        typed(
            call.interactive_nodes(&roles, limit, max_depth, max_nodes)
                .await
                .map(Into::into),
        )
    }

    async fn page_and_node(
        &mut self,
        node: Option<NodeHandle>,
    ) -> Res<(PageInfo, Option<NodeState>)> {
        let read = self.call()?.page_and_node(node).await;
        typed(read.map(|(info, node)| (info.into(), node.map(Into::into))))
    }

    async fn record_observation(&mut self, elements: Vec<ObservedElement>) -> Res<String> {
        typed(self.settled().await?.record_observation(&all(elements)))
    }

    async fn resolve_ref(&mut self, observation_id: String, r: u32) -> Res<NodeHandle> {
        typed(self.settled().await?.resolve_ref(&observation_id, r).await)
    }

    async fn read_node(&mut self, node: NodeHandle) -> Res<NodeState> {
        typed(self.call()?.read_node(node).await.map(Into::into))
    }

    async fn text(
        &mut self,
        node: Option<NodeHandle>,
        max_chars: u32,
        include_hidden: bool,
    ) -> Res<PageText> {
        typed(
            self.settled()
                .await?
                .text(node, max_chars, include_hidden)
                .await
                .map(Into::into),
        )
    }
}

impl navigation::Host for TargetView<'_> {
    async fn goto(&mut self, url: String) -> Res<NavResult> {
        typed(self.settled().await?.goto(&url).await.map(Into::into))
    }

    async fn history(&mut self, action: HistoryAction) -> Res<NavResult> {
        typed(
            self.settled()
                .await?
                .history(action.into())
                .await
                .map(Into::into),
        )
    }

    async fn select_frame(&mut self, frame_id: Option<String>) -> Res<String> {
        typed(self.settled().await?.select_frame(frame_id.as_deref()))
    }
}

impl capture::Host for TargetView<'_> {
    async fn screenshot(&mut self, options: ScreenshotOptions) -> Res<Image> {
        typed(
            self.settled()
                .await?
                .screenshot(options.full_page)
                .await
                .map(Into::into),
        )
    }

    async fn pdf(&mut self) -> Res<Vec<u8>> {
        typed(self.settled().await?.pdf().await)
    }
}

impl upload::Host for TargetView<'_> {
    async fn set_files(
        &mut self,
        node: NodeHandle,
        artifact_ids: Vec<String>,
    ) -> Res<UploadReadback> {
        typed(
            self.settled()
                .await?
                .set_files(node, &artifact_ids)
                .await
                .map(Into::into),
        )
    }
}

impl cookies_read::Host for TargetView<'_> {
    async fn get_cookies(&mut self, urls: Vec<String>) -> Res<Vec<Cookie>> {
        typed(self.settled().await?.get_cookies(urls).await.map(all))
    }
}

impl cookies_write::Host for TargetView<'_> {
    async fn set_cookies(&mut self, cookies: Vec<Cookie>) -> Res<u32> {
        typed(self.settled().await?.set_cookies(all(cookies)).await)
    }

    async fn clear_cookies(&mut self) -> Res<u32> {
        typed(self.settled().await?.clear_cookies().await)
    }
}

impl script::Host for TargetView<'_> {
    async fn evaluate(&mut self, expression: String) -> Res<String> {
        typed(self.settled().await?.evaluate(&expression).await)
    }
}

impl input::Host for TargetView<'_> {
    async fn actionable(&mut self, node: NodeHandle, wait_ms: u32) -> Res<()> {
        typed(self.settled().await?.actionable(node, wait_ms, true).await)
    }

    async fn settle_arm(&mut self, mode: SettleMode) -> Res<()> {
        use crate::browser::types::SettleMode as M;
        let mode = match mode {
            SettleMode::None => M::None,
            SettleMode::Dom => M::Dom,
            SettleMode::Network => M::Network,
        };
        typed(self.call()?.settle_arm(mode))
    }

    async fn settle(&mut self, max_ms: u32) -> Res<SettleReport> {
        let report = self.settled().await?.settle_after(max_ms).await;
        typed(report.map(|r| SettleReport {
            settled: r.settled,
            requests: r.requests,
            waited_ms: r.waited_ms,
        }))
    }

    async fn element_at(&mut self, at: Point) -> Res<FoundElement> {
        let found = self.settled().await?.element_at(at.into()).await;
        typed(found.map(|f| FoundElement {
            role: f.role,
            name: f.name,
            tag: f.tag,
        }))
    }

    async fn scroll_into_view(&mut self, node: NodeHandle) -> Res<()> {
        typed(self.settled().await?.scroll_into_view(node).await)
    }

    async fn box_center(&mut self, node: NodeHandle) -> Res<Point> {
        typed(self.settled().await?.box_center(node).await.map(Into::into))
    }

    async fn hit_test(&mut self, node: NodeHandle, at: Point) -> Res<Hit> {
        typed(
            self.settled()
                .await?
                .hit_test(node, at.into())
                .await
                .map(Into::into),
        )
    }

    async fn aim(&mut self, node: NodeHandle) -> Res<(Point, Hit)> {
        let aimed = self.settled().await?.aim(node).await;
        typed(aimed.map(|(at, hit)| (at.into(), hit.into())))
    }

    async fn click(&mut self, at: Point, button: MouseButton, click_count: u32) -> Res<()> {
        typed(
            self.settled()
                .await?
                .click(at.into(), button.into(), click_count)
                .await,
        )
    }

    async fn dom_click(&mut self, node: NodeHandle) -> Res<()> {
        typed(self.settled().await?.dom_click(node).await)
    }

    async fn focus(&mut self, node: NodeHandle) -> Res<()> {
        typed(self.settled().await?.focus(node).await)
    }

    async fn focus_editable(
        &mut self,
        observation_id: String,
        r: u32,
        select_all: bool,
        wait_ms: u32,
    ) -> Res<(NodeHandle, NodeState, bool)> {
        let call = self.settled().await?;
        let focused = call
            .focus_editable(&observation_id, r, select_all, wait_ms)
            .await;
        typed(focused.map(|(handle, state, selected)| (handle, state.into(), selected)))
    }

    async fn insert_text(&mut self, text: String) -> Res<()> {
        typed(self.settled().await?.insert_text(&text).await)
    }

    async fn press_key(&mut self, key: String, held: Modifiers) -> Res<()> {
        typed(self.settled().await?.press_key(&key, held.into()).await)
    }
}
