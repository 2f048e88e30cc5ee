//! Origin scope: the allow-list of origins the broker lets the tabs it
//! controls reach. Pure logic: parsing the patterns, judging one URL,
//! and checking that a workspace's list only narrows the launch list.
//! Enforcement (request interception) is the broker's
//! (`broker/watch/scopeflow.rs`).

mod pattern;
#[cfg(test)]
mod tests;

pub use pattern::OriginPattern;

use crate::error::{BpError, BpResult, Code};
use serde_json::json;
use url::Url;

/// A non-empty list of allowed-origin patterns.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Scope {
    patterns: Vec<OriginPattern>,
}

/// What the scope says of one URL.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Verdict {
    Allowed,
    /// Refused; the origin as it would be shown (`scheme://host[:port]`,
    /// or `scheme:` for a URL without a host).
    Refused(String),
}

impl Scope {
    /// Parse a list; `None` when it is empty (no scope). A bad pattern is
    /// `invalid_argument`.
    pub fn parse_list<S: AsRef<str>>(list: &[S]) -> BpResult<Option<Self>> {
        let patterns = list
            .iter()
            .map(|p| OriginPattern::parse(p.as_ref()))
            .collect::<BpResult<Vec<_>>>()?;
        Ok((!patterns.is_empty()).then_some(Self { patterns }))
    }

    /// The patterns as text, for reports.
    pub fn names(&self) -> Vec<String> {
        self.patterns.iter().map(ToString::to_string).collect()
    }

    /// Judge `url`: http(s) by origin; `blob:` by the origin inside it;
    /// `about:blank`, `about:srcdoc` and `data:` fetch nothing and are
    /// allowed; every other scheme is refused. A URL that does not parse
    /// is refused.
    pub fn judge(&self, url: &str) -> Verdict {
        let Ok(parsed) = Url::parse(url) else {
            return Verdict::Refused("unparsable URL".into());
        };
        match parsed.scheme() {
            "http" | "https" => self.judge_origin(&parsed),
            "blob" => match Url::parse(parsed.path()) {
                Ok(inner) if matches!(inner.scheme(), "http" | "https") => {
                    self.judge_origin(&inner)
                }
                _ => Verdict::Refused("blob:".into()),
            },
            "data" => Verdict::Allowed,
            "about" if matches!(parsed.path(), "blank" | "srcdoc") => Verdict::Allowed,
            other => Verdict::Refused(format!("{other}:")),
        }
    }

    fn judge_origin(&self, url: &Url) -> Verdict {
        let (Some(host), Some(port)) = (url.host_str(), url.port_or_known_default()) else {
            return Verdict::Refused(format!("{}:", url.scheme()));
        };
        if self
            .patterns
            .iter()
            .any(|p| p.matches(url.scheme(), host, port))
        {
            return Verdict::Allowed;
        }
        Verdict::Refused(url.origin().ascii_serialization())
    }

    /// The workspace's own list, checked to only narrow `launch` (when
    /// there is one): a pattern that reaches outside it is refused with
    /// `capability_denied`.
    pub fn narrow(launch: Option<&Scope>, own: Scope) -> BpResult<Scope> {
        let Some(launch) = launch else {
            return Ok(own);
        };
        if let Some(wider) = own
            .patterns
            .iter()
            .find(|p| !launch.patterns.iter().any(|l| p.within(l)))
        {
            return Err(BpError::new(
                Code::CapabilityDenied,
                format!("`{wider}` is outside the broker's allowed origins; a workspace's list may only narrow them"),
            )
            .with_context(json!({"reason": "scope_widened", "origin": wider.to_string(),
                                 "allowedOrigins": launch.names()})));
        }
        Ok(own)
    }
}

/// The refusal of a tool call that would leave the scope: `capability_denied`
/// with reason `origin_not_allowed` and the origin in context.
pub fn refusal(origin: &str) -> BpError {
    BpError::new(
        Code::CapabilityDenied,
        format!("`{origin}` is outside the allowed origins of this workspace"),
    )
    .with_context(json!({"reason": "origin_not_allowed", "origin": origin}))
}
