//! Unit tests of the bounded read.

use super::read::contents;
use crate::tab::{MAX_ITEMS, MAX_VALUE_CHARS};

fn pairs(n: usize) -> Vec<(String, String)> {
    (0..n)
        .map(|i| (format!("k{i:04}"), format!("v{i}")))
        .collect()
}

#[test]
fn all_keys_are_bounded_and_counted() {
    let c = contents("http://a.test".into(), pairs(MAX_ITEMS + 20), None);
    assert_eq!(c.items.len(), MAX_ITEMS);
    assert_eq!(c.total as usize, MAX_ITEMS + 20);
    assert_eq!(c.items[0].key, "k0000");
}

#[test]
fn one_key_or_none() {
    let c = contents("http://a.test".into(), pairs(5), Some("k0003"));
    assert_eq!(c.items.len(), 1);
    assert_eq!(c.items[0].value, "v3");
    assert_eq!(c.total, 5);
    let c = contents("http://a.test".into(), pairs(5), Some("absent"));
    assert!(c.items.is_empty());
}

#[test]
fn long_values_are_cut_and_say_so() {
    let long = "é".repeat(MAX_VALUE_CHARS + 1);
    let c = contents("http://a.test".into(), vec![("k".into(), long)], None);
    assert!(c.items[0].value_cut);
    assert_eq!(c.items[0].value.chars().count(), MAX_VALUE_CHARS);
    let c = contents(
        "http://a.test".into(),
        vec![("k".into(), "short".into())],
        None,
    );
    assert!(!c.items[0].value_cut);
}
