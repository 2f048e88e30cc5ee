//! Unit tests of the read-back checks.

use super::change::shows;

fn items() -> Vec<(String, String)> {
    vec![("a".into(), "1".into()), ("b".into(), "2".into())]
}

#[test]
fn a_set_shows_only_with_the_value_asked_for() {
    assert!(shows(&items(), Some("a"), Some("1")));
    assert!(!shows(&items(), Some("a"), Some("2")));
    assert!(!shows(&items(), Some("c"), Some("1")));
}

#[test]
fn a_removal_shows_when_the_key_or_everything_is_gone() {
    assert!(shows(&items(), Some("c"), None));
    assert!(!shows(&items(), Some("a"), None));
    assert!(!shows(&items(), None, None));
    assert!(shows(&[], None, None));
}
