//! Web storage of a [`TargetCall`]'s document (`crate::browser::dom_storage`
//! on the tab's own session), for the `storage-read` and `storage-write`
//! capabilities through the tab façade (`crate::tab`).

use crate::browser::call::TargetCall;
use crate::browser::dom_storage;
use crate::error::BpResult;

impl TargetCall {
    /// The origin of the document the tab shows; an opaque one is
    /// refused `invalid_argument`.
    pub async fn storage_origin(&self) -> BpResult<String> {
        self.check()?;
        let url = self.current_page().await?.url;
        dom_storage::origin_of(&url).ok_or_else(|| dom_storage::opaque(&url))
    }

    /// Every item of `origin`'s local or session storage, in key order.
    pub async fn storage_items(
        &self,
        origin: &str,
        local: bool,
    ) -> BpResult<Vec<(String, String)>> {
        self.check()?;
        dom_storage::read(&self.cdp, &self.session, origin, local).await
    }

    /// Set `key` to `value`.
    pub async fn storage_set(
        &self,
        origin: &str,
        local: bool,
        key: &str,
        value: &str,
    ) -> BpResult<()> {
        self.check()?;
        self.mark_dispatched();
        dom_storage::set(&self.cdp, &self.session, origin, local, key, value).await
    }

    /// Remove `key`, or with none every key.
    pub async fn storage_remove(
        &self,
        origin: &str,
        local: bool,
        key: Option<&str>,
    ) -> BpResult<()> {
        self.check()?;
        self.mark_dispatched();
        dom_storage::remove(&self.cdp, &self.session, origin, local, key).await
    }
}
