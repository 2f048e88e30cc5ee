//! Unit tests of the pure logic: steps, edges, growth and the refusal of
//! a box that does not scroll.

use super::metrics::{delta, Metrics};
use super::scroll::refusal;
use crate::error::Code;
use crate::wit::page_scroll::{Direction, Step};
use serde_json::json;

fn list(y: f64) -> Metrics {
    Metrics::from_value(
        &json!({"x": 0, "y": y, "cw": 300, "ch": 200, "sw": 300, "sh": 1000,
        "sx": false, "sy": true, "count": 40}),
    )
    .expect("a probe reply")
}

#[test]
fn a_step_defaults_to_one_visible_box() {
    let m = list(0.0);
    let down = Step {
        direction: Direction::Down,
        amount: None,
    };
    assert_eq!(delta(&down, &m), (0.0, 200.0));
    let up = Step {
        direction: Direction::Up,
        amount: Some(50),
    };
    assert_eq!(delta(&up, &m), (0.0, -50.0));
    let left = Step {
        direction: Direction::Left,
        amount: None,
    };
    assert_eq!(delta(&left, &m), (-300.0, 0.0));
}

#[test]
fn edges_are_where_it_cannot_move_further() {
    assert!(list(0.0).at_edge(Direction::Up));
    assert!(!list(0.0).at_edge(Direction::Down));
    assert!(list(800.0).at_edge(Direction::Down));
    assert!(list(799.5).at_edge(Direction::Down));
    assert!(!list(700.0).at_edge(Direction::Down));
}

#[test]
fn growth_is_a_taller_box_or_more_elements() {
    let before = list(0.0);
    assert!(!list(100.0).grew_since(&before));
    let mut taller = list(100.0);
    taller.sh = 1400.0;
    assert!(taller.grew_since(&before));
    let mut more = list(100.0);
    more.count = 41;
    assert!(more.grew_since(&before));
}

#[test]
fn a_box_that_does_not_scroll_that_way_is_refused() {
    let m = list(0.0);
    assert!(refusal(&m, Direction::Down).is_ok());
    let err = refusal(&m, Direction::Right).expect_err("no horizontal overflow");
    assert_eq!(err.code, Code::InvalidArgument);
    assert!(
        err.message.contains("does not scroll horizontally"),
        "{}",
        err.message
    );
    let mut hidden = m;
    hidden.sy = false;
    assert!(refusal(&hidden, Direction::Down).is_err());
    assert!(Metrics::from_value(&json!({"x": 1})).is_none());
}
