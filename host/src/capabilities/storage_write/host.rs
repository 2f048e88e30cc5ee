//! The WIT `Host` impl of `storage-write`.

use super::change;
use crate::error::BpResult;
use crate::tab::TabView;
use crate::wit::storage_write;
use crate::wit::types::{StorageArea, StorageContents};

impl storage_write::Host for TabView<'_> {
    async fn set_item(
        &mut self,
        area: StorageArea,
        key: String,
        value: String,
    ) -> BpResult<StorageContents> {
        let tab = self.tab()?;
        change::set(tab, area, key, value).await
    }

    async fn clear(&mut self, area: StorageArea, key: Option<String>) -> BpResult<StorageContents> {
        let tab = self.tab()?;
        change::clear(tab, area, key).await
    }
}
