//! The WIT `Host` impl of `upload`.

use super::{chooser, files};
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
        let tab = self.settled().await?;
        files::set_files(tab, node, &artifact_ids)
            .await
            .map(Into::into)
    }

    async fn choose_files(
        &mut self,
        node: NodeHandle,
        artifact_ids: Vec<String>,
    ) -> BpResult<UploadReadback> {
        let tab = self.settled().await?;
        chooser::choose_files(tab, node, &artifact_ids)
            .await
            .map(Into::into)
    }
}
