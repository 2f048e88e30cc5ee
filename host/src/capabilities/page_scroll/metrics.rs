//! The page-side probes of a scroll and the pure logic over what they
//! read: how far a step goes, whether a box scrolls in a direction,
//! whether it is at its edge, and whether its content grew.

use crate::wit::page_scroll::{Direction, Offset, Step};
use serde_json::Value;

/// Reads the page's scroll state (the document's scrolling element).
pub const PAGE_PROBE: &str = r#"(() => {
  const s = document.scrollingElement || document.documentElement;
  return {x: window.scrollX, y: window.scrollY, cw: s.clientWidth, ch: s.clientHeight,
    sw: s.scrollWidth, sh: s.scrollHeight, sx: true, sy: true,
    count: document.getElementsByTagName('*').length};
})()"#;

/// Reads a node's scroll state and whether its overflow lets it scroll.
pub const NODE_PROBE: &str = r#"function () {
  const el = this;
  const cs = getComputedStyle(el);
  const ok = v => v === 'auto' || v === 'scroll' || v === 'overlay';
  return {x: el.scrollLeft, y: el.scrollTop, cw: el.clientWidth, ch: el.clientHeight,
    sw: el.scrollWidth, sh: el.scrollHeight, sx: ok(cs.overflowX), sy: ok(cs.overflowY),
    count: document.getElementsByTagName('*').length};
}"#;

/// Slack for fractional offsets (zoom, device pixels).
const SLACK: f64 = 1.0;

/// The scroll state of the page or of one box, as the probes read it.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Metrics {
    pub x: f64,
    pub y: f64,
    /// The visible box (client width and height).
    pub cw: f64,
    pub ch: f64,
    /// The scrollable content.
    pub sw: f64,
    pub sh: f64,
    /// Whether overflow lets it scroll across (x) and down (y).
    pub sx: bool,
    pub sy: bool,
    /// Elements in the document.
    pub count: u64,
}

impl Metrics {
    /// Parse a probe's reply; `None` when it is not one.
    pub fn from_value(v: &Value) -> Option<Self> {
        let f = |k: &str| v[k].as_f64();
        Some(Self {
            x: f("x")?,
            y: f("y")?,
            cw: f("cw")?,
            ch: f("ch")?,
            sw: f("sw")?,
            sh: f("sh")?,
            sx: v["sx"].as_bool()?,
            sy: v["sy"].as_bool()?,
            count: v["count"].as_u64()?,
        })
    }

    pub fn offset(&self) -> Offset {
        Offset {
            x: self.x,
            y: self.y,
        }
    }

    fn max_x(&self) -> f64 {
        (self.sw - self.cw).max(0.0)
    }

    fn max_y(&self) -> f64 {
        (self.sh - self.ch).max(0.0)
    }

    /// Whether the box scrolls along the axis of `direction` at all.
    pub fn scrolls(&self, direction: Direction) -> bool {
        match direction {
            Direction::Up | Direction::Down => self.sy && self.max_y() > SLACK,
            Direction::Left | Direction::Right => self.sx && self.max_x() > SLACK,
        }
    }

    /// Whether it cannot move further towards `direction`.
    pub fn at_edge(&self, direction: Direction) -> bool {
        match direction {
            Direction::Up => self.y <= SLACK,
            Direction::Down => self.y >= self.max_y() - SLACK,
            Direction::Left => self.x <= SLACK,
            Direction::Right => self.x >= self.max_x() - SLACK,
        }
    }

    /// Whether the content is taller or wider, or the document has more
    /// elements, than `before`.
    pub fn grew_since(&self, before: &Metrics) -> bool {
        self.sh > before.sh + SLACK || self.sw > before.sw + SLACK || self.count > before.count
    }

    /// Whether the offsets differ from `other`'s.
    pub fn moved_from(&self, other: &Metrics) -> bool {
        (self.x - other.x).abs() > 0.5 || (self.y - other.y).abs() > 0.5
    }
}

/// The (dx, dy) of a step: its amount, or one visible box of `m` along
/// the direction's axis.
pub fn delta(step: &Step, m: &Metrics) -> (f64, f64) {
    let along = |visible: f64| step.amount.map_or(visible, f64::from);
    match step.direction {
        Direction::Up => (0.0, -along(m.ch)),
        Direction::Down => (0.0, along(m.ch)),
        Direction::Left => (-along(m.cw), 0.0),
        Direction::Right => (along(m.cw), 0.0),
    }
}

/// The word for a direction in messages.
pub fn word(direction: Direction) -> &'static str {
    match direction {
        Direction::Up => "up",
        Direction::Down => "down",
        Direction::Left => "left",
        Direction::Right => "right",
    }
}
