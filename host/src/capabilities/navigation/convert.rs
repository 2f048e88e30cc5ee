//! Conversions of `navigation` between the generated WIT types and the
//! browser's domain types (exhaustive, as in every capability's
//! `convert.rs`). A page title loses its invisible characters here.

use crate::browser::types as domain;
use crate::sanitize::invisible;
use crate::wit::navigation;

impl From<domain::NavResult> for navigation::NavResult {
    fn from(r: domain::NavResult) -> Self {
        let domain::NavResult { url, title, status } = r;
        Self {
            url,
            title: invisible::clean(&title),
            status,
        }
    }
}

impl From<navigation::HistoryAction> for domain::HistoryAction {
    fn from(a: navigation::HistoryAction) -> Self {
        match a {
            navigation::HistoryAction::Back => Self::Back,
            navigation::HistoryAction::Forward => Self::Forward,
            navigation::HistoryAction::Reload => Self::Reload,
        }
    }
}
