//! Where the pointer was left in each tab, and the paths it moves along.
//! The browser keeps the real pointer where the last mouse event put it;
//! the broker remembers the place its own hovers and drags left it, so
//! the next one moves on from there (a click moves straight to its
//! target, and is not remembered).

use crate::browser::types::Point;
use std::collections::HashMap;
use std::sync::Mutex;

/// Tabs remembered at most (the map is emptied when it is full).
const TABS: usize = 256;

static LEFT_AT: Mutex<Option<HashMap<String, Point>>> = Mutex::new(None);

/// Where the last hover or drag in the tab `key` left the pointer.
pub fn last(key: &str) -> Option<Point> {
    let guard = LEFT_AT.lock().ok()?;
    guard.as_ref()?.get(key).copied()
}

/// Remember that the pointer was left at `at` in the tab `key`.
pub fn remember(key: &str, at: Point) {
    if let Ok(mut guard) = LEFT_AT.lock() {
        let map = guard.get_or_insert_with(HashMap::new);
        if map.len() >= TABS && !map.contains_key(key) {
            map.clear();
        }
        map.insert(key.to_string(), at);
    }
}

/// The points of a move to `to` in `steps` even steps from `from` (the
/// last one is `to`); one point when the start is unknown or the same.
pub fn path(from: Option<Point>, to: Point, steps: u32) -> Vec<Point> {
    let Some(from) = from else {
        return vec![to];
    };
    let (dx, dy) = (to.x - from.x, to.y - from.y);
    if dx.abs() < 1.0 && dy.abs() < 1.0 {
        return vec![to];
    }
    let n = steps.max(1);
    (1..=n)
        .map(|i| {
            let t = f64::from(i) / f64::from(n);
            Point {
                x: from.x + dx * t,
                y: from.y + dy * t,
            }
        })
        .collect()
}

/// Whether `p` lies in a viewport of `width` by `height` CSS pixels.
pub fn inside(p: Point, width: f64, height: f64) -> bool {
    p.x >= 0.0 && p.y >= 0.0 && p.x < width && p.y < height
}
