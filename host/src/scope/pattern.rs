//! One allowed-origin pattern: an exact origin (`http://127.0.0.1:8123`)
//! or a host wildcard (`https://*.example.com`, any subdomain, not the
//! bare domain). Parsed with the `url` crate, so hosts are compared in
//! their normal form (lower case, punycode) and a missing port means the
//! scheme's default.

use crate::error::{BpError, BpResult};
use url::{Host, Url};

/// The host part of a pattern.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(super) enum HostPattern {
    /// Exactly this host.
    Exact(String),
    /// Any host ending in `.` + this domain.
    Subdomains(String),
}

/// A parsed allowed-origin pattern.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct OriginPattern {
    pub(super) scheme: String,
    pub(super) host: HostPattern,
    pub(super) port: u16,
}

/// The placeholder a wildcard label becomes while the URL is parsed.
const WILDCARD_LABEL: &str = "bp-wildcard-label";

impl OriginPattern {
    /// Parse `text`, or refuse it with `invalid_argument`.
    pub fn parse(text: &str) -> BpResult<Self> {
        let bad = |why: &str| {
            BpError::invalid(format!(
                "`{text}` is not an allowed-origin pattern: {why} (use http://host[:port] or https://*.domain)"
            ))
        };
        let trimmed = text.trim();
        let (scheme, rest) = trimmed.split_once("://").ok_or_else(|| bad("no scheme"))?;
        let scheme = scheme.to_ascii_lowercase();
        if scheme != "http" && scheme != "https" {
            return Err(bad("only http and https origins can be allowed"));
        }
        let rest = rest.strip_suffix('/').unwrap_or(rest);
        let wildcard = rest.starts_with("*.");
        let host_part = match wildcard {
            true => format!("{WILDCARD_LABEL}.{}", &rest[2..]),
            false => rest.to_string(),
        };
        if host_part.is_empty() || host_part.contains(['/', '?', '#', '@', '*', '\\']) {
            return Err(bad("an origin has no path, query, user or other wildcard"));
        }
        let url =
            Url::parse(&format!("{scheme}://{host_part}/")).map_err(|e| bad(&e.to_string()))?;
        let port = url.port_or_known_default().ok_or_else(|| bad("no port"))?;
        let host = match (url.host(), wildcard) {
            (Some(Host::Domain(d)), true) => {
                let domain = d
                    .strip_prefix(&format!("{WILDCARD_LABEL}."))
                    .ok_or_else(|| bad("a wildcard stands for the leftmost labels only"))?;
                if domain.is_empty() || domain.contains(WILDCARD_LABEL) {
                    return Err(bad("a wildcard needs a domain after it"));
                }
                HostPattern::Subdomains(domain.to_string())
            }
            (Some(_), true) => return Err(bad("a wildcard needs a domain name, not an address")),
            (Some(h), false) => HostPattern::Exact(h.to_string()),
            (None, _) => return Err(bad("no host")),
        };
        Ok(Self { scheme, host, port })
    }

    /// Whether the origin (`scheme`, normal-form `host`, `port`) matches.
    pub(super) fn matches(&self, scheme: &str, host: &str, port: u16) -> bool {
        if self.scheme != scheme || self.port != port {
            return false;
        }
        match &self.host {
            HostPattern::Exact(h) => h == host,
            HostPattern::Subdomains(d) => host
                .strip_suffix(d.as_str())
                .is_some_and(|head| head.len() > 1 && head.ends_with('.')),
        }
    }

    /// Whether every origin this pattern matches is matched by `other`
    /// too (the narrowing check of a workspace's list).
    pub(super) fn within(&self, other: &OriginPattern) -> bool {
        if self.scheme != other.scheme || self.port != other.port {
            return false;
        }
        match (&self.host, &other.host) {
            (HostPattern::Exact(h), _) => other.matches(&self.scheme, h, self.port),
            (HostPattern::Subdomains(d), HostPattern::Subdomains(o)) => {
                d == o || d.strip_suffix(o.as_str()).is_some_and(|h| h.ends_with('.'))
            }
            (HostPattern::Subdomains(_), HostPattern::Exact(_)) => false,
        }
    }
}

impl std::fmt::Display for OriginPattern {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        let host = match &self.host {
            HostPattern::Exact(h) => h.clone(),
            HostPattern::Subdomains(d) => format!("*.{d}"),
        };
        let default = if self.scheme == "https" { 443 } else { 80 };
        match self.port == default {
            true => write!(f, "{}://{host}", self.scheme),
            false => write!(f, "{}://{host}:{}", self.scheme, self.port),
        }
    }
}
