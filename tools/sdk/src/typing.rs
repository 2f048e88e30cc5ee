//! The part of typing into a field that every component typing through
//! the `input` capability shares: which steps a `type` takes, and whether
//! the value read back afterwards holds the text. (The input family's
//! `browser.type` and the form family's `browser.fill_form` both type;
//! the steps themselves go through the host's `input` imports.)

/// How long, by default, a field is waited for to be ready for input
/// (attached, visible, stable, enabled) before typing into it, in ms.
pub const READY_WAIT_MS: u32 = 2_000;

/// The steps of one `type`. With `clear`, the content is selected (by the
/// focusing page call when `selected`, else with Control+A) and then
/// replaced by the inserted text, or deleted when the text is empty.
pub fn type_steps(clear: bool, selected: bool, text: &str, submit: bool) -> Vec<&'static str> {
    let mut steps = vec!["focus"];
    if clear && !selected {
        steps.push("select_all");
    }
    if clear && (text.is_empty() || !selected) {
        steps.push("delete");
    }
    steps.push("insert_text");
    if submit {
        steps.push("submit");
    }
    steps
}

/// A field's value, as read before or after typing: the value (none for
/// a password field, whose value is withheld) and its length in UTF-16
/// code units.
#[derive(Debug, Clone, Copy)]
pub struct Read<'a> {
    pub value: Option<&'a str>,
    pub length: u32,
}

/// Whether `after` shows `text` typed into the field that read `before`:
/// with `clear`, the value is exactly the text; without, the text is in
/// it and typing changed it (a field that already held it proves
/// nothing). Password fields are judged by length alone.
pub fn typed_matches(before: Read<'_>, after: Read<'_>, text: &str, clear: bool) -> bool {
    let expected = u32::try_from(text.encode_utf16().count()).unwrap_or(u32::MAX);
    match (after.value, clear) {
        (Some(v), true) => v == text,
        (Some(v), false) => v.contains(text) && (text.is_empty() || before.value != Some(v)),
        (None, true) => after.length == expected,
        (None, false) => after.length >= before.length.saturating_add(expected),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn read(value: Option<&str>, length: u32) -> Read<'_> {
        Read { value, length }
    }

    #[test]
    fn steps_select_and_delete_only_when_needed() {
        assert_eq!(
            type_steps(false, false, "a", false),
            ["focus", "insert_text"]
        );
        assert_eq!(
            type_steps(true, false, "a", true),
            ["focus", "select_all", "delete", "insert_text", "submit"]
        );
        assert_eq!(type_steps(true, true, "a", false), ["focus", "insert_text"]);
        assert_eq!(
            type_steps(true, true, "", false),
            ["focus", "delete", "insert_text"]
        );
    }

    #[test]
    fn a_value_matches_when_the_text_reads_back() {
        let empty = read(Some(""), 0);
        assert!(typed_matches(empty, read(Some("Ada"), 3), "Ada", true));
        assert!(!typed_matches(empty, read(Some("Ad"), 2), "Ada", true));
        let held = read(Some("Ada"), 3);
        assert!(!typed_matches(held, read(Some("Ada"), 3), "Ada", false));
        assert!(typed_matches(read(None, 2), read(None, 5), "abc", false));
        assert!(typed_matches(read(None, 9), read(None, 3), "abc", true));
    }
}
