//! Conversions of `artifacts` between the generated WIT types and the
//! broker's domain types (exhaustive: destructured records, enums matched
//! without wildcards).

use crate::browser::types as domain;
use crate::wit::{artifacts, types};

impl From<types::ArtifactKind> for domain::ArtifactKind {
    fn from(k: types::ArtifactKind) -> Self {
        match k {
            types::ArtifactKind::Screenshot => Self::Screenshot,
            types::ArtifactKind::Preview => Self::Preview,
            types::ArtifactKind::Pdf => Self::Pdf,
        }
    }
}

impl From<artifacts::NewArtifact> for domain::NewArtifact {
    fn from(a: artifacts::NewArtifact) -> Self {
        let artifacts::NewArtifact {
            kind,
            mime,
            data,
            width,
            height,
            preview_of,
        } = a;
        Self {
            kind: kind.into(),
            mime,
            data,
            width,
            height,
            preview_of,
        }
    }
}

impl From<domain::ArtifactRef> for artifacts::ArtifactRef {
    fn from(r: domain::ArtifactRef) -> Self {
        let domain::ArtifactRef { artifact_id, bytes } = r;
        Self { artifact_id, bytes }
    }
}

impl From<domain::UploadFile> for artifacts::UploadFile {
    fn from(f: domain::UploadFile) -> Self {
        let domain::UploadFile {
            artifact_id,
            filename,
            bytes,
        } = f;
        Self {
            artifact_id,
            filename,
            bytes,
        }
    }
}
