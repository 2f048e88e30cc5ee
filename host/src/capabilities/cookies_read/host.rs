//! The WIT `Host` impl of `cookies-read`.

use crate::error::BpResult;
use crate::tab::TabView;
use crate::wit::cookies_read::{self, Cookie};
use crate::wit::typed::all;

impl cookies_read::Host for TabView<'_> {
    async fn get_cookies(&mut self, urls: Vec<String>) -> BpResult<Vec<Cookie>> {
        self.settled().await?.cookies(urls).await.map(all)
    }
}
