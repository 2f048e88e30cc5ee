//! The WIT `Host` impl of `navigation`.

use crate::error::BpResult;
use crate::tab::TabView;
use crate::wit::navigation::{self, HistoryAction, NavResult};

impl navigation::Host for TabView<'_> {
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
