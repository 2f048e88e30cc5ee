//! What a page read sent right behind an input has to show to be taken
//! (`observe/proved_read.rs`): the [`Proof`] kinds, which also index the
//! registry's read-back counters, and `count_reached`, the proof by one
//! of the page's event counts. A leaf: it imports nothing from `browser/`.

use serde_json::Value;

/// What a read sent with an input has to show (its value indexes the
/// registry's counters).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Proof {
    /// The typed text is in the field.
    Typed,
    /// The page has dispatched the click's release.
    Clicked,
    /// The focused element's document has dispatched the key's release.
    Keyed,
}

/// A proof by one of the page's event counts: the read's `field` shows
/// at least `want` (`js::POINTERUPS`, `js::KEYUPS_OF_THIS`).
pub(super) fn count_reached(field: &'static str, want: u64) -> impl Fn(&Value) -> bool + Sync {
    move |v| v[field].as_u64().is_some_and(|n| n >= want)
}
