//! Conversions of `network-read`'s journal from the broker's domain types
//! to WIT (destructured, so a field added on either side fails to
//! compile).

use crate::browser::types as domain;
use crate::wit::network_read;
use crate::wit::typed::all;

impl From<domain::RequestEntry> for network_read::RequestEntry {
    fn from(e: domain::RequestEntry) -> Self {
        let domain::RequestEntry {
            seq,
            target_id,
            url,
            method,
            status,
            resource_type,
            outcome,
            rule_id,
        } = e;
        Self {
            seq,
            target_id,
            url,
            method,
            status,
            resource_type,
            outcome,
            rule_id,
        }
    }
}

impl From<domain::JournalPage> for network_read::JournalPage {
    fn from(p: domain::JournalPage) -> Self {
        let domain::JournalPage { requests, next_seq } = p;
        Self {
            requests: all(requests),
            next_seq,
        }
    }
}
