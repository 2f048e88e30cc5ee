//! The tab's web storage, for the `storage-read` and `storage-write`
//! capabilities: the origin of the document it shows, and that origin's
//! local or session storage as the browser holds it.

use super::Tab;
use crate::error::BpResult;

impl Tab<'_> {
    /// The origin of the document the tab shows (`invalid_argument` for
    /// an opaque one: `about:blank`, `data:`).
    pub async fn storage_origin(&self) -> BpResult<String> {
        self.call.storage_origin().await
    }

    /// Every item of `origin`'s storage (`local`, else session), in key
    /// order.
    pub async fn storage_items(
        &self,
        origin: &str,
        local: bool,
    ) -> BpResult<Vec<(String, String)>> {
        self.call.storage_items(origin, local).await
    }

    /// Set `key` to `value` in `origin`'s storage.
    pub async fn storage_set(
        &self,
        origin: &str,
        local: bool,
        key: &str,
        value: &str,
    ) -> BpResult<()> {
        self.call.storage_set(origin, local, key, value).await
    }

    /// Remove `key`, or with none every key, from `origin`'s storage.
    pub async fn storage_remove(
        &self,
        origin: &str,
        local: bool,
        key: Option<&str>,
    ) -> BpResult<()> {
        self.call.storage_remove(origin, local, key).await
    }
}

/// The most items a read reports.
pub const MAX_ITEMS: usize = 500;
/// The longest value a read reports, in characters.
pub const MAX_VALUE_CHARS: usize = 8192;

/// One item as the storage capabilities report it.
#[derive(Debug, Clone, PartialEq)]
pub struct StorageItem {
    pub key: String,
    /// Cut to [`MAX_VALUE_CHARS`].
    pub value: String,
    /// The value was longer and has been cut.
    pub cut: bool,
}

/// The items of a read, bounded: the one `key` asked for (if present), or
/// the first [`MAX_ITEMS`] in key order; with the count of all keys.
pub fn bounded(items: Vec<(String, String)>, key: Option<&str>) -> (Vec<StorageItem>, u32) {
    let total = u32::try_from(items.len()).unwrap_or(u32::MAX);
    let picked = items
        .into_iter()
        .filter(|(k, _)| key.is_none_or(|want| want == k))
        .take(MAX_ITEMS)
        .map(|(key, value)| {
            let cut = value.chars().count() > MAX_VALUE_CHARS;
            let value = if cut {
                value.chars().take(MAX_VALUE_CHARS).collect()
            } else {
                value
            };
            StorageItem { key, value, cut }
        })
        .collect();
    (picked, total)
}
