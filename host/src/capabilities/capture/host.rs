//! The WIT `Host` impl of `capture`.

use crate::error::BpResult;
use crate::tab::TabView;
use crate::wit::capture::{self, Image, ScreenshotOptions};

impl capture::Host for TabView<'_> {
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
