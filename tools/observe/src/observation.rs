//! `browser.observe`: a bounded, numbered view of the interactive elements.

use crate::browser_pilot::tools::page_read::{self, AxNode, ObservedElement};
use crate::element::{self, element_json};
use bp_sdk::spec::{target_id_schema, with_common};
use bp_sdk::{bound, invalid, Args, ToolError, ToolSpec};
use serde_json::{json, Map, Value};

/// Observation v1 limits (frozen by the protocol).
pub const DEFAULT_LIMIT: u32 = 50;
pub const MAX_LIMIT: u32 = 10_000;
const NAME_UNITS: usize = 4_096;
const VALUE_UNITS: usize = 65_536;
const URL_UNITS: usize = 16_384;
const TEXT_BUDGET: usize = 1_000_000;
const MAX_DEPTH: u32 = 128;
const BYTE_BUDGET: usize = 2 * 1024 * 1024;
/// Accessibility nodes the host reads at most for one observation.
const NODE_BUDGET: u32 = 400_000;

/// Surfaces that sit over the page.
const DIALOGS: &[&str] = &["dialog", "alertdialog"];

/// Roles an agent can act on; everything else is context, left to `read`.
const INTERACTIVE: &[&str] = &[
    "button",
    "link",
    "textbox",
    "searchbox",
    "checkbox",
    "radio",
    "combobox",
    "listbox",
    "option",
    "menuitem",
    "menuitemcheckbox",
    "menuitemradio",
    "tab",
    "switch",
    "slider",
    "spinbutton",
    "treeitem",
    "textarea",
    "PopUpButton",
    "gridcell",
    "grid",
    "treegrid",
    "tree",
    "row",
    // What the page walk lists by itself: an element that takes clicks
    // without an interactive role, and a scroll container.
    "clickable",
    "scrollable",
];

pub fn spec() -> ToolSpec {
    let element = json!({
        "type": "object",
        "required": ["ref", "role", "name"],
        "properties": element::schema_properties()
    });
    let mut props = Map::new();
    props.insert("observationId".into(), json!({"type": "string"}));
    props.insert(
        "title".into(),
        json!({"type": "string", "x-browser-pilot-sensitivity": ["browser_data"]}),
    );
    props.insert(
        "elements".into(),
        json!({"type": "array", "items": element}),
    );
    props.insert("truncated".into(), json!({"type": "boolean"}));
    props.insert(
        "truncationReasons".into(),
        json!({"type": "array", "items": {"enum": ["element_limit", "text_limit", "depth_limit", "byte_limit"]}}),
    );
    props.insert("hints".into(), json!({"type": "array"}));
    ToolSpec::read(
        "browser.observe",
        "Observe the target: numbered interactive elements (ref, role, name, value, and states such as disabled, expanded, a link's href or a select's options, where they apply) usable with click and type. `query` keeps only elements whose role, name or value contains it.",
        &["page-read"],
    )
    .schemas(
        json!({
            "type": "object",
            "additionalProperties": false,
            "properties": {
                "targetId": target_id_schema(),
                "limit": {"type": "integer", "minimum": 1, "maximum": MAX_LIMIT, "default": DEFAULT_LIMIT},
                "query": {"type": "string", "minLength": 1, "maxLength": element::QUERY_UNITS}
            }
        }),
        json!({
            "type": "object",
            "required": ["workspaceId", "leaseId", "targetId", "url", "observationId", "title", "elements", "truncated", "truncationReasons"],
            "properties": Value::Object(with_common(props))
        }),
    )
    .sensitivity(&[], &["browser_data"])
}

/// Accumulates elements while enforcing the limits in one place.
struct Budget {
    limit: usize,
    text_units: usize,
    bytes: usize,
    reasons: [bool; 4],
}

impl Budget {
    const ELEMENT: usize = 0;
    const TEXT: usize = 1;
    const DEPTH: usize = 2;
    const BYTES: usize = 3;
    const NAMES: [&'static str; 4] = ["element_limit", "text_limit", "depth_limit", "byte_limit"];

    fn reasons(&self) -> Vec<&'static str> {
        Self::NAMES
            .iter()
            .zip(self.reasons.iter())
            .filter(|(_, hit)| **hit)
            .map(|(n, _)| *n)
            .collect()
    }
}

fn is_interactive(node: &AxNode) -> bool {
    node.handle.is_some() && INTERACTIVE.contains(&node.role.as_str())
}

fn cut_units(s: &str, max: usize) -> (String, bool) {
    if bound::code_units(s) <= max {
        return (s.to_string(), false);
    }
    let mut out = String::new();
    let mut units = 0;
    for ch in s.chars() {
        units += ch.len_utf16();
        if units > max {
            break;
        }
        out.push(ch);
    }
    (out, true)
}

pub fn observe(mut args: Args) -> Result<Value, ToolError> {
    args.allow(&["targetId"]);
    let limit = args
        .opt_u32("limit", 1, MAX_LIMIT)?
        .unwrap_or(DEFAULT_LIMIT);
    let query = query(&mut args)?;
    args.finish()?;

    // Only as many interactive nodes as the limit needs (plus one, to see
    // the cut); the host falls back to the whole tree where it must.
    // Dialogs and groups too: not numbered, but they say what a modal
    // covers and which controls a group names as filters.
    let roles: Vec<String> = INTERACTIVE
        .iter()
        .chain(DIALOGS)
        .chain(GROUP_ROLES)
        .map(|r| r.to_string())
        .collect();
    // A query reads every element there is, to keep the matching ones.
    let read = if query.is_some() { MAX_LIMIT } else { limit };
    let snapshot = page_read::interactive_nodes(&roles, read, MAX_DEPTH, NODE_BUDGET)?;
    let (title, _) = cut_units(&snapshot.info.title, NAME_UNITS);
    let mut budget = Budget {
        limit: limit as usize,
        text_units: bound::code_units(&title),
        bytes: 512 + title.len() + snapshot.info.url.len(),
        reasons: [false; 4],
    };
    budget.reasons[Budget::DEPTH] = snapshot.depth_limited;
    // The host stopped reading nodes: some elements were never seen.
    budget.reasons[Budget::ELEMENT] = snapshot.node_limited;

    let mut elements: Vec<Value> = Vec::new();
    let mut mapping: Vec<ObservedElement> = Vec::new();
    let wanted =
        |n: &&AxNode| is_interactive(n) && query.as_deref().is_none_or(|q| element::matches(n, q));
    for node in snapshot.nodes.iter().filter(wanted) {
        if elements.len() >= budget.limit {
            budget.reasons[Budget::ELEMENT] = true;
            break;
        }
        let (name, _) = cut_units(&node.name, NAME_UNITS);
        let value = if node.protected {
            None
        } else {
            node.value.as_deref().map(|v| cut_units(v, VALUE_UNITS).0)
        };
        let units = bound::code_units(&name) + value.as_deref().map_or(0, bound::code_units);
        if budget.text_units + units > TEXT_BUDGET {
            budget.reasons[Budget::TEXT] = true;
            break;
        }
        let reference = elements.len() + 1;
        let el = element_json(reference, node, &name, value);
        let size = el.to_string().len() + 1;
        if budget.bytes + size > BYTE_BUDGET {
            budget.reasons[Budget::BYTES] = true;
            break;
        }
        budget.text_units += units;
        budget.bytes += size;
        let handle = node.handle.ok_or_else(|| invalid("node without handle"))?;
        mapping.push(ObservedElement {
            ref_: reference as u32,
            handle,
        });
        elements.push(el);
    }

    let observation_id = page_read::record_observation(&mapping)?;
    let reasons = budget.reasons();
    let hints: Vec<Value> = modal_overlay(&snapshot.nodes, &mapping)
        .into_iter()
        .chain(auth_surface(&snapshot.nodes, &mapping))
        .chain(filter_controls(&snapshot.nodes, &mapping))
        .chain(autocomplete(&snapshot.nodes, &mapping))
        .collect();
    Ok(json!({
        "observationId": observation_id,
        "title": title,
        "url": cut_units(&snapshot.info.url, URL_UNITS).0,
        "elements": elements,
        "truncated": !reasons.is_empty(),
        "truncationReasons": reasons,
        "hints": hints,
    }))
}

/// The `query` argument, lower-cased: a non-blank string of at most
/// `QUERY_UNITS`.
fn query(args: &mut Args) -> Result<Option<String>, ToolError> {
    let Some(q) = args.opt_str("query")? else {
        return Ok(None);
    };
    if q.trim().is_empty() || bound::code_units(&q) > element::QUERY_UNITS {
        return Err(invalid(format!(
            "`query` must be 1 to {} characters, not blank",
            element::QUERY_UNITS
        )));
    }
    Ok(Some(q.to_lowercase()))
}

/// `auth_surface`: the observation shows a sign-in surface (a password
/// field), with the refs of its password fields (at most 4). Only refs and
/// a count: never names or values.
fn auth_surface(nodes: &[AxNode], mapping: &[ObservedElement]) -> Option<Value> {
    let refs: Vec<u32> = mapping
        .iter()
        .filter(|m| {
            nodes
                .iter()
                .any(|n| n.handle == Some(m.handle) && n.protected)
        })
        .map(|m| m.ref_)
        .collect();
    if refs.is_empty() {
        return None;
    }
    Some(
        json!({"code": "auth_surface", "source": "observation", "confidence": "high",
                "recommendedAction": "ask_user", "state": "present",
                "passwordFields": refs.len(), "refs": refs.iter().take(4).collect::<Vec<_>>()}),
    )
}

/// `modal_overlay`: an open dialog sits over the page. The refs inside it
/// (at most 8) are what can be acted on now; `blocked` counts this
/// observation's refs outside it.
fn modal_overlay(nodes: &[AxNode], mapping: &[ObservedElement]) -> Option<Value> {
    let at = nodes
        .iter()
        .position(|n| DIALOGS.contains(&n.role.as_str()))?;
    let depth = nodes[at].depth;
    let inside: Vec<u32> = nodes[at + 1..]
        .iter()
        .take_while(|n| n.depth > depth)
        .filter_map(|n| mapping.iter().find(|m| n.handle == Some(m.handle)))
        .map(|m| m.ref_)
        .collect();
    let blocked = mapping.len() - inside.len();
    Some(
        json!({"code": "modal_overlay", "source": "observation", "confidence": "high",
                "recommendedAction": "act_in_dialog",
                "refs": inside.iter().take(8).collect::<Vec<_>>(), "inside": inside.len(),
                "blocked": blocked}),
    )
}

/// Words that label a control as a filter or a sort order.
const FILTER_WORDS: &[&str] = &["filter", "sort", "refine", "order by"];
/// Words that name a group of controls as filters: shops label the
/// fieldset ("Filter by brand", "Shop by price"), not each box in it.
const FILTER_GROUP_WORDS: &[&str] = &["filter", "refine", "narrow", "shop by"];
/// Roles of a group whose accessible name can make its controls filters
/// (`fieldset` with a `legend`, `role=group` with `aria-labelledby`).
const GROUP_ROLES: &[&str] = &["group", "radiogroup"];
/// Controls that narrow a result list.
const FILTER_ROLES: &[&str] = &[
    "combobox",
    "listbox",
    "checkbox",
    "radio",
    "textbox",
    "switch",
    "slider",
    "spinbutton",
];

/// The nodes inside a group whose name says filter: one pass over the
/// pre-order tree, with the open groups on a stack.
fn in_filter_group(nodes: &[AxNode]) -> Vec<bool> {
    let mut open: Vec<(u32, bool)> = Vec::new();
    nodes
        .iter()
        .map(|n| {
            while open.last().is_some_and(|(d, _)| *d >= n.depth) {
                open.pop();
            }
            let inside = open.iter().any(|(_, filter)| *filter);
            if GROUP_ROLES.contains(&n.role.as_str()) {
                let name = n.name.to_lowercase();
                let filter = FILTER_GROUP_WORDS.iter().any(|w| name.contains(w));
                open.push((n.depth, filter));
            }
            inside
        })
        .collect()
}
/// Links and buttons an observation needs to count as a results page.
const RESULTS_PAGE: usize = 10;

/// `filter_controls`: a results page (many links or buttons) with explicit
/// search, filter or sort controls; their refs (at most 8).
fn filter_controls(nodes: &[AxNode], mapping: &[ObservedElement]) -> Option<Value> {
    let node_of = |m: &ObservedElement| nodes.iter().find(|n| n.handle == Some(m.handle));
    let results = mapping
        .iter()
        .filter_map(node_of)
        .filter(|n| matches!(n.role.as_str(), "link" | "button"))
        .count();
    if results < RESULTS_PAGE {
        return None;
    }
    let grouped = in_filter_group(nodes);
    let refs: Vec<u32> = mapping
        .iter()
        .filter(|m| {
            let Some(i) = nodes.iter().position(|n| n.handle == Some(m.handle)) else {
                return false;
            };
            let n = &nodes[i];
            let name = n.name.to_lowercase();
            let labelled = grouped[i] || FILTER_WORDS.iter().any(|w| name.contains(w));
            n.role == "searchbox" || (labelled && FILTER_ROLES.contains(&n.role.as_str()))
        })
        .map(|m| m.ref_)
        .collect();
    if refs.is_empty() {
        return None;
    }
    Some(
        json!({"code": "filter_controls", "source": "observation", "confidence": "medium",
                "recommendedAction": "narrow_results", "controls": refs.len(),
                "refs": refs.iter().take(8).collect::<Vec<_>>()}),
    )
}

/// `autocomplete`: a text field or combobox shows a suggestion list (it is
/// expanded, or it has focus while options are listed), with the refs of
/// the options (at most 8). A closed combobox gives none.
fn autocomplete(nodes: &[AxNode], mapping: &[ObservedElement]) -> Option<Value> {
    let node_of = |m: &ObservedElement| nodes.iter().find(|n| n.handle == Some(m.handle));
    let fields = ["combobox", "searchbox", "textbox"];
    let open = nodes
        .iter()
        .any(|n| fields.contains(&n.role.as_str()) && n.expanded == Some(true));
    let focused = nodes
        .iter()
        .any(|n| fields.contains(&n.role.as_str()) && n.focused && n.expanded != Some(false));
    if !open && !focused {
        return None;
    }
    let field = mapping.iter().find(|m| {
        node_of(m).is_some_and(|n| {
            fields.contains(&n.role.as_str()) && (n.expanded == Some(true) || n.focused)
        })
    })?;
    let options: Vec<u32> = mapping
        .iter()
        .filter(|m| node_of(m).is_some_and(|n| n.role == "option"))
        .map(|m| m.ref_)
        .collect();
    if options.is_empty() {
        return None;
    }
    Some(
        json!({"code": "autocomplete", "source": "observation", "confidence": "high",
                "recommendedAction": "choose_option", "field": field.ref_,
                "options": options.len(), "refs": options.iter().take(8).collect::<Vec<_>>()}),
    )
}
