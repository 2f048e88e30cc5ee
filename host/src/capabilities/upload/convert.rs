//! Conversion of `upload`'s read-back from the browser's domain type to
//! WIT.

use crate::browser::types as domain;
use crate::wit::upload;

impl From<domain::UploadReadback> for upload::UploadReadback {
    fn from(r: domain::UploadReadback) -> Self {
        let domain::UploadReadback { file_count, names } = r;
        Self { file_count, names }
    }
}
