//! The facts an observation shows of an element beyond role, name and
//! value (`NodeFacts`): from the page walk's `extra` list (a link's
//! target, a select's options, a scroll container, a native field's
//! required and invalid states) and from an accessibility node's
//! properties (selected, pressed, required, invalid, level, url). Also how
//! a link's target is shown: bounded, its own document's origin left out.
//! A leaf: it imports nothing from `browser/` but the types.

use crate::browser::types::{AxNode, NodeFacts};
use serde_json::Value;

/// A link target's length at most (in characters).
const HREF_CHARS: usize = 200;
/// Option labels a `<select>` shows at most, and each label's length.
const OPTIONS: usize = 25;
const OPTION_CHARS: usize = 80;

/// What the page walk said of one candidate (`interactive_walk.js`,
/// `facts`): `0` or an object.
pub(in crate::browser) fn page_facts(v: &Value) -> NodeFacts {
    let flag = |k: &str| v[k].as_i64() == Some(1);
    let options: Vec<String> = v["o"]
        .as_array()
        .map_or(&[][..], Vec::as_slice)
        .iter()
        .take(OPTIONS)
        .filter_map(Value::as_str)
        .map(|o| cut(o, OPTION_CHARS))
        .collect();
    NodeFacts {
        required: flag("rq"),
        invalid: flag("iv"),
        href: v["h"].as_str().map(str::to_string),
        more_options: v["m"]
            .as_u64()
            .and_then(|m| u32::try_from(m).ok())
            .unwrap_or(0),
        options,
        scrollable: flag("s"),
        level: v["lv"].as_u64().and_then(|l| u32::try_from(l).ok()),
        ..NodeFacts::default()
    }
}

/// The facts an accessibility node's properties give, with what the page
/// walk knows added (`page`: target, options, scrolling, and the page's
/// own word on required and invalid: Chromium calls an untouched required
/// `<select>` invalid but not an untouched text field). `None`: a node of
/// the full tree, which only Chromium describes.
pub(in crate::browser) fn ax_facts(n: &Value, page: Option<NodeFacts>) -> NodeFacts {
    let prop = |name: &str| {
        n["properties"]
            .as_array()
            .and_then(|ps| ps.iter().find(|p| p["name"] == name))
            .map(|p| p["value"]["value"].clone())
    };
    let token = |v: Value| match v {
        Value::String(s) => s,
        other => other.to_string(),
    };
    let ax_invalid = prop("invalid").map(token).is_some_and(|t| t != "false");
    let ax_required = prop("required").and_then(|v| v.as_bool()) == Some(true);
    let from_page = page.is_some();
    let page = page.unwrap_or_default();
    NodeFacts {
        selected: prop("selected").and_then(|v| v.as_bool()),
        pressed: prop("pressed").map(token),
        required: ax_required || page.required,
        invalid: if from_page { page.invalid } else { ax_invalid },
        level: prop("level")
            .and_then(|v| v.as_u64())
            .and_then(|l| u32::try_from(l).ok())
            .or(page.level),
        href: page
            .href
            .clone()
            .or_else(|| prop("url").and_then(|v| v.as_str().map(str::to_string))),
        ..page
    }
}

/// Each link's target as an observation shows it (`page_url` is the
/// document's): see `link_target`.
pub(in crate::browser) fn tidy_links(nodes: &mut [AxNode], page_url: &str) {
    let base = url::Url::parse(page_url).ok();
    for n in nodes {
        if let Some(h) = n.facts.href.take() {
            n.facts.href = link_target(&h, base.as_ref());
        }
    }
}

/// A link target, bounded and cleaned: a target in the same document is
/// its fragment (`#top`), one on the same origin its path (`/docs?q=1`),
/// any other the whole URL with its credentials left out; a script URL is
/// only its scheme. Control characters are dropped; at most
/// `HREF_CHARS` characters, a cut one ending in `…`.
pub(in crate::browser) fn link_target(raw: &str, base: Option<&url::Url>) -> Option<String> {
    let shown = match url::Url::parse(raw) {
        Ok(u) if matches!(u.scheme(), "javascript" | "data" | "blob") => format!("{}:", u.scheme()),
        Ok(u) => match base {
            Some(b) if b.origin() == u.origin() && u.origin().is_tuple() => {
                let same_doc = b.path() == u.path() && b.query() == u.query();
                match (same_doc, u.fragment()) {
                    (true, Some(f)) => format!("#{f}"),
                    _ => {
                        let mut s = u.path().to_string();
                        if let Some(q) = u.query() {
                            s.push('?');
                            s.push_str(q);
                        }
                        if let Some(f) = u.fragment() {
                            s.push('#');
                            s.push_str(f);
                        }
                        s
                    }
                }
            }
            _ => crate::sanitize::redact::url(u.as_str()),
        },
        Err(_) => raw.to_string(),
    };
    let clean: String = shown.chars().filter(|c| !c.is_control()).collect();
    (!clean.is_empty()).then(|| cut(&clean, HREF_CHARS))
}

/// Options of a native select as the full tree lists them (its popup's
/// option nodes, deeper than it): put on the select where the page walk
/// did not already.
pub(in crate::browser) fn gather_options(nodes: &mut [AxNode]) {
    for i in 0..nodes.len() {
        if nodes[i].role != "combobox" || !nodes[i].facts.options.is_empty() {
            continue;
        }
        let depth = nodes[i].depth;
        let (mut options, mut more) = (Vec::new(), 0u32);
        for n in nodes[i + 1..].iter().take_while(|n| n.depth > depth) {
            if matches!(n.role.as_str(), "option" | "MenuListOption") {
                if options.len() < OPTIONS {
                    options.push(cut(&n.name, OPTION_CHARS));
                } else {
                    more += 1;
                }
            }
        }
        nodes[i].facts.options = options;
        nodes[i].facts.more_options = more;
    }
}

/// Rows of a plain table are not widgets: a full tree's `row` counts
/// only inside a grid or tree grid (as the page walk picks them).
pub(in crate::browser) fn drop_table_rows(nodes: &mut Vec<AxNode>) {
    let mut open: Vec<(u32, bool)> = Vec::new();
    nodes.retain(|n| {
        while open.last().is_some_and(|(d, _)| *d >= n.depth) {
            open.pop();
        }
        let in_grid = open.iter().any(|(_, g)| *g);
        open.push((n.depth, matches!(n.role.as_str(), "grid" | "treegrid")));
        n.role != "row" || in_grid
    });
}

fn cut(s: &str, max: usize) -> String {
    if s.chars().count() <= max {
        return s.to_string();
    }
    let mut out: String = s.chars().take(max - 1).collect();
    out.push('…');
    out
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    #[test]
    fn link_targets_are_short_bounded_and_clean() {
        let base = url::Url::parse("http://127.0.0.1:9/shop/list.html?p=2").ok();
        let t = |raw: &str| link_target(raw, base.as_ref());
        assert_eq!(
            t("http://127.0.0.1:9/shop/list.html?p=2#top").unwrap(),
            "#top"
        );
        assert_eq!(t("http://127.0.0.1:9/docs?q=1").unwrap(), "/docs?q=1");
        assert_eq!(t("https://a.test/x").unwrap(), "https://a.test/x");
        assert_eq!(
            t("https://u:secret@a.test/x").unwrap(),
            "https://redacted@a.test/x"
        );
        assert_eq!(t("javascript:alert(1)").unwrap(), "javascript:");
        let long = format!("https://a.test/{}", "x".repeat(500));
        let cut = t(&long).unwrap();
        assert_eq!(cut.chars().count(), HREF_CHARS);
        assert!(cut.ends_with('…'));
        assert_eq!(t("http://127.0.0.1:9/a\u{7}b").unwrap(), "/a%07b");
    }

    #[test]
    fn page_facts_read_the_walk_and_ax_facts_the_properties() {
        let f = page_facts(&json!({"h": "http://x/", "o": ["A", "B"], "m": 3, "rq": 1, "s": 1}));
        assert_eq!(f.options, ["A", "B"]);
        assert_eq!(
            (f.more_options, f.required, f.invalid, f.scrollable),
            (3, true, false, true)
        );
        assert_eq!(page_facts(&json!(0)), NodeFacts::default());
        let n = json!({"properties": [
            {"name": "pressed", "value": {"type": "tristate", "value": "mixed"}},
            {"name": "invalid", "value": {"type": "token", "value": "true"}},
            {"name": "level", "value": {"type": "integer", "value": 2}},
            {"name": "selected", "value": {"type": "boolean", "value": true}}]});
        let a = ax_facts(&n, None);
        assert!(a.invalid && !a.required);
        // With the page's word, the page's invalid state counts.
        let a = ax_facts(&n, Some(f));
        assert_eq!(a.pressed.as_deref(), Some("mixed"));
        assert!(!a.invalid && a.required && a.scrollable);
        assert_eq!((a.level, a.selected), (Some(2), Some(true)));
    }
}
