//! The WIT `Host` impl of `cookies-write`.

use super::write;
use crate::error::BpResult;
use crate::tab::TabView;
use crate::wit::cookies_read::Cookie;
use crate::wit::cookies_write;
use crate::wit::typed::all;

impl cookies_write::Host for TabView<'_> {
    async fn set_cookies(&mut self, cookies: Vec<Cookie>) -> BpResult<u32> {
        write::set_cookies(self.settled().await?, all(cookies)).await
    }

    async fn clear_cookies(&mut self) -> BpResult<u32> {
        write::clear_cookies(self.settled().await?).await
    }
}
