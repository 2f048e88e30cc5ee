//! The WIT `Host` impl of `capture`.

use super::shot;
use crate::error::BpResult;
use crate::tab::TabView;
use crate::wit::capture::{self, Image, ScreenshotOptions};

impl capture::Host for TabView<'_> {
    async fn screenshot(&mut self, options: ScreenshotOptions) -> BpResult<Image> {
        let tab = self.settled().await?;
        shot::screenshot(tab, options.full_page)
            .await
            .map(Into::into)
    }

    async fn pdf(&mut self) -> BpResult<Vec<u8>> {
        shot::pdf(self.settled().await?).await
    }
}
