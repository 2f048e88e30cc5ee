//! Conversions of `network-modify` between the generated WIT types and
//! the broker's domain types (exhaustive: destructured records, enums
//! matched without wildcards).

use crate::browser::types as domain;
use crate::wit::network_modify;
use crate::wit::typed::all;

impl From<network_modify::Header> for domain::Header {
    fn from(h: network_modify::Header) -> Self {
        let network_modify::Header { name, value } = h;
        Self { name, value }
    }
}

impl From<domain::Header> for network_modify::Header {
    fn from(h: domain::Header) -> Self {
        let domain::Header { name, value } = h;
        Self { name, value }
    }
}

impl From<network_modify::MockResponse> for domain::MockResponse {
    fn from(m: network_modify::MockResponse) -> Self {
        let network_modify::MockResponse {
            status,
            headers,
            body,
        } = m;
        Self {
            status,
            headers: all(headers),
            body,
        }
    }
}

impl From<domain::MockResponse> for network_modify::MockResponse {
    fn from(m: domain::MockResponse) -> Self {
        let domain::MockResponse {
            status,
            headers,
            body,
        } = m;
        Self {
            status,
            headers: all(headers),
            body,
        }
    }
}

impl From<network_modify::RuleAction> for domain::RuleAction {
    fn from(a: network_modify::RuleAction) -> Self {
        match a {
            network_modify::RuleAction::Block => Self::Block,
            network_modify::RuleAction::Mock(m) => Self::Mock(m.into()),
            network_modify::RuleAction::Headers(h) => Self::Headers(all(h)),
        }
    }
}

impl From<domain::RuleAction> for network_modify::RuleAction {
    fn from(a: domain::RuleAction) -> Self {
        match a {
            domain::RuleAction::Block => Self::Block,
            domain::RuleAction::Mock(m) => Self::Mock(m.into()),
            domain::RuleAction::Headers(h) => Self::Headers(all(h)),
        }
    }
}

impl From<domain::Rule> for network_modify::Rule {
    fn from(r: domain::Rule) -> Self {
        let domain::Rule {
            rule_id,
            pattern,
            action,
            target_id,
        } = r;
        Self {
            rule_id,
            pattern,
            action: action.into(),
            target_id,
        }
    }
}
