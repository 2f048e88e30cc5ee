//! The tab's cookies as the browser holds them, read by both
//! `cookies-read` and `cookies-write` (which clears what it reads).

use super::Tab;
use crate::browser::types::Cookie;
use crate::error::BpResult;
use chromiumoxide::cdp::browser_protocol::network::GetCookiesParams;

impl Tab<'_> {
    /// The cookies for `urls` (the page's URL when empty).
    pub async fn cookies(&mut self, urls: Vec<String>) -> BpResult<Vec<Cookie>> {
        self.check()?;
        let urls = if urls.is_empty() {
            vec![self.page_url()]
        } else {
            urls
        };
        let read = GetCookiesParams { urls: Some(urls) };
        let reply = self.send(&read).await?;
        Ok(reply
            .cookies
            .into_iter()
            .map(|c| Cookie {
                expires: Some(c.expires).filter(|e| *e > 0.0),
                same_site: c.same_site.map(|s| s.as_ref().to_string()),
                name: c.name,
                value: c.value,
                domain: c.domain,
                path: c.path,
                http_only: c.http_only,
                secure: c.secure,
            })
            .collect())
    }
}
