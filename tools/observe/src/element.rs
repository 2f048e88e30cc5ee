//! One numbered element of an observation as JSON, and the query that
//! keeps only some: role, name and value, then each state or fact only
//! where it applies (a `false` is left out, except where it is the state
//! itself: `expanded`, `pressed`), so the default observation stays small.

use crate::browser_pilot::tools::page_read::AxNode;
use serde_json::{json, Map, Value};

/// The longest query `browser.observe` takes (UTF-16 code units).
pub const QUERY_UNITS: usize = 200;

/// The element's properties in the output schema.
pub fn schema_properties() -> Value {
    json!({
        "ref": {"type": "integer", "minimum": 1},
        "role": {"type": "string"},
        "name": {"type": "string", "x-browser-pilot-sensitivity": ["browser_data"]},
        "value": {"type": "string", "x-browser-pilot-sensitivity": ["browser_data"]},
        "checked": {"type": "string", "enum": ["true", "false", "mixed"]},
        "disabled": {"const": true},
        "expanded": {"type": "boolean"},
        "selected": {"const": true},
        "pressed": {"type": "string", "enum": ["true", "false", "mixed"]},
        "required": {"const": true},
        "invalid": {"const": true},
        "level": {"type": "integer", "minimum": 1},
        "href": {"type": "string", "x-browser-pilot-sensitivity": ["browser_data"]},
        "options": {"type": "array", "items": {"type": "string"}, "x-browser-pilot-sensitivity": ["browser_data"]},
        "moreOptions": {"type": "integer", "minimum": 1},
        "scrollable": {"const": true}
    })
}

pub fn element_json(reference: usize, node: &AxNode, name: &str, value: Option<String>) -> Value {
    let mut el = Map::new();
    el.insert("ref".into(), json!(reference));
    el.insert("role".into(), json!(node.role));
    el.insert("name".into(), json!(name));
    if let Some(v) = value {
        el.insert("value".into(), json!(v));
    }
    if let Some(c) = &node.checked {
        el.insert("checked".into(), json!(c));
    }
    let f = &node.facts;
    let mut flag = |key: &str, on: bool| {
        if on {
            el.insert(key.into(), json!(true));
        }
    };
    flag("disabled", node.disabled);
    flag("selected", f.selected == Some(true));
    flag("required", f.required);
    flag("invalid", f.invalid);
    flag("scrollable", f.scrollable && node.role != "scrollable");
    if let Some(e) = node.expanded {
        el.insert("expanded".into(), json!(e));
    }
    if let Some(p) = &f.pressed {
        el.insert("pressed".into(), json!(p));
    }
    if let Some(l) = f.level.filter(|l| *l > 0) {
        el.insert("level".into(), json!(l));
    }
    if let Some(h) = &f.href {
        el.insert("href".into(), json!(h));
    }
    if !f.options.is_empty() {
        el.insert("options".into(), json!(f.options));
        if f.more_options > 0 {
            el.insert("moreOptions".into(), json!(f.more_options));
        }
    }
    Value::Object(el)
}

/// Whether an element's role, name or value holds `query` (lower-cased
/// already), case-insensitively.
pub fn matches(node: &AxNode, query: &str) -> bool {
    let has = |s: &str| s.to_lowercase().contains(query);
    has(&node.role) || has(&node.name) || node.value.as_deref().is_some_and(has)
}

#[cfg(test)]
mod tests {
    use super::{element_json, matches};
    use crate::browser_pilot::tools::page_read::{AxNode, NodeFacts};

    fn node(role: &str, name: &str, facts: NodeFacts) -> AxNode {
        AxNode {
            handle: Some(1),
            role: role.into(),
            name: name.into(),
            value: None,
            checked: None,
            disabled: false,
            protected: false,
            depth: 0,
            expanded: None,
            focused: false,
            facts,
        }
    }

    fn no_facts() -> NodeFacts {
        NodeFacts {
            selected: None,
            pressed: None,
            required: false,
            invalid: false,
            level: None,
            href: None,
            options: Vec::new(),
            more_options: 0,
            scrollable: false,
        }
    }

    #[test]
    fn only_what_applies_is_shown() {
        let plain = element_json(1, &node("button", "Go", no_facts()), "Go", None);
        assert_eq!(plain.as_object().map(|o| o.len()), Some(3), "{plain}");
        let facts = NodeFacts {
            selected: Some(false),
            pressed: Some("mixed".into()),
            options: vec!["A".into()],
            more_options: 2,
            scrollable: true,
            ..no_facts()
        };
        let mut n = node("listbox", "Pick", facts);
        n.disabled = true;
        n.expanded = Some(false);
        let el = element_json(2, &n, "Pick", None);
        assert_eq!(el["disabled"], true);
        assert_eq!(el["expanded"], false);
        assert_eq!(el["pressed"], "mixed");
        assert_eq!(el["moreOptions"], 2);
        assert_eq!(el["scrollable"], true);
        assert!(el.get("selected").is_none(), "{el}");
        // A scroll container's own role says it; no flag besides.
        let s = node(
            "scrollable",
            "Feed",
            NodeFacts {
                scrollable: true,
                ..no_facts()
            },
        );
        assert!(element_json(3, &s, "Feed", None)
            .get("scrollable")
            .is_none());
    }

    #[test]
    fn a_query_matches_role_name_or_value_in_any_case() {
        let mut n = node("textbox", "Card Number", no_facts());
        n.value = Some("4242".into());
        assert!(matches(&n, "card"));
        assert!(matches(&n, "textbox"));
        assert!(matches(&n, "424"));
        assert!(!matches(&n, "email"));
    }
}
