//! Unit tests of the pure part of a wait.

use super::condition::*;
use crate::wit::page_wait::{Condition, NodeCondition, NodeState, StableCondition};

#[test]
fn polls_back_off_from_50_to_250_ms() {
    let ms: Vec<u128> = (0..6).map(|n| interval(n).as_millis()).collect();
    assert_eq!(ms, vec![50, 100, 200, 250, 250, 250]);
    assert_eq!(interval(u32::MAX).as_millis(), 250);
}

#[test]
fn url_globs_match_the_whole_url() {
    let cases = [
        (
            "http://127.0.0.1:*/done.html",
            "http://127.0.0.1:8000/done.html",
            true,
        ),
        ("*/done.html", "http://127.0.0.1:8000/done.html", true),
        ("*/done.html", "http://127.0.0.1:8000/done.html?x=1", false),
        ("*/done.html*", "http://127.0.0.1:8000/done.html?x=1", true),
        ("http://127.0.0.1:800?/*", "http://127.0.0.1:8000/a", true),
        ("http://example.com/*", "http://127.0.0.1/", false),
        ("*", "", true),
        ("", "", true),
        ("a*b*c", "aXXbYYc", true),
        ("a*b*c", "aXXbYY", false),
    ];
    for (glob, url, expected) in cases {
        assert_eq!(glob_matches(glob, url), expected, "{glob} {url}");
    }
}

#[test]
fn node_states_against_reads() {
    let read = |connected, visible, enabled| NodeRead {
        connected,
        visible,
        enabled,
        text: String::new(),
    };
    use NodeState::*;
    let cases = [
        (Visible, Some(read(true, true, true)), true),
        (Visible, Some(read(true, false, true)), false),
        (Visible, None, false),
        (Hidden, Some(read(true, false, true)), true),
        (Hidden, Some(read(false, true, true)), true),
        (Hidden, None, true),
        (Enabled, Some(read(true, true, false)), false),
        (Enabled, Some(read(true, false, true)), true),
        (Enabled, Some(read(false, true, true)), false),
        (Detached, Some(read(true, true, true)), false),
        (Detached, Some(read(false, false, false)), true),
        (Detached, None, true),
    ];
    for (state, r, expected) in cases {
        assert_eq!(
            node_satisfies(state, r.as_ref()),
            expected,
            "{state:?} {r:?}"
        );
    }
}

#[test]
fn text_is_found_as_a_person_reads_it() {
    assert!(contains_text("Order\n  placed   today", "Order placed"));
    assert!(!contains_text("Order\n  placed   today", "order placed"));
    assert!(!contains_text("Loading…", "Order placed"));
}

#[test]
fn a_stable_wait_needs_the_same_text_for_the_quiet_period() {
    let mut q = Quiet::new(300);
    assert!(!q.settled("Hel", 0));
    assert!(!q.settled("Hello", 100));
    assert!(!q.settled("Hello", 350));
    assert!(q.settled("Hello", 400));
    assert!(!q.settled("Hello, world", 450));
    assert!(q.settled("Hello, world", 750));
}

#[test]
fn timeouts_describe_the_condition_without_page_text() {
    let long = "x".repeat(500);
    let d = describe(&Condition::Text(long));
    assert!(d.len() < 100, "{d}");
    assert_eq!(
        describe(&Condition::Node(NodeCondition {
            node: 3,
            state: NodeState::Enabled
        })),
        "the element to be enabled"
    );
    assert!(describe(&Condition::Stable(StableCondition {
        node: 1,
        quiet_ms: 500
    }))
    .contains("500 ms"));
}
