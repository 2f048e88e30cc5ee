//! The WIT `Host` impl of `artifacts`.

use super::{store, ArtifactsView};
use crate::error::BpResult;
use crate::wit::artifacts::{self, ArtifactRef, NewArtifact, UploadFile};

impl artifacts::Host for ArtifactsView<'_> {
    async fn create(&mut self, artifact: NewArtifact) -> BpResult<ArtifactRef> {
        store::create(self.workspace()?, artifact.into()).map(Into::into)
    }

    async fn lookup_upload(&mut self, artifact_id: String) -> BpResult<UploadFile> {
        store::upload_file(self.workspace()?, &artifact_id).map(Into::into)
    }
}
