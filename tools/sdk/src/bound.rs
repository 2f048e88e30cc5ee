//! Character bounds for strings that leave a component.

/// Cut `s` to at most `max` characters; returns the text and whether it was cut.
pub fn chars(s: &str, max: usize) -> (String, bool) {
    match s.char_indices().nth(max) {
        None => (s.to_string(), false),
        Some((idx, _)) => (s[..idx].to_string(), true),
    }
}

/// Number of UTF-16 code units, the unit the observation limits count in.
pub fn code_units(s: &str) -> usize {
    s.encode_utf16().count()
}
