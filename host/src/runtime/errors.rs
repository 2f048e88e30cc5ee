//! Mapping between broker errors, WIT `tool-error`s and traps.

use super::bindings::types::{Interruption, NotVerified, StaleReason, ToolError};
use crate::error::{BpError, Code};
use serde_json::json;

/// Wire spelling of a stale reason.
pub fn reason_name(reason: StaleReason) -> Option<&'static str> {
    Some(match reason {
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
        StaleReason::ControlReleased => "control_released",
        StaleReason::Expired => "expired",
        StaleReason::FocusChanged => "focus_changed",
        StaleReason::DialogOpened => "dialog_opened",
        StaleReason::NotFound => return None,
    })
}

fn reason_from_name(name: &str) -> StaleReason {
    match name {
        "navigation" => StaleReason::Navigation,
        "loader_replaced" => StaleReason::LoaderReplaced,
        "document_replaced" => StaleReason::DocumentReplaced,
        "frame_changed" => StaleReason::FrameChanged,
        "frame_detached" => StaleReason::FrameDetached,
        "session_replaced" => StaleReason::SessionReplaced,
        "target_detached" => StaleReason::TargetDetached,
        "browser_reconnected" => StaleReason::BrowserReconnected,
        "target_ineligible" => StaleReason::TargetIneligible,
        "target_closed" => StaleReason::TargetClosed,
        "control_released" => StaleReason::ControlReleased,
        "expired" => StaleReason::Expired,
        "focus_changed" => StaleReason::FocusChanged,
        "dialog_opened" => StaleReason::DialogOpened,
        _ => StaleReason::NotFound,
    }
}

fn ctx_str(e: &BpError, key: &str) -> Option<String> {
    e.context
        .as_ref()
        .and_then(|c| c.get(key))
        .and_then(|v| v.as_str())
        .map(str::to_string)
}

/// A broker error as seen by a component.
pub fn to_tool_error(e: BpError) -> ToolError {
    match e.code {
        Code::InvalidArgument => ToolError::InvalidArgument(e.message),
        Code::StaleRef => {
            ToolError::StaleRef(reason_from_name(&ctx_str(&e, "reason").unwrap_or_default()))
        }
        Code::CapabilityDenied => ToolError::CapabilityDenied(e.message),
        Code::TargetBusy => ToolError::TargetBusy,
        Code::TargetNotOwned => ToolError::TargetNotOwned,
        Code::ActionNotVerified => ToolError::ActionNotVerified(NotVerified {
            reason: ctx_str(&e, "reason").unwrap_or_else(|| "not_verified".into()),
            covering_role: ctx_str(&e, "coveringRole"),
            covering_name: ctx_str(&e, "coveringName"),
        }),
        Code::BrowserDisconnected => ToolError::BrowserDisconnected,
        Code::ResultTooLarge => ToolError::ResultTooLarge(e.message),
        _ => ToolError::Internal(e.message),
    }
}

/// A component's typed failure as a broker error.
pub fn from_tool_error(e: ToolError) -> BpError {
    match e {
        ToolError::InvalidArgument(m) => BpError::invalid(m),
        ToolError::StaleRef(reason) => match reason_name(reason) {
            Some(r) => BpError::stale(r),
            None => BpError::new(Code::StaleRef, "the ref does not resolve; observe again"),
        },
        ToolError::CapabilityDenied(m) => BpError::new(Code::CapabilityDenied, m),
        ToolError::TargetBusy => {
            BpError::new(Code::TargetBusy, "another lease controls this target")
        }
        ToolError::TargetNotOwned => BpError::new(
            Code::TargetNotOwned,
            "the target is not owned by this workspace",
        ),
        ToolError::ActionNotVerified(nv) => action_not_verified(nv),
        ToolError::UnknownOutcome(i) => unknown_outcome(i),
        ToolError::BrowserDisconnected => BpError::disconnected(),
        ToolError::ResultTooLarge(m) => BpError::new(Code::ResultTooLarge, m),
        ToolError::Internal(m) => BpError::internal(m),
    }
}

fn action_not_verified(nv: NotVerified) -> BpError {
    let message = match (&nv.covering_role, &nv.covering_name) {
        (Some(role), Some(name)) => format!("the element is covered by {role} \"{name}\""),
        _ => format!(
            "the action was not performed: {}",
            nv.reason.replace('_', " ")
        ),
    };
    let mut ctx = json!({"reason": nv.reason});
    if let (Some(obj), Some(role)) = (ctx.as_object_mut(), nv.covering_role) {
        obj.insert("coveringRole".into(), json!(role));
        obj.insert(
            "coveringName".into(),
            json!(nv.covering_name.unwrap_or_default()),
        );
    }
    BpError::new(Code::ActionNotVerified, message).with_context(ctx)
}

fn unknown_outcome(i: Interruption) -> BpError {
    BpError::new(
        Code::UnknownOutcome,
        format!(
            "the page changed during `{}` at step `{}`",
            i.action, i.step
        ),
    )
    .with_context(json!({
        "action": i.action,
        "step": i.step,
        "reason": reason_name(i.reason).unwrap_or("page_changed"),
        "dispatchedSteps": i.dispatched_steps,
        "remainingStepsStopped": i.remaining_steps_stopped,
    }))
}

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
        _ => {
            let text = format!("{err:#}");
            // The store limiter's own trap (trap_on_grow_failure).
            if text.contains("forcing trap when growing memory") {
                component_failed(component, "memory", "exceeded its memory limit")
            } else {
                component_failed(component, "trap", "trapped")
            }
        }
    }
}
