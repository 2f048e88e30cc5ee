//! The tab's cookies and scripts, for the `cookies-read`, `cookies-write`
//! and `script` capabilities.

use super::Tab;
use crate::browser::types::Cookie;
use crate::error::BpResult;

impl Tab<'_> {
    /// The cookies for `urls` (the page's URL when empty).
    pub async fn get_cookies(&mut self, urls: Vec<String>) -> BpResult<Vec<Cookie>> {
        self.call.get_cookies(urls).await
    }

    /// Set cookies (for the page's URL where no domain is given); how many.
    pub async fn set_cookies(&mut self, cookies: Vec<Cookie>) -> BpResult<u32> {
        self.call.set_cookies(cookies).await
    }

    /// Delete the page's cookies; how many.
    pub async fn clear_cookies(&mut self) -> BpResult<u32> {
        self.call.clear_cookies().await
    }

    /// Evaluate a script in the page (a user gesture, promises awaited);
    /// its value as JSON text.
    pub async fn run_script(&mut self, expression: &str) -> BpResult<String> {
        self.call.evaluate(expression).await
    }
}
