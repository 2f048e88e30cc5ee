//! What every capability interface shares: mapping a broker result into
//! an import's typed result.

use super::errors::to_tool_error;
use super::types::ToolError;
use crate::error::{BpResult, Code};

pub type Res<T> = wasmtime::Result<Result<T, ToolError>>;

/// Map a broker result into the import's typed result. Errors the WIT
/// `tool-error` cannot express faithfully (an unknown outcome, a lapsed
/// lease, a browser that stopped answering: its payload-less
/// `browser-disconnected` would lose why) end the call as a trap that
/// carries the broker error intact.
pub fn typed<T>(r: BpResult<T>) -> Res<T> {
    match r {
        Ok(v) => Ok(Ok(v)),
        Err(e) if carried_as_trap(e.code) => Err(wasmtime::Error::new(e)),
        Err(e) => Ok(Err(to_tool_error(e))),
    }
}

/// Errors no component may recover from go out as traps, whole: a policy
/// refusal (`capability_denied`) keeps its context (the page tool's
/// effect, which grant or level refused it) that way, and a missing
/// browser feature (`feature_unavailable`) its remediation.
fn carried_as_trap(code: Code) -> bool {
    matches!(
        code,
        Code::CapabilityDenied
            | Code::FeatureUnavailable
            | Code::UnknownOutcome
            | Code::BrowserDisconnected
            | Code::LeaseExpired
            | Code::WorkspaceNotFound
            | Code::CommandExpired
            | Code::CommandCancelled
    )
}
