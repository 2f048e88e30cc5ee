//! How a component call that did not return ends: stopped by the host
//! (deadline, memory) or by its own trap. The mapping of typed
//! `tool-error`s is the capabilities' and lives in `crate::wit::errors`.

pub use crate::wit::errors::*;

use crate::error::BpError;
use serde_json::json;

/// A component stopped by the host (deadline, memory) or by its own trap.
pub fn component_failed(component: &str, reason: &str, what: &str) -> BpError {
    BpError::internal(format!("component `{component}` {what}"))
        .with_context(json!({"component": component, "reason": reason}))
}

/// Classify a trap.
pub fn from_trap(component: &str, err: &wasmtime::Error) -> BpError {
    if let Some(bp) = err.downcast_ref::<BpError>() {
        return bp.clone();
    }
    match err.downcast_ref::<wasmtime::Trap>() {
        Some(wasmtime::Trap::Interrupt) => component_failed(
            component,
            "deadline",
            "did not finish within its time budget",
        ),
        // The limiter's own typed error, never wasmtime's message text.
        _ if err
            .downcast_ref::<crate::runtime::pool::limits::MemoryExceeded>()
            .is_some() =>
        {
            component_failed(component, "memory", "exceeded its memory limit")
        }
        _ => component_failed(component, "trap", "trapped"),
    }
}
