//! The artifact operations of the calling workspace: keep a capture
//! (PNG or PDF only) as an artifact, and read an upload artifact's
//! metadata. Artifacts belong to the workspace: neither needs a tab.

use crate::browser::types::{ArtifactRef, NewArtifact, UploadFile};
use crate::browser::workspace::WorkspaceCall;
use crate::error::{BpError, BpResult};
use crate::store::artifacts::NewArtifact as StoredArtifact;

/// The only kinds of file a capture may be kept as.
pub(super) fn check_mime(mime: &str) -> BpResult<()> {
    if matches!(mime, "image/png" | "application/pdf") {
        Ok(())
    } else {
        Err(BpError::invalid(format!(
            "unsupported artifact type {mime}"
        )))
    }
}

pub(super) fn create(ws: &mut WorkspaceCall, a: NewArtifact) -> BpResult<ArtifactRef> {
    ws.checked()?;
    check_mime(&a.mime)?;
    let (store, workspace_id) = ws.artifact_store();
    let new = StoredArtifact {
        workspace_id,
        kind: a.kind.as_str(),
        mime: &a.mime,
        filename: None,
        width: a.width,
        height: a.height,
        preview_of: a.preview_of,
    };
    let d = store.create(new, &a.data)?;
    Ok(ArtifactRef {
        artifact_id: WorkspaceCall::artifact_id_of(&d),
        bytes: d["bytes"].as_u64().unwrap_or(0),
    })
}

pub(super) fn upload_file(ws: &mut WorkspaceCall, id: &str) -> BpResult<UploadFile> {
    ws.checked()?;
    let (store, workspace_id) = ws.artifact_store();
    let (filename, bytes, _) = store.upload_file(workspace_id, id)?;
    Ok(UploadFile {
        artifact_id: id.to_string(),
        filename,
        bytes,
    })
}
