//! The stable error model: every failure a client sees carries one of
//! these codes, a message, retryability and optional structured context.

use serde::Serialize;
use serde_json::{json, Value};
use std::fmt;

/// Stable error codes, spelled as on the wire.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
#[serde(rename_all = "snake_case")]
pub enum Code {
    ProtocolIncompatible,
    NotInitialized,
    CapabilityDenied,
    BrowserNotFound,
    BrowserNotAuthorized,
    BrowserDisconnected,
    BrokerInUse,
    /// No broker answers for this home (the CLI's broker commands).
    BrokerNotRunning,
    WorkspaceNotFound,
    LeaseExpired,
    TargetNotOwned,
    TargetBusy,
    StaleRef,
    CommandCancelled,
    ActionNotVerified,
    CommandExpired,
    UnknownOutcome,
    ArtifactNotFound,
    ArtifactExpired,
    CursorExpired,
    ResultTooLarge,
    /// The page ran the action and reported that it failed.
    ActionFailed,
    /// The browser lacks a feature the operation needs.
    FeatureUnavailable,
    /// A bounded wait ended before its condition held.
    Timeout,
    InvalidArgument,
    InternalError,
}

/// The one table of error codes: wire spelling and retryability.
const CODES: [(Code, &str, bool); 26] = [
    (Code::ProtocolIncompatible, "protocol_incompatible", false),
    (Code::NotInitialized, "not_initialized", false),
    (Code::CapabilityDenied, "capability_denied", false),
    (Code::BrowserNotFound, "browser_not_found", false),
    (Code::BrowserNotAuthorized, "browser_not_authorized", false),
    (Code::BrowserDisconnected, "browser_disconnected", true),
    (Code::BrokerInUse, "broker_in_use", false),
    (Code::BrokerNotRunning, "broker_not_running", false),
    (Code::WorkspaceNotFound, "workspace_not_found", false),
    (Code::LeaseExpired, "lease_expired", true),
    (Code::TargetNotOwned, "target_not_owned", false),
    (Code::TargetBusy, "target_busy", true),
    (Code::StaleRef, "stale_ref", false),
    (Code::CommandCancelled, "command_cancelled", false),
    (Code::ActionNotVerified, "action_not_verified", true),
    (Code::CommandExpired, "command_expired", false),
    (Code::UnknownOutcome, "unknown_outcome", false),
    (Code::ArtifactNotFound, "artifact_not_found", false),
    (Code::ArtifactExpired, "artifact_expired", false),
    (Code::CursorExpired, "cursor_expired", false),
    (Code::ResultTooLarge, "result_too_large", false),
    (Code::ActionFailed, "action_failed", false),
    (Code::FeatureUnavailable, "feature_unavailable", false),
    (Code::Timeout, "timeout", true),
    (Code::InvalidArgument, "invalid_argument", false),
    (Code::InternalError, "internal_error", false),
];

impl Code {
    fn row(self) -> (Code, &'static str, bool) {
        CODES.into_iter().find(|(c, _, _)| *c == self).unwrap_or((
            Code::InternalError,
            "internal_error",
            false,
        ))
    }

    /// The wire spelling.
    pub fn as_str(self) -> &'static str {
        self.row().1
    }

    /// Every code, for parsing.
    pub const ALL: [Code; CODES.len()] = {
        let mut all = [Code::InternalError; CODES.len()];
        let mut i = 0;
        while i < CODES.len() {
            all[i] = CODES[i].0;
            i += 1;
        }
        all
    };

    /// Parse the wire spelling.
    pub fn parse(s: &str) -> Option<Code> {
        CODES
            .into_iter()
            .find(|(_, n, _)| *n == s)
            .map(|(c, _, _)| c)
    }

    /// Whether retrying the same request may succeed.
    pub fn retryable(self) -> bool {
        self.row().2
    }
}

/// Why a ref no longer resolves: one enum from the host through WIT to
/// the wire.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum StaleReason {
    Navigation,
    LoaderReplaced,
    DocumentReplaced,
    FrameChanged,
    FrameDetached,
    SessionReplaced,
    TargetDetached,
    BrowserReconnected,
    TargetIneligible,
    TargetClosed,
    /// The tab's renderer crashed; navigating (or reloading) recovers it.
    TargetCrashed,
    ControlReleased,
    Expired,
    /// Deliberately vague: says nothing about another workspace's refs.
    NotFound,
    FocusChanged,
    DialogOpened,
    /// A page tool's frame loaded another document since it was listed.
    DocumentChanged,
    /// The page unregistered the tool a page-tool ref named.
    ToolRemoved,
}

impl StaleReason {
    /// The wire spelling (`None` for the deliberately vague `NotFound`).
    pub fn as_str(self) -> Option<&'static str> {
        Some(match self {
            StaleReason::Navigation => "navigation",
            StaleReason::LoaderReplaced => "loader_replaced",
            StaleReason::DocumentReplaced => "document_replaced",
            StaleReason::FrameChanged => "frame_changed",
            StaleReason::FrameDetached => "frame_detached",
            StaleReason::SessionReplaced => "session_replaced",
            StaleReason::TargetDetached => "target_detached",
            StaleReason::BrowserReconnected => "browser_reconnected",
            StaleReason::TargetIneligible => "target_ineligible",
            StaleReason::TargetClosed => "target_closed",
            StaleReason::TargetCrashed => "target_crashed",
            StaleReason::ControlReleased => "control_released",
            StaleReason::Expired => "expired",
            StaleReason::FocusChanged => "focus_changed",
            StaleReason::DialogOpened => "dialog_opened",
            StaleReason::DocumentChanged => "document_changed",
            StaleReason::ToolRemoved => "tool_removed",
            StaleReason::NotFound => return None,
        })
    }
}

/// A failure with its stable code. Messages never carry page data or secrets.
#[derive(Debug, Clone)]
pub struct BpError {
    pub code: Code,
    pub message: String,
    pub context: Option<Value>,
    /// For `stale_ref`: why, typed.
    pub stale: Option<StaleReason>,
}

impl BpError {
    pub fn new(code: Code, message: impl Into<String>) -> Self {
        Self {
            code,
            message: message.into(),
            context: None,
            stale: None,
        }
    }

    pub fn with_context(mut self, context: Value) -> Self {
        self.context = Some(context);
        self
    }

    pub fn invalid(message: impl Into<String>) -> Self {
        Self::new(Code::InvalidArgument, message)
    }

    pub fn internal(message: impl Into<String>) -> Self {
        Self::new(Code::InternalError, message)
    }

    pub fn disconnected() -> Self {
        Self::new(
            Code::BrowserDisconnected,
            "the browser connection is gone; run `bp connect`",
        )
    }

    pub fn stale(reason: StaleReason) -> Self {
        let page_tool = matches!(
            reason,
            StaleReason::DocumentChanged | StaleReason::ToolRemoved
        );
        let mut e = match reason.as_str() {
            Some(r) if page_tool => Self::new(
                Code::StaleRef,
                "the page tool ref no longer resolves; list the page's tools again",
            )
            .with_context(json!({ "reason": r })),
            Some(r) => Self::new(Code::StaleRef, "the ref no longer resolves; observe again")
                .with_context(json!({ "reason": r })),
            None => Self::new(Code::StaleRef, "the ref does not resolve; observe again"),
        };
        e.stale = Some(reason);
        e
    }

    /// The wire form: `{code, message, retryable, context?}`.
    pub fn to_json(&self) -> Value {
        let mut v = json!({
            "code": self.code.as_str(),
            "message": self.message,
            "retryable": self.code.retryable(),
        });
        if let (Some(ctx), Some(obj)) = (&self.context, v.as_object_mut()) {
            obj.insert("context".to_string(), ctx.clone());
        }
        v
    }

    /// Rebuild an error from its wire form (used by clients).
    pub fn from_json(v: &Value) -> Self {
        let code = v
            .get("code")
            .and_then(Value::as_str)
            .unwrap_or("internal_error");
        let message = v
            .get("message")
            .and_then(Value::as_str)
            .unwrap_or("")
            .to_string();
        let code = Code::parse(code).unwrap_or(Code::InternalError);
        Self {
            code,
            message,
            context: v.get("context").cloned(),
            stale: None,
        }
    }
}

impl fmt::Display for BpError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}: {}", self.code.as_str(), self.message)
    }
}

impl std::error::Error for BpError {}

/// Result alias for broker operations.
pub type BpResult<T> = Result<T, BpError>;

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_code_round_trips_through_its_spelling() {
        assert_eq!(Code::ALL.len(), CODES.len());
        for code in Code::ALL {
            assert_eq!(Code::parse(code.as_str()), Some(code));
        }
        assert_eq!(Code::BrokerNotRunning.as_str(), "broker_not_running");
        assert!(!Code::BrokerNotRunning.retryable());
    }
}
