//! Explicit DevTools endpoints: loopback-only parsing, and resolving an
//! `http://` endpoint to the browser's WebSocket URL through reqwest (the
//! HTTP client chromiumoxide itself uses), never hand-written HTTP.

use crate::error::{BpError, BpResult, Code};
use serde_json::{json, Value};
use std::time::Duration;

/// How long the browser may take to answer `/json/version`.
const VERSION_TIMEOUT: Duration = Duration::from_secs(5);
/// Largest `/json/version` answer accepted.
const MAX_VERSION_BYTES: usize = 64 * 1024;

/// A checked endpoint: loopback host, `http` or `ws`, and its port.
#[derive(Debug, Clone)]
pub struct Endpoint {
    pub url: url::Url,
    pub port: u16,
}

impl Endpoint {
    /// Parse `endpoint`, requiring a loopback host and an http/ws scheme.
    pub fn parse(endpoint: &str) -> BpResult<Self> {
        let url = url::Url::parse(endpoint)
            .map_err(|e| BpError::invalid(format!("bad endpoint URL: {e}")))?;
        if !matches!(url.scheme(), "http" | "ws") {
            return Err(BpError::invalid(format!(
                "endpoint scheme must be http or ws, not {}",
                url.scheme()
            )));
        }
        if !is_loopback(&url) {
            return Err(BpError::invalid(
                "only loopback endpoints (127.0.0.1, localhost, ::1) are accepted",
            ));
        }
        let port = url
            .port_or_known_default()
            .ok_or_else(|| BpError::invalid("the endpoint has no port"))?;
        Ok(Self { url, port })
    }

    /// The same endpoint dialled at the literal address `addr` (the
    /// listener whose ownership was proven), never at a name that could
    /// resolve elsewhere.
    pub fn pinned(&self, addr: std::net::IpAddr) -> BpResult<Self> {
        let mut url = self.url.clone();
        url.set_host(Some(&dial_host(addr)))
            .map_err(|e| BpError::internal(format!("pinning the endpoint: {e}")))?;
        Ok(Self {
            url,
            port: self.port,
        })
    }

    /// The browser's WebSocket URL: a `ws://` endpoint as given, an
    /// `http://` one asked for `/json/version`. The answer must name a
    /// browser WebSocket on the same loopback port, and is dialled at this
    /// endpoint's own host.
    pub async fn websocket_url(&self) -> BpResult<String> {
        if self.url.scheme() == "ws" {
            check_browser_ws(self, self.url.as_str())?;
            return Ok(self.url.to_string());
        }
        let version = self
            .url
            .join("/json/version")
            .map_err(|e| BpError::invalid(format!("bad endpoint URL: {e}")))?;
        let body = get_json(version).await?;
        let ws = body
            .get("webSocketDebuggerUrl")
            .and_then(Value::as_str)
            .ok_or_else(|| {
                not_found(
                    "the endpoint's /json/version names no webSocketDebuggerUrl",
                    "no_websocket_url",
                )
            })?;
        check_browser_ws(self, ws)?;
        let mut pinned = url::Url::parse(ws).map_err(|_| {
            not_found(
                "the reported WebSocket URL is not a URL",
                "websocket_mismatch",
            )
        })?;
        pinned
            .set_host(self.url.host_str())
            .map_err(|e| BpError::internal(format!("pinning the WebSocket URL: {e}")))?;
        Ok(pinned.to_string())
    }
}

/// The literal host to dial for a listener on `addr`: all-interfaces
/// listeners are reached on loopback.
pub fn dial_host(addr: std::net::IpAddr) -> String {
    match addr {
        std::net::IpAddr::V4(v4) if v4.is_unspecified() => "127.0.0.1".into(),
        std::net::IpAddr::V4(v4) => v4.to_string(),
        std::net::IpAddr::V6(v6) if v6.is_unspecified() => "[::1]".into(),
        std::net::IpAddr::V6(v6) => format!("[{v6}]"),
    }
}

fn is_loopback(url: &url::Url) -> bool {
    match url.host() {
        Some(url::Host::Domain(d)) => d.eq_ignore_ascii_case("localhost"),
        Some(url::Host::Ipv4(ip)) => ip.is_loopback(),
        Some(url::Host::Ipv6(ip)) => ip.is_loopback(),
        None => false,
    }
}

fn not_found(message: impl Into<String>, reason: &str) -> BpError {
    BpError::new(Code::BrowserNotFound, message).with_context(json!({ "reason": reason }))
}

/// The WebSocket URL a browser reported must be a browser socket on the
/// same loopback port the user named: never another host or port.
pub fn check_browser_ws(endpoint: &Endpoint, ws: &str) -> BpResult<()> {
    let mismatch = |why: &str| {
        not_found(
            format!("the endpoint reported a WebSocket URL that {why}; refusing to connect"),
            "websocket_mismatch",
        )
    };
    let url = url::Url::parse(ws).map_err(|_| mismatch("is not a URL"))?;
    if url.scheme() != "ws" {
        return Err(mismatch("is not ws://"));
    }
    if !is_loopback(&url) {
        return Err(mismatch("is not on loopback"));
    }
    if url.port_or_known_default() != Some(endpoint.port) {
        return Err(mismatch("is on another port"));
    }
    if !url.path().starts_with("/devtools/browser/") {
        return Err(mismatch(
            "is not a browser endpoint (/devtools/browser/...)",
        ));
    }
    Ok(())
}

/// GET a small JSON document from a loopback URL, with no proxy.
async fn get_json(url: url::Url) -> BpResult<Value> {
    let client = reqwest::Client::builder()
        .no_proxy()
        .redirect(reqwest::redirect::Policy::none())
        .timeout(VERSION_TIMEOUT)
        .build()
        .map_err(|e| BpError::internal(format!("HTTP client: {e}")))?;
    let port = url.port_or_known_default().unwrap_or_default();
    let resp = client.get(url).send().await.map_err(|e| {
        let what = if e.is_timeout() {
            "did not answer within 5 s".to_string()
        } else {
            format!("cannot be reached ({})", error_chain(&e))
        };
        not_found(format!("the endpoint on port {port} {what}"), "unreachable")
    })?;
    let status = resp.status();
    if status == reqwest::StatusCode::NOT_FOUND {
        return Err(not_found(
            "the endpoint answered 404 for /json/version; a browser whose debugging was \
             turned on at chrome://inspect/#remote-debugging answers so: run `bp connect` \
             without --endpoint to use the path in its DevToolsActivePort",
            "version_not_served",
        ));
    }
    if !status.is_success() {
        return Err(not_found(
            format!(
                "the endpoint answered HTTP {} for /json/version",
                status.as_u16()
            ),
            "version_not_served",
        ));
    }
    let bytes = resp
        .bytes()
        .await
        .map_err(|e| not_found(format!("reading /json/version: {e}"), "unreachable"))?;
    if bytes.len() > MAX_VERSION_BYTES {
        return Err(not_found(
            "the endpoint's /json/version answer is too large",
            "not_devtools",
        ));
    }
    serde_json::from_slice(&bytes).map_err(|_| {
        not_found(
            "the endpoint did not answer /json/version with JSON",
            "not_devtools",
        )
    })
}

fn error_chain(e: &dyn std::error::Error) -> String {
    let mut out = e.to_string();
    let mut source = e.source();
    while let Some(s) = source {
        out.push_str(": ");
        out.push_str(&s.to_string());
        source = s.source();
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn loopback_only() {
        assert!(Endpoint::parse("http://127.0.0.1:9222").is_ok());
        assert!(Endpoint::parse("http://localhost:9222").is_ok());
        assert!(Endpoint::parse("ws://[::1]:9222/devtools/browser/x").is_ok());
        for bad in [
            "http://10.0.0.1:9222",
            "http://example.com:9222",
            "https://127.0.0.1:9222",
            "file:///etc/passwd",
            "not a url",
        ] {
            let e = Endpoint::parse(bad).err().map(|e| e.code);
            assert_eq!(e, Some(Code::InvalidArgument), "{bad}");
        }
    }

    #[test]
    fn pinning_dials_the_proven_literal_address() {
        let ep = Endpoint::parse("http://localhost:9222").unwrap_or_else(|e| panic!("{e}"));
        let v4 = ep.pinned("127.0.0.1".parse().unwrap()).unwrap();
        assert_eq!(v4.url.as_str(), "http://127.0.0.1:9222/");
        let v6 = ep.pinned("::1".parse().unwrap()).unwrap();
        assert_eq!(v6.url.as_str(), "http://[::1]:9222/");
        let any = ep.pinned("0.0.0.0".parse().unwrap()).unwrap();
        assert_eq!(any.url.host_str(), Some("127.0.0.1"));
    }

    #[test]
    fn websocket_must_match_the_named_port() {
        let ep = Endpoint::parse("http://127.0.0.1:9222").unwrap_or_else(|e| panic!("{e}"));
        assert!(check_browser_ws(&ep, "ws://127.0.0.1:9222/devtools/browser/abc").is_ok());
        assert!(check_browser_ws(&ep, "ws://localhost:9222/devtools/browser/abc").is_ok());
        for bad in [
            "ws://127.0.0.1:9333/devtools/browser/abc",
            "ws://10.1.1.1:9222/devtools/browser/abc",
            "wss://127.0.0.1:9222/devtools/browser/abc",
            "ws://127.0.0.1:9222/devtools/page/abc",
        ] {
            let e = check_browser_ws(&ep, bad).err();
            assert_eq!(e.map(|e| e.code), Some(Code::BrowserNotFound), "{bad}");
        }
    }
}
