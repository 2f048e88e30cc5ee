//! Conversions of `input` between the generated WIT types and the
//! browser's domain types. Records are destructured and enums matched
//! variant by variant, without wildcards, so a field or variant added on
//! either side fails to compile here instead of being dropped silently.

use crate::browser::types as domain;
use crate::wit::input;

impl From<input::Point> for domain::Point {
    fn from(p: input::Point) -> Self {
        let input::Point { x, y } = p;
        Self { x, y }
    }
}

impl From<domain::Point> for input::Point {
    fn from(p: domain::Point) -> Self {
        let domain::Point { x, y } = p;
        Self { x, y }
    }
}

impl From<domain::Hit> for input::Hit {
    fn from(h: domain::Hit) -> Self {
        let domain::Hit {
            on_target,
            role,
            name,
            part,
        } = h;
        Self {
            on_target,
            role,
            name,
            part,
        }
    }
}

impl From<input::MouseButton> for domain::MouseButton {
    fn from(b: input::MouseButton) -> Self {
        match b {
            input::MouseButton::Left => Self::Left,
            input::MouseButton::Middle => Self::Middle,
            input::MouseButton::Right => Self::Right,
        }
    }
}

/// WIT flags are bit sets: a flag added to `modifiers` needs a field here.
impl From<input::Modifiers> for domain::Modifiers {
    fn from(m: input::Modifiers) -> Self {
        Self {
            alt: m.contains(input::Modifiers::ALT),
            ctrl: m.contains(input::Modifiers::CTRL),
            meta: m.contains(input::Modifiers::META),
            shift: m.contains(input::Modifiers::SHIFT),
        }
    }
}

impl From<domain::ElementAt> for input::FoundElement {
    fn from(f: domain::ElementAt) -> Self {
        Self {
            role: f.role,
            name: f.name,
            tag: f.tag,
        }
    }
}
