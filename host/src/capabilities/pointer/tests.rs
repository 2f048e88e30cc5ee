//! Unit tests of the pointer capability's pure parts: the paths the
//! pointer moves along, the viewport check, what the pointer position
//! memory keeps, and what the probes' readings say changed.

use super::hover::{count_of, covered};
use super::position::{inside, last, path, remember};
use super::probes::{names, Change, Source, NAMES};
use crate::browser::types::Point;
use crate::error::Code;
use serde_json::json;

fn p(x: f64, y: f64) -> Point {
    Point { x, y }
}

#[test]
fn a_path_moves_in_even_steps_and_ends_at_the_target() {
    let points = path(Some(p(0.0, 0.0)), p(100.0, 50.0), 5);
    assert_eq!(points.len(), 5);
    assert_eq!(points[0], p(20.0, 10.0));
    assert_eq!(points[4], p(100.0, 50.0));
    // Unknown start, or no distance: one move straight there.
    assert_eq!(path(None, p(3.0, 4.0), 5), vec![p(3.0, 4.0)]);
    assert_eq!(path(Some(p(3.2, 4.0)), p(3.0, 4.0), 5), vec![p(3.0, 4.0)]);
    assert_eq!(path(Some(p(0.0, 0.0)), p(10.0, 0.0), 0).len(), 1);
}

#[test]
fn only_points_in_the_viewport_are_inside() {
    assert!(inside(p(0.0, 0.0), 800.0, 600.0));
    assert!(inside(p(799.0, 599.0), 800.0, 600.0));
    assert!(!inside(p(800.0, 10.0), 800.0, 600.0));
    assert!(!inside(p(10.0, -1.0), 800.0, 600.0));
    assert!(!inside(p(5000.0, 5000.0), 800.0, 600.0));
}

#[test]
fn the_pointer_is_remembered_per_tab() {
    remember("tab-a-unit", p(1.0, 2.0));
    remember("tab-b-unit", p(3.0, 4.0));
    assert_eq!(last("tab-a-unit"), Some(p(1.0, 2.0)));
    assert_eq!(last("tab-b-unit"), Some(p(3.0, 4.0)));
    assert_eq!(last("tab-never-unit"), None);
}

fn source(x: f64, index: i64, value: Option<&str>) -> Source {
    Source {
        x,
        y: 10.0,
        index,
        siblings: format!("A|B|C#{index}"),
        parent: "UL:list:#0".into(),
        connected: true,
        value: value.map(str::to_string),
    }
}

#[test]
fn a_drag_change_is_a_move_a_new_place_or_a_new_value() {
    let before = source(10.0, 0, Some("5"));
    assert!(!Change::between(&before, &before).any());
    let moved = Change::between(&before, &source(40.0, 0, Some("5")));
    assert!(moved.moved && !moved.order_changed && !moved.value_changed);
    let reordered = Change::between(&before, &source(10.0, 2, Some("5")));
    assert!(reordered.order_changed);
    let slid = Change::between(&before, &source(10.0, 0, Some("7")));
    assert!(slid.value_changed && !slid.moved);
    let mut gone = source(99.0, 3, None);
    gone.connected = false;
    assert!(!Change::between(&before, &gone).any());
    assert!(Source::from_value(&json!({"x": 1})).is_none());
}

#[test]
fn appeared_names_are_bounded_and_cleaned() {
    let v = json!({"count": 9, "names": ["Sub\u{200b}item", "", "b", "c", "d", "e", "f"]});
    let n = names(&v);
    assert_eq!(n.len(), NAMES);
    assert_eq!(n[0], "Subitem");
    assert_eq!(count_of(&v), 9);
    assert_eq!(count_of(&json!({})), 0);
}

#[test]
fn a_covered_target_names_its_cover() {
    let e = covered("dialog", "Coo\u{2060}kies");
    assert_eq!(e.code, Code::ActionNotVerified);
    let ctx = e.context.unwrap_or_default();
    assert_eq!(ctx["reason"], "covered");
    assert_eq!(ctx["coveringName"], "Cookies");
}
