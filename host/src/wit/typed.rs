//! What every capability interface shares: mapping a broker result into
//! an import's typed result.

use super::errors::to_tool_error;
use super::types::ToolError;
use crate::error::{BpError, Code};

/// Map a broker error into the import's `tool-error`. Errors the WIT
/// `tool-error` cannot express faithfully (an unknown outcome, a lapsed
/// lease, a browser that stopped answering: its payload-less
/// `browser-disconnected` would lose why) end the call as a trap that
/// carries the broker error intact.
pub fn tool_error(e: BpError) -> wasmtime::Result<ToolError> {
    if carried_as_trap(e.code) || carries_page_data(&e) {
        Err(wasmtime::Error::new(e))
    } else {
        Ok(to_tool_error(e))
    }
}

/// A refusal that carries page data in its context (an unknown option's
/// list of the options there are) goes out whole too: a WIT `tool-error`
/// has no room for it.
fn carries_page_data(e: &BpError) -> bool {
    e.context
        .as_ref()
        .is_some_and(|c| c.get("pageData").is_some())
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

/// Make a view answer the bindings' question of how a host function's
/// [`BpError`] crosses into WIT: through [`tool_error`], the same way for
/// every view, so host functions use `?` on broker results and never wrap
/// them. One line per view a capability is linked against.
#[macro_export]
macro_rules! tool_errors {
    ($view:ty) => {
        impl $crate::wit::types::Host for $view {
            fn convert_tool_error(
                &mut self,
                err: $crate::error::BpError,
            ) -> wasmtime::Result<$crate::wit::types::ToolError> {
                $crate::wit::typed::tool_error(err)
            }
        }
    };
}

/// Convert every item of a list (between WIT and broker records).
pub fn all<T, U: From<T>>(items: Vec<T>) -> Vec<U> {
    items.into_iter().map(U::from).collect()
}
