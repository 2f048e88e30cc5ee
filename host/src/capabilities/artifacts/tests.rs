//! Unit tests of `artifacts`' conversions.

use crate::browser::types as domain;
use crate::wit::types;

#[test]
fn artifact_kinds_keep_their_store_names() {
    for (kind, name) in [
        (types::ArtifactKind::Screenshot, "screenshot"),
        (types::ArtifactKind::Preview, "preview"),
        (types::ArtifactKind::Pdf, "pdf"),
    ] {
        assert_eq!(domain::ArtifactKind::from(kind).as_str(), name);
    }
}
