//! The WIT `Host` impl of `input`. Arming a settle takes the tab as it
//! is; everything else waits for input dispatched before to settle.

use crate::error::BpResult;
use crate::tab::TabView;
use crate::wit::input::{
    self, FoundElement, Hit, Modifiers, MouseButton, Point, SettleMode, SettleReport,
};
use crate::wit::page_read::{NodeHandle, NodeState};

impl input::Host for TabView<'_> {
    async fn actionable(&mut self, node: NodeHandle, wait_ms: u32) -> BpResult<()> {
        self.settled().await?.actionable(node, wait_ms, true).await
    }

    async fn settle_arm(&mut self, mode: SettleMode) -> BpResult<()> {
        self.tab()?.arm_settle(mode.into())
    }

    async fn settle(&mut self, max_ms: u32) -> BpResult<SettleReport> {
        let report = self.settled().await?.settle_after(max_ms).await;
        report.map(Into::into)
    }

    async fn element_at(&mut self, at: Point) -> BpResult<FoundElement> {
        let found = self.settled().await?.element_at(at.into()).await;
        found.map(Into::into)
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
        let tab = self.settled().await?;
        let focused = tab
            .focus_editable(&observation_id, r, select_all, wait_ms)
            .await;
        focused.map(|(handle, state, selected)| (handle, state.into(), selected))
    }

    async fn insert_text(&mut self, text: String) -> BpResult<()> {
        self.settled().await?.insert_text(&text).await
    }

    async fn press_key(&mut self, key: String, held: Modifiers) -> BpResult<()> {
        self.settled()
            .await?
            .press_key_with(&key, held.into())
            .await
    }
}
