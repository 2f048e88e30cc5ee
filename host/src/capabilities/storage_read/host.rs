//! The WIT `Host` impl of `storage-read`.

use super::read;
use crate::error::BpResult;
use crate::tab::TabView;
use crate::wit::storage_read;
use crate::wit::types::{StorageArea, StorageContents};

impl storage_read::Host for TabView<'_> {
    async fn get_items(
        &mut self,
        area: StorageArea,
        key: Option<String>,
    ) -> BpResult<StorageContents> {
        let tab = self.tab()?;
        read::get(tab, area, key).await
    }
}
