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
    InvalidArgument,
    InternalError,
}

impl Code {
    /// The wire spelling.
    pub fn as_str(self) -> &'static str {
        match self {
            Code::ProtocolIncompatible => "protocol_incompatible",
            Code::NotInitialized => "not_initialized",
            Code::CapabilityDenied => "capability_denied",
            Code::BrowserNotFound => "browser_not_found",
            Code::BrowserNotAuthorized => "browser_not_authorized",
            Code::BrowserDisconnected => "browser_disconnected",
            Code::BrokerInUse => "broker_in_use",
            Code::WorkspaceNotFound => "workspace_not_found",
            Code::LeaseExpired => "lease_expired",
            Code::TargetNotOwned => "target_not_owned",
            Code::TargetBusy => "target_busy",
            Code::StaleRef => "stale_ref",
            Code::CommandCancelled => "command_cancelled",
            Code::ActionNotVerified => "action_not_verified",
            Code::CommandExpired => "command_expired",
            Code::UnknownOutcome => "unknown_outcome",
            Code::ArtifactNotFound => "artifact_not_found",
            Code::ArtifactExpired => "artifact_expired",
            Code::CursorExpired => "cursor_expired",
            Code::ResultTooLarge => "result_too_large",
            Code::InvalidArgument => "invalid_argument",
            Code::InternalError => "internal_error",
        }
    }

    /// Every code, for parsing.
    pub const ALL: [Code; 22] = [
        Code::ProtocolIncompatible,
        Code::NotInitialized,
        Code::CapabilityDenied,
        Code::BrowserNotFound,
        Code::BrowserNotAuthorized,
        Code::BrowserDisconnected,
        Code::BrokerInUse,
        Code::WorkspaceNotFound,
        Code::LeaseExpired,
        Code::TargetNotOwned,
        Code::TargetBusy,
        Code::StaleRef,
        Code::CommandCancelled,
        Code::ActionNotVerified,
        Code::CommandExpired,
        Code::UnknownOutcome,
        Code::ArtifactNotFound,
        Code::ArtifactExpired,
        Code::CursorExpired,
        Code::ResultTooLarge,
        Code::InvalidArgument,
        Code::InternalError,
    ];

    /// Parse the wire spelling.
    pub fn parse(s: &str) -> Option<Code> {
        Self::ALL.iter().copied().find(|c| c.as_str() == s)
    }

    /// Whether retrying the same request may succeed.
    pub fn retryable(self) -> bool {
        matches!(
            self,
            Code::TargetBusy
                | Code::BrowserDisconnected
                | Code::ActionNotVerified
                | Code::LeaseExpired
        )
    }
}

/// A failure with its stable code. Messages never carry page data or secrets.
#[derive(Debug, Clone)]
pub struct BpError {
    pub code: Code,
    pub message: String,
    pub context: Option<Value>,
}

impl BpError {
    pub fn new(code: Code, message: impl Into<String>) -> Self {
        Self {
            code,
            message: message.into(),
            context: None,
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

    pub fn stale(reason: &str) -> Self {
        Self::new(Code::StaleRef, "the ref no longer resolves; observe again")
            .with_context(json!({ "reason": reason }))
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
