//! The tab's navigation, for the `navigation` capability.

use super::Tab;
use crate::browser::types::{HistoryAction, NavResult};
use crate::error::BpResult;

impl Tab<'_> {
    /// Navigate to `url` and wait for the load.
    pub async fn goto(&mut self, url: &str) -> BpResult<NavResult> {
        self.call.goto(url).await
    }

    /// Back, forward or reload.
    pub async fn history(&mut self, action: HistoryAction) -> BpResult<NavResult> {
        self.call.history(action).await
    }

    /// Start the calling workspace's observations at a frame (or the main
    /// frame); the frame's public ID.
    pub fn select_frame(&mut self, frame_id: Option<&str>) -> BpResult<String> {
        self.call.select_frame(frame_id)
    }
}
