//! The WIT `Host` impl of `upload`.

use crate::error::BpResult;
use crate::tab::TabView;
use crate::wit::page_read::NodeHandle;
use crate::wit::upload::{self, UploadReadback};

impl upload::Host for TabView<'_> {
    async fn set_files(
        &mut self,
        node: NodeHandle,
        artifact_ids: Vec<String>,
    ) -> BpResult<UploadReadback> {
        self.settled()
            .await?
            .set_files(node, &artifact_ids)
            .await
            .map(Into::into)
    }

    async fn choose_files(
        &mut self,
        node: NodeHandle,
        artifact_ids: Vec<String>,
    ) -> BpResult<UploadReadback> {
        self.settled()
            .await?
            .choose_files(node, &artifact_ids)
            .await
            .map(Into::into)
    }
}
