//! A bounded read of the tab's storage, as WIT reports it.

use crate::error::BpResult;
use crate::tab::{bounded, Tab};
use crate::wit::types::{StorageArea, StorageContents, StorageItem};

/// Whether `area` is `localStorage`.
pub fn is_local(area: StorageArea) -> bool {
    matches!(area, StorageArea::Local)
}

/// `items` of `origin`, bounded, for one `key` or all.
pub fn contents(
    origin: String,
    items: Vec<(String, String)>,
    key: Option<&str>,
) -> StorageContents {
    let (items, total) = bounded(items, key);
    StorageContents {
        origin,
        items: items
            .into_iter()
            .map(|i| StorageItem {
                key: i.key,
                value: i.value,
                value_cut: i.cut,
            })
            .collect(),
        total,
    }
}

/// Read `area` of the tab's origin.
pub async fn get(
    tab: &mut Tab<'_>,
    area: StorageArea,
    key: Option<String>,
) -> BpResult<StorageContents> {
    let origin = tab.storage_origin().await?;
    let items = tab.storage_items(&origin, is_local(area)).await?;
    Ok(contents(origin, items, key.as_deref()))
}
