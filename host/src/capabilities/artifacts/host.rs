//! The WIT `Host` impl of `artifacts`.

use super::ArtifactsView;
use crate::error::BpResult;
use crate::wit::artifacts::{self, ArtifactRef, NewArtifact, UploadFile};

impl artifacts::Host for ArtifactsView<'_> {
    async fn create(&mut self, artifact: NewArtifact) -> BpResult<ArtifactRef> {
        self.workspace()?
            .create_artifact(artifact.into())
            .map(Into::into)
    }

    async fn lookup_upload(&mut self, artifact_id: String) -> BpResult<UploadFile> {
        self.workspace()?.upload_file(&artifact_id).map(Into::into)
    }
}
