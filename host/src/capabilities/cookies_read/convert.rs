//! Conversion of a browser cookie to `cookies-read`'s WIT cookie
//! (destructured, so a field added on either side fails to compile).

use crate::browser::types as domain;
use crate::wit::cookies_read;

impl From<domain::Cookie> for cookies_read::Cookie {
    fn from(c: domain::Cookie) -> Self {
        let domain::Cookie {
            name,
            value,
            domain,
            path,
            expires,
            http_only,
            secure,
            same_site,
        } = c;
        Self {
            name,
            value,
            domain,
            path,
            expires,
            http_only,
            secure,
            same_site,
        }
    }
}
