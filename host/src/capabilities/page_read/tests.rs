//! Unit tests of `page-read`'s conversions.

use crate::browser::types as domain;
use crate::wit::page_read;

#[test]
fn observed_names_values_and_titles_lose_invisible_characters() {
    let node = page_read::AxNode::from(domain::AxNode {
        name: "Pay\u{200b} now\u{e0049}".into(),
        value: Some("4\u{feff}2 👩\u{200d}💻".into()),
        handle: None,
        role: "button".into(),
        checked: None,
        disabled: false,
        protected: false,
        depth: 0,
        expanded: None,
        focused: false,
        facts: Default::default(),
    });
    assert_eq!(node.name, "Pay now");
    assert_eq!(node.value.as_deref(), Some("42 👩\u{200d}💻"));
}
