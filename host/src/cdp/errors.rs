//! Browser refusals turned into stable codes. The browser's own message
//! says what went wrong in its terms; a client gets the code that says what
//! to do about it, and the browser's text only in the message.

use crate::error::{BpError, Code, StaleReason};
use serde_json::json;
use std::time::Duration;

/// Messages Chromium gives when the node, context or target a command
/// names is gone, and the stale reason each means.
const GONE: [(&str, StaleReason); 8] = [
    ("No node with given id", StaleReason::DocumentReplaced),
    (
        "Could not find node with given id",
        StaleReason::DocumentReplaced,
    ),
    (
        "Node is detached from document",
        StaleReason::DocumentReplaced,
    ),
    (
        "Cannot find context with specified id",
        StaleReason::Navigation,
    ),
    ("Execution context was destroyed", StaleReason::Navigation),
    (
        "Session with given id not found",
        StaleReason::SessionReplaced,
    ),
    ("No target with given id", StaleReason::TargetClosed),
    // Our own answer to a command pending when the renderer crashed.
    (super::CRASHED, StaleReason::TargetCrashed),
];

/// Messages that mean the element exists but has no box to act on.
const NOT_VISIBLE: [&str; 3] = [
    "Node does not have a layout object",
    "Could not compute box model",
    "Node is not visible",
];

/// The browser refused `method` with `message`.
pub fn refused(method: &str, message: &str) -> BpError {
    if let Some((_, reason)) = GONE.iter().find(|(m, _)| message.contains(m)) {
        return match reason {
            StaleReason::TargetCrashed => crashed(),
            r => BpError::stale(*r),
        };
    }
    let text = format!("{method}: {message}");
    if NOT_VISIBLE.iter().any(|m| message.contains(m)) {
        return BpError::new(Code::ActionNotVerified, text)
            .with_context(json!({"reason": "not_visible"}));
    }
    // Any other refusal: the browser would not do it. Nothing is known
    // to have happened; observe before deciding what to try instead.
    BpError::new(Code::ActionNotVerified, text)
        .with_context(json!({"reason": "browser_refused", "method": method}))
}

/// The tab's renderer crashed: `stale_ref` with reason `target_crashed`,
/// and what to do about it.
pub fn crashed() -> BpError {
    let mut e = BpError::stale(StaleReason::TargetCrashed);
    e.message = "the tab's page crashed; navigate or reload it to recover, or close it".into();
    e
}

/// The browser did not answer `method` in time (a stalled or paused
/// browser): retry later, or reconnect.
pub fn unresponsive(method: &str, waited: Duration) -> BpError {
    BpError::new(
        Code::BrowserDisconnected,
        format!(
            "the browser did not answer {method} within {} s",
            waited.as_secs()
        ),
    )
    .with_context(json!({"reason": "browser_unresponsive"}))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn known_refusals_get_stable_codes() {
        let e = refused("DOM.resolveNode", "No node with given id found");
        assert_eq!(e.code, Code::StaleRef);
        assert_eq!(e.context.unwrap()["reason"], "document_replaced");
        let e = refused(
            "DOM.scrollIntoViewIfNeeded",
            "Node does not have a layout object",
        );
        assert_eq!(e.code, Code::ActionNotVerified);
        assert_eq!(e.context.unwrap()["reason"], "not_visible");
        let e = refused("Runtime.evaluate", "Cannot find context with specified id");
        assert_eq!(e.code, Code::StaleRef);
        let e = refused("X.y", "something new");
        assert_eq!(e.code, Code::ActionNotVerified);
        assert_eq!(e.context.unwrap()["reason"], "browser_refused");
        let e = unresponsive("Page.navigate", Duration::from_secs(30));
        assert_eq!(e.code, Code::BrowserDisconnected);
        assert!(e.message.contains("Page.navigate"));
    }
}
