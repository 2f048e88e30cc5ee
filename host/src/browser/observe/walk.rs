//! What the page walk gives and how its answer is read, shared by the
//! files that walk the page (`observe/interactive.rs`, `observe/rewalk.rs`,
//! `observe/walk_agent.rs`) and read the accessibility tree (`observe/axtree.rs`): the
//! page-side scripts, the candidates and facts of one walk, the names as
//! agents compare them, and which errors end a walk with no fallback. A
//! leaf: it imports nothing from `browser/`.

use crate::error::BpError;
use serde_json::Value;

/// The page-side walk.
pub(in crate::browser) const WALK: &str = include_str!("scripts/interactive_walk.js");
/// The page-side description of plain candidates.
pub(in crate::browser) const FAST: &str = include_str!("scripts/interactive_fast.js");

/// Errors after which nothing else sent to the page would be answered
/// (it is unresponsive, or its renderer crashed): no fallback is tried.
pub(in crate::browser) fn page_unreachable(e: &BpError) -> bool {
    e.code == crate::error::Code::BrowserDisconnected
        || e.stale == Some(crate::error::StaleReason::TargetCrashed)
}

/// Per element of a walk's list, its backend node ID as the list's deep
/// serialization gave it (`None` where it did not).
pub(in crate::browser) fn serialized_ids(list: &Value) -> Vec<Option<i64>> {
    list["deepSerializedValue"]["value"]
        .as_array()
        .map_or(&[][..], Vec::as_slice)
        .iter()
        .map(|v| match v["type"].as_str() {
            Some("node") => v["value"]["backendNodeId"].as_i64(),
            _ => None,
        })
        .collect()
}

/// An accessible name as agents compare it: whitespace runs collapsed to
/// one space and the ends trimmed (Chromium versions differ in whether a
/// label's trailing space is kept).
pub(in crate::browser) fn normalize_name(name: &str) -> String {
    let mut out = String::with_capacity(name.len());
    for word in name.split_whitespace() {
        if !out.is_empty() {
            out.push(' ');
        }
        out.push_str(word);
    }
    out
}

/// One element the page-side walk picked.
#[derive(Clone)]
pub(in crate::browser) struct Candidate {
    /// Its remote object (empty for one a walk over known elements left
    /// out because its role is not wanted).
    pub(in crate::browser) object: String,
    /// Its backend node, when a recent observation identified it.
    pub(in crate::browser) backend: Option<i64>,
    /// Its backend node as the walk's answer carried it.
    pub(in crate::browser) serialized: Option<i64>,
    /// An `<input type=password>`.
    pub(in crate::browser) password: bool,
    /// How many dialogs (or covering layers) enclose it.
    pub(in crate::browser) depth: u32,
    /// The layer covering most of the viewport.
    pub(in crate::browser) cover: bool,
    /// Role, name and state as the page described them, for a plain one.
    pub(in crate::browser) plain: Option<Plain>,
    /// What else the page knows of it (`observe/walk_facts.rs`).
    pub(in crate::browser) facts: crate::browser::types::NodeFacts,
}

/// What one page walk found.
pub(in crate::browser) struct Walked {
    pub(in crate::browser) elements: Vec<Candidate>,
    /// The page's URL and title.
    pub(in crate::browser) facts: (String, String),
    /// Whether the page may have more candidates than these.
    pub(in crate::browser) more: bool,
    /// When these came from known elements only (`observe/rewalk.rs`): how many
    /// of them the page expects to count.
    pub(in crate::browser) page_counted: Option<usize>,
}

/// The facts the walk attaches to its list (as strings).
pub(in crate::browser) struct WalkFacts {
    href: String,
    title: String,
    pw: std::collections::HashSet<usize>,
    cover: Option<usize>,
    fast: Vec<Value>,
    extra: Vec<Value>,
    depths: Vec<u32>,
    /// `ix`: per candidate, its index among the known elements, or -1.
    ix: String,
}

impl WalkFacts {
    pub(in crate::browser) fn read(fact: impl Fn(&str) -> String) -> Self {
        Self {
            href: fact("href"),
            title: fact("title"),
            pw: fact("pw")
                .split(',')
                .filter_map(|i| i.parse().ok())
                .collect(),
            cover: fact("cover").parse().ok(),
            fast: serde_json::from_str(&fact("fast")).unwrap_or_default(),
            extra: serde_json::from_str(&fact("extra")).unwrap_or_default(),
            depths: fact("depths")
                .split(',')
                .map(|d| d.parse().unwrap_or(0))
                .collect(),
            ix: fact("ix"),
        }
    }

    /// Per candidate, its index among the known elements (`usize::MAX`
    /// when it is not one).
    pub(in crate::browser) fn known_indices(&self) -> Vec<usize> {
        self.ix
            .split(',')
            .filter(|i| !i.is_empty())
            .map(|i| i.parse().unwrap_or(usize::MAX))
            .collect()
    }

    pub(in crate::browser) fn candidate(
        &self,
        i: usize,
        object: String,
        backend: Option<i64>,
    ) -> Candidate {
        Candidate {
            object,
            backend,
            serialized: None,
            password: self.pw.contains(&i),
            depth: self.depths.get(i).copied().unwrap_or(0),
            cover: self.cover == Some(i),
            plain: self.fast.get(i).and_then(Plain::from_page),
            facts: self
                .extra
                .get(i)
                .map(crate::browser::observe::walk_facts::page_facts)
                .unwrap_or_default(),
        }
    }

    pub(in crate::browser) fn page(&self) -> (String, String) {
        (self.href.clone(), self.title.clone())
    }
}

/// A candidate the page described itself (`interactive_fast.js`).
#[derive(Clone, Debug, PartialEq)]
pub(in crate::browser) struct Plain {
    pub(in crate::browser) role: String,
    pub(in crate::browser) name: String,
    pub(in crate::browser) value: Option<String>,
    pub(in crate::browser) checked: Option<String>,
    pub(in crate::browser) disabled: bool,
    pub(in crate::browser) focused: bool,
}

impl Plain {
    /// `[role, name, value | null, checked | null, disabled, focused]`, or
    /// `0` for a candidate the page left to Chromium.
    fn from_page(v: &Value) -> Option<Self> {
        let text = |i: usize| v.get(i).and_then(Value::as_str).map(str::to_string);
        Some(Self {
            role: text(0)?,
            name: text(1)?,
            value: text(2),
            checked: text(3),
            disabled: v.get(4).and_then(Value::as_i64)? != 0,
            focused: v.get(5).and_then(Value::as_i64) == Some(1),
        })
    }
}

#[cfg(test)]
mod tests {
    use super::{normalize_name, serialized_ids, Plain};
    use serde_json::json;

    #[test]
    fn page_descriptions_parse_or_fall_back() {
        let p = Plain::from_page(&json!(["textbox", "Note 1", "x", null, 1, 0])).unwrap();
        assert_eq!(p.role, "textbox");
        assert!(!p.focused);
        assert_eq!(p.value.as_deref(), Some("x"));
        assert!(p.checked.is_none() && p.disabled);
        let c = Plain::from_page(&json!(["checkbox", "Pick", null, "mixed", 0, 1])).unwrap();
        assert_eq!(c.checked.as_deref(), Some("mixed"));
        assert!(!c.disabled && c.focused);
        // Left to Chromium, or malformed: no description.
        assert!(Plain::from_page(&json!(0)).is_none());
        assert!(Plain::from_page(&json!(["button"])).is_none());
        assert!(Plain::from_page(&json!([1, "x", null, null, 0])).is_none());
    }

    #[test]
    fn node_ids_are_read_from_the_serialized_list_by_index() {
        // As Chromium 156 answers a walk of two elements and a text node
        // (a list never holds one; it would get no ID).
        let list = json!({"objectId": "1.2.3", "deepSerializedValue": {"type": "array", "value": [
            {"type": "node", "value": {"nodeType": 1, "backendNodeId": 7, "localName": "input"}},
            {"type": "string", "value": "x"},
            {"type": "node", "value": {"nodeType": 1, "backendNodeId": 9, "localName": "a"}},
        ]}});
        assert_eq!(serialized_ids(&list), vec![Some(7), None, Some(9)]);
        // An answer without the serialization (an older browser): none.
        assert!(serialized_ids(&json!({"objectId": "1.2.3"})).is_empty());
    }

    #[test]
    fn names_are_whitespace_normalized() {
        assert_eq!(normalize_name("Code "), "Code");
        assert_eq!(normalize_name("  Sign\n  in\t now "), "Sign in now");
        assert_eq!(normalize_name(""), "");
    }
}
