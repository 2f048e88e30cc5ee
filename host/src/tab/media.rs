//! The tab's captures and file inputs, for the `capture` and `upload`
//! capabilities.

use super::Tab;
use crate::browser::types::{Image, NodeHandle, UploadReadback};
use crate::error::BpResult;

impl Tab<'_> {
    /// A PNG of the viewport, or of the whole page.
    pub async fn screenshot(&mut self, full_page: bool) -> BpResult<Image> {
        self.call.screenshot(full_page).await
    }

    /// The page printed to PDF.
    pub async fn pdf(&mut self) -> BpResult<Vec<u8>> {
        self.call.pdf().await
    }

    /// Set the files of upload artifacts `ids` on a file input node.
    pub async fn set_files(
        &mut self,
        node: NodeHandle,
        ids: &[String],
    ) -> BpResult<UploadReadback> {
        self.call.set_files(node, ids).await
    }

    /// Click the node and answer the file chooser it opens.
    pub async fn choose_files(
        &mut self,
        node: NodeHandle,
        ids: &[String],
    ) -> BpResult<UploadReadback> {
        self.call.choose_files(node, ids).await
    }
}
