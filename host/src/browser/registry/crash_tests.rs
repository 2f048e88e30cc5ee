//! A crashed renderer is noticed and reported.

use super::*;
use serde_json::json;

fn ev(method: &str, params: Value, session: Option<&str>) -> CdpEvent {
    CdpEvent {
        method: method.into(),
        params,
        session_id: session.map(str::to_string),
    }
}

fn navigated(loader: &str) -> CdpEvent {
    let frame = json!({"frame": {"id": "t1", "loaderId": loader, "url": "http://127.0.0.1/"}});
    ev("Page.frameNavigated", frame, Some("s1"))
}

#[test]
fn a_crash_on_the_session_marks_the_tab_until_a_new_document_or_a_detach() {
    let r = Registry::default();
    let info = json!({"targetId": "t1", "type": "page", "url": "about:blank", "title": ""});
    r.on_event(&ev(
        "Target.attachedToTarget",
        json!({"sessionId": "s1", "targetInfo": info}),
        None,
    ));
    r.on_event(&navigated("l1"));
    assert!(!r.crashed("t1"));
    r.on_event(&ev("Inspector.targetCrashed", json!({}), Some("s1")));
    assert!(r.crashed("t1"));
    // The same document reported again does not recover it.
    r.on_event(&navigated("l1"));
    assert!(r.crashed("t1"));
    r.on_event(&navigated("l2"));
    assert!(!r.crashed("t1"));
    r.on_event(&ev("Inspector.targetCrashed", json!({}), Some("s1")));
    r.on_event(&ev(
        "Target.detachedFromTarget",
        json!({"sessionId": "s1"}),
        None,
    ));
    assert!(!r.crashed("t1"));
    // A crash on a session the broker does not hold marks nothing.
    r.on_event(&ev("Inspector.targetCrashed", json!({}), Some("other")));
    assert!(!r.crashed("t1") && !r.crashed("other"));
}
