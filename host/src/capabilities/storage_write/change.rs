//! A change of the tab's storage, then the storage read back: the change
//! must show there, or the call fails `action_not_verified`.

use crate::error::{BpError, BpResult, Code};
use crate::tab::{bounded, Tab};
use crate::wit::types::{StorageArea, StorageContents, StorageItem};
use serde_json::json;

fn is_local(area: StorageArea) -> bool {
    matches!(area, StorageArea::Local)
}

/// What a read back reports, bounded, for one `key` or all.
pub fn contents(
    origin: String,
    items: Vec<(String, String)>,
    key: Option<&str>,
) -> StorageContents {
    let (items, total) = bounded(items, key);
    let items = items
        .into_iter()
        .map(|i| StorageItem {
            key: i.key,
            value: i.value,
            value_cut: i.cut,
        })
        .collect();
    StorageContents {
        origin,
        items,
        total,
    }
}

/// Whether the read back `items` show `key` set to `value` (`Some`) or
/// absent (`None`); with no key, whether the storage is empty.
pub fn shows(items: &[(String, String)], key: Option<&str>, value: Option<&str>) -> bool {
    match key {
        None => items.is_empty(),
        Some(k) => {
            items
                .iter()
                .find(|(ik, _)| ik == k)
                .map(|(_, v)| v.as_str())
                == value
        }
    }
}

fn not_shown(what: &str) -> BpError {
    BpError::new(
        Code::ActionNotVerified,
        format!("the browser's storage does not show the {what}"),
    )
    .with_context(json!({"reason": "storage_not_changed"}))
}

/// Set `key` to `value`, then read it back.
pub async fn set(
    tab: &mut Tab<'_>,
    area: StorageArea,
    key: String,
    value: String,
) -> BpResult<StorageContents> {
    let origin = tab.storage_origin().await?;
    let local = is_local(area);
    tab.storage_set(&origin, local, &key, &value).await?;
    let items = tab.storage_items(&origin, local).await?;
    if !shows(&items, Some(&key), Some(&value)) {
        return Err(not_shown("value set"));
    }
    Ok(contents(origin, items, Some(&key)))
}

/// Remove `key` (or every key), then read the storage back.
pub async fn clear(
    tab: &mut Tab<'_>,
    area: StorageArea,
    key: Option<String>,
) -> BpResult<StorageContents> {
    let origin = tab.storage_origin().await?;
    let local = is_local(area);
    tab.storage_remove(&origin, local, key.as_deref()).await?;
    let items = tab.storage_items(&origin, local).await?;
    if !shows(&items, key.as_deref(), None) {
        return Err(not_shown("removal"));
    }
    Ok(contents(origin, items, key.as_deref()))
}
