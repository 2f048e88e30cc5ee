//! The tab's input, for the `input` capability: settling, hit tests,
//! clicks, focus, typing and keys (the aim and the box are shared with
//! `pointer`, in `pointer.rs`).

use super::Tab;
use crate::browser::types::{ElementAt, Hit, Modifiers, MouseButton};
use crate::browser::types::{NodeHandle, NodeState, Point, SettleMode, SettleReport};
use crate::error::BpResult;

impl Tab<'_> {
    /// Arm settling for the action about to be sent (put in place when the
    /// action goes out; see `browser/input/settle_after.rs`).
    pub fn arm_settle(&mut self, mode: SettleMode) -> BpResult<()> {
        self.call.settle_arm(mode)
    }

    /// Wait, at most `max_ms`, for what the armed action started.
    pub async fn settle_after(&mut self, max_ms: u32) -> BpResult<SettleReport> {
        self.call.settle_after(max_ms).await
    }

    /// The element at a point of the top-level viewport.
    pub async fn element_at(&mut self, at: Point) -> BpResult<ElementAt> {
        self.call.element_at(at).await
    }

    /// Whether a pointer at `at` would reach the node of `handle`.
    pub async fn hit_test(&mut self, handle: NodeHandle, at: Point) -> BpResult<Hit> {
        self.call.hit_test(handle, at).await
    }

    /// A real click of `button`, `count` times, at `at`.
    pub async fn click(&mut self, at: Point, button: MouseButton, count: u32) -> BpResult<()> {
        self.call.click(at, button, count).await
    }

    /// A DOM `click()` on the node.
    pub async fn dom_click(&mut self, handle: NodeHandle) -> BpResult<()> {
        self.call.dom_click(handle).await
    }

    /// Focus the node.
    pub async fn focus(&mut self, handle: NodeHandle) -> BpResult<()> {
        self.call.focus(handle).await
    }

    /// Resolve a ref to an editable node and focus it (selecting its text
    /// with `select_all`); its handle, its state and whether it selected.
    pub async fn focus_editable(
        &mut self,
        observation_id: &str,
        r: u32,
        select_all: bool,
        wait_ms: u32,
    ) -> BpResult<(NodeHandle, NodeState, bool)> {
        let call = &mut *self.call;
        call.focus_editable(observation_id, r, select_all, wait_ms)
            .await
    }

    /// Insert text at the focus, as typing does.
    pub async fn insert_text(&mut self, text: &str) -> BpResult<()> {
        self.call.insert_text(text).await
    }

    /// Press and release one key with `held` modifiers.
    pub async fn press_key_with(&mut self, key: &str, held: Modifiers) -> BpResult<()> {
        self.call.press_key(key, held).await
    }
}
