//! Conversions of the data capabilities' records (capture, artifacts,
//! upload, cookies, network, dialogs, tabs) between WIT and the broker, in
//! the same exhaustive style as `convert.rs`.

use crate::browser::types as domain;
use crate::browser::workspace::tabs::OpenedTab;
use crate::runtime::bindings::{
    artifacts, capture, cookies_read, dialogs, network_modify, network_read, tabs_manage, types,
    upload,
};
use crate::runtime::host::convert::all;
use crate::sanitize::invisible;

// ---- capture, upload and artifacts ----------------------------------------

impl From<domain::Image> for capture::Image {
    fn from(i: domain::Image) -> Self {
        let domain::Image { png, width, height } = i;
        Self { png, width, height }
    }
}

impl From<domain::UploadReadback> for upload::UploadReadback {
    fn from(r: domain::UploadReadback) -> Self {
        let domain::UploadReadback { file_count, names } = r;
        Self { file_count, names }
    }
}

impl From<types::ArtifactKind> for domain::ArtifactKind {
    fn from(k: types::ArtifactKind) -> Self {
        match k {
            types::ArtifactKind::Screenshot => Self::Screenshot,
            types::ArtifactKind::Preview => Self::Preview,
            types::ArtifactKind::Pdf => Self::Pdf,
        }
    }
}

impl From<artifacts::NewArtifact> for domain::NewArtifact {
    fn from(a: artifacts::NewArtifact) -> Self {
        let artifacts::NewArtifact {
            kind,
            mime,
            data,
            width,
            height,
            preview_of,
        } = a;
        Self {
            kind: kind.into(),
            mime,
            data,
            width,
            height,
            preview_of,
        }
    }
}

impl From<domain::ArtifactRef> for artifacts::ArtifactRef {
    fn from(r: domain::ArtifactRef) -> Self {
        let domain::ArtifactRef { artifact_id, bytes } = r;
        Self { artifact_id, bytes }
    }
}

impl From<domain::UploadFile> for artifacts::UploadFile {
    fn from(f: domain::UploadFile) -> Self {
        let domain::UploadFile {
            artifact_id,
            filename,
            bytes,
        } = f;
        Self {
            artifact_id,
            filename,
            bytes,
        }
    }
}

// ---- cookies ---------------------------------------------------------------

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

// ---- network ---------------------------------------------------------------

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

// ---- dialogs and tabs ------------------------------------------------------

impl From<domain::DialogInfo> for dialogs::DialogInfo {
    fn from(d: domain::DialogInfo) -> Self {
        let domain::DialogInfo {
            dialog_id,
            target_id,
            kind,
            message,
            default_prompt,
            opened_at,
        } = d;
        Self {
            dialog_id,
            target_id,
            kind,
            message: invisible::clean(&message),
            default_prompt: default_prompt.map(|p| invisible::clean(&p)),
            opened_at,
        }
    }
}

impl From<OpenedTab> for tabs_manage::TabInfo {
    fn from(t: OpenedTab) -> Self {
        let OpenedTab {
            target_id,
            url,
            title,
            status,
            origin,
        } = t;
        Self {
            target_id,
            url,
            title: invisible::clean(&title),
            status,
            origin,
        }
    }
}
