//! The WIT `Host` impl of `tabs-manage`.

use super::TabsManageView;
use crate::error::BpResult;
use crate::wit::tabs_manage::{self, TabInfo};

impl tabs_manage::Host for TabsManageView<'_> {
    async fn open(&mut self, url: Option<String>) -> BpResult<TabInfo> {
        let tabs = self.workspace()?.tabs();
        tabs.open(url).await.map(Into::into)
    }

    async fn close(&mut self, target_id: String) -> BpResult<Vec<String>> {
        let tabs = self.workspace()?.tabs();
        tabs.close(target_id).await
    }

    async fn close_managed(&mut self) -> BpResult<Vec<String>> {
        let tabs = self.workspace()?.tabs();
        tabs.close_managed().await
    }
}
