//! Page-domain methods our Chromium still serves that chromiumoxide's
//! protocol revision dropped (they moved to the Browser domain, which
//! works browser-wide; the broker wants them per page session, so a
//! user's own download settings are never touched).

use serde::{Deserialize, Serialize};

/// `Page.setDownloadBehavior`: where this page's downloads go.
#[derive(Debug, Clone, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct SetDownloadBehaviorParams {
    /// `allow`, `deny` or `default`.
    pub behavior: String,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub download_path: Option<std::path::PathBuf>,
}

/// An empty reply.
#[derive(Debug, Clone, Default, Deserialize)]
pub struct EmptyReturns {}

/// `Page.downloadWillBegin`: a download of this page started. Matched by
/// method only; the registry reads the fields it needs from the JSON.
#[derive(Debug, Clone, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct EventDownloadWillBegin {
    pub guid: String,
    #[serde(default)]
    pub url: String,
    #[serde(default)]
    pub suggested_filename: String,
}

/// `Page.downloadProgress`: a download grew, finished or was cancelled.
#[derive(Debug, Clone, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct EventDownloadProgress {
    pub guid: String,
    /// `inProgress`, `completed` or `canceled`.
    pub state: String,
}

cdp_method!(
    SetDownloadBehaviorParams,
    "Page.setDownloadBehavior",
    EmptyReturns
);
cdp_method!(EventDownloadWillBegin, "Page.downloadWillBegin");
cdp_method!(EventDownloadProgress, "Page.downloadProgress");

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn set_download_behavior_serialises_as_the_string_call_did() {
        let dir = std::path::PathBuf::from("/tmp/dl_1");
        let cmd = SetDownloadBehaviorParams {
            behavior: "allow".into(),
            download_path: Some(dir.clone()),
        };
        assert_eq!(
            serde_json::to_value(&cmd).unwrap(),
            serde_json::json!({"behavior": "allow", "downloadPath": dir})
        );
    }
}
