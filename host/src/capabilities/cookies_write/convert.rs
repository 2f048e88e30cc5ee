//! Conversion of the WIT cookie (`cookies-write` takes `cookies-read`'s
//! type) to the browser's (destructured, so a field added on either side
//! fails to compile).

use crate::browser::types as domain;
use crate::wit::cookies_read;

impl From<cookies_read::Cookie> for domain::Cookie {
    fn from(c: cookies_read::Cookie) -> Self {
        let cookies_read::Cookie {
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
