//! Mapping between broker errors, WIT `tool-error`s and traps.

use super::types::{Interruption, NotVerified, StaleReason as Reason, ToolError};
use crate::error::{BpError, Code, StaleReason};
use serde_json::json;

impl From<StaleReason> for Reason {
    fn from(r: StaleReason) -> Self {
        match r {
            StaleReason::Navigation => Reason::Navigation,
            StaleReason::LoaderReplaced => Reason::LoaderReplaced,
            StaleReason::DocumentReplaced => Reason::DocumentReplaced,
            StaleReason::FrameChanged => Reason::FrameChanged,
            StaleReason::FrameDetached => Reason::FrameDetached,
            StaleReason::SessionReplaced => Reason::SessionReplaced,
            StaleReason::TargetDetached => Reason::TargetDetached,
            StaleReason::BrowserReconnected => Reason::BrowserReconnected,
            StaleReason::TargetIneligible => Reason::TargetIneligible,
            StaleReason::TargetClosed => Reason::TargetClosed,
            // Components know no crash; the broker tells it apart again
            // from the target's state (`target_tools.rs`).
            StaleReason::TargetCrashed => Reason::TargetDetached,
            StaleReason::ControlReleased => Reason::ControlReleased,
            StaleReason::Expired => Reason::Expired,
            StaleReason::NotFound => Reason::NotFound,
            StaleReason::FocusChanged => Reason::FocusChanged,
            StaleReason::DialogOpened => Reason::DialogOpened,
            StaleReason::DocumentChanged => Reason::DocumentChanged,
            StaleReason::ToolRemoved => Reason::ToolRemoved,
        }
    }
}

impl From<Reason> for StaleReason {
    fn from(r: Reason) -> Self {
        match r {
            Reason::Navigation => StaleReason::Navigation,
            Reason::LoaderReplaced => StaleReason::LoaderReplaced,
            Reason::DocumentReplaced => StaleReason::DocumentReplaced,
            Reason::FrameChanged => StaleReason::FrameChanged,
            Reason::FrameDetached => StaleReason::FrameDetached,
            Reason::SessionReplaced => StaleReason::SessionReplaced,
            Reason::TargetDetached => StaleReason::TargetDetached,
            Reason::BrowserReconnected => StaleReason::BrowserReconnected,
            Reason::TargetIneligible => StaleReason::TargetIneligible,
            Reason::TargetClosed => StaleReason::TargetClosed,
            Reason::ControlReleased => StaleReason::ControlReleased,
            Reason::Expired => StaleReason::Expired,
            Reason::NotFound => StaleReason::NotFound,
            Reason::FocusChanged => StaleReason::FocusChanged,
            Reason::DialogOpened => StaleReason::DialogOpened,
            Reason::DocumentChanged => StaleReason::DocumentChanged,
            Reason::ToolRemoved => StaleReason::ToolRemoved,
        }
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
        Code::StaleRef => ToolError::StaleRef(e.stale.unwrap_or(StaleReason::NotFound).into()),
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
        Code::ActionFailed => ToolError::ActionFailed(e.message),
        Code::FeatureUnavailable => ToolError::Unavailable(e.message),
        Code::Timeout => ToolError::Timeout(e.message),
        _ => ToolError::Internal(e.message),
    }
}

/// A component's typed failure as a broker error.
pub fn from_tool_error(e: ToolError) -> BpError {
    match e {
        ToolError::InvalidArgument(m) => BpError::invalid(m),
        ToolError::StaleRef(reason) => BpError::stale(reason.into()),
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
        // The message is the page's: data in the context, never the
        // error's own words.
        ToolError::ActionFailed(m) => BpError::new(
            Code::ActionFailed,
            "the page's tool failed; what the page said is page data, in context.pageData.message",
        )
        .with_context(json!({"pageData": {"message": crate::sanitize::invisible::clean(&m)}})),
        ToolError::Unavailable(m) => BpError::new(Code::FeatureUnavailable, m),
        ToolError::Timeout(m) => BpError::new(Code::Timeout, m),
        ToolError::Internal(m) => BpError::internal(m),
    }
}

fn action_not_verified(nv: NotVerified) -> BpError {
    let covering_name = nv
        .covering_name
        .as_deref()
        .map(crate::sanitize::invisible::clean);
    let message = match (&nv.covering_role, &covering_name) {
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
            json!(covering_name.unwrap_or_default()),
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
        "reason": StaleReason::from(i.reason).as_str().unwrap_or("page_changed"),
        "dispatchedSteps": i.dispatched_steps,
        "remainingStepsStopped": i.remaining_steps_stopped,
    }))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn page_words_in_errors_lose_their_invisible_characters() {
        let e = from_tool_error(ToolError::ActionFailed(
            "De\u{200b}lete\u{e0041}\u{e0042} now".into(),
        ));
        let ctx = e.context.unwrap_or_default();
        assert_eq!(ctx["pageData"]["message"], "Delete now");
        let e = from_tool_error(ToolError::ActionNotVerified(NotVerified {
            reason: "covered".into(),
            covering_role: Some("dialog".into()),
            covering_name: Some("Coo\u{2060}kies\u{202e}".into()),
        }));
        assert_eq!(e.message, "the element is covered by dialog \"Cookies\"");
        assert_eq!(e.context.unwrap_or_default()["coveringName"], "Cookies");
    }
}
