//! Conversion of `capture`'s image from the browser's domain type to WIT.

use crate::browser::types as domain;
use crate::wit::capture;

impl From<domain::Image> for capture::Image {
    fn from(i: domain::Image) -> Self {
        let domain::Image { png, width, height } = i;
        Self { png, width, height }
    }
}
