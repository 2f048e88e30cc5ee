//! Credentials never leave the broker inside a URL. A URL with userinfo
//! (`http://user:password@host/`) is reported with the userinfo replaced
//! by the marker `redacted` (`http://redacted@host/`): in the request
//! journal, events, errors, observations, tab lists and logs.

/// The userinfo marker.
pub const MARKER: &str = "redacted";

/// `raw` with any userinfo replaced by [`MARKER`]; other URLs (and text
/// that is not a URL) unchanged.
pub fn url(raw: &str) -> String {
    let Ok(mut parsed) = url::Url::parse(raw) else {
        return raw.to_string();
    };
    if parsed.username().is_empty() && parsed.password().is_none() {
        return raw.to_string();
    }
    // Setting userinfo fails only for URLs that cannot carry it (no host),
    // which cannot have had any.
    if parsed.set_password(None).is_err() || parsed.set_username(MARKER).is_err() {
        return raw.to_string();
    }
    parsed.to_string()
}

#[cfg(test)]
mod tests {
    use super::url;

    #[test]
    fn userinfo_is_replaced_and_everything_else_kept() {
        assert_eq!(
            url("http://agent:s3cret@127.0.0.1:8080/auth?q=1#f"),
            "http://redacted@127.0.0.1:8080/auth?q=1#f"
        );
        assert_eq!(
            url("https://only-user@example.test/"),
            "https://redacted@example.test/"
        );
        assert_eq!(url("http://127.0.0.1:8080/a"), "http://127.0.0.1:8080/a");
        assert_eq!(url("about:blank"), "about:blank");
        assert_eq!(url("not a url"), "not a url");
        assert_eq!(url(""), "");
    }
}
