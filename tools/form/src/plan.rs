//! The plan of a fill: the fields as asked (checked before anything is
//! touched), each resolved to its node and classified by what the node
//! is, so that a value of the wrong kind is refused before the first
//! field changes.

use crate::browser_pilot::tools::page_read::{self, NodeHandle, NodeState};
use crate::browser_pilot::tools::page_select::{self, Widget};
use bp_sdk::{invalid, ToolError};
use serde_json::Value;

/// The most fields one call may fill.
pub const MAX_FIELDS: usize = 50;
/// The longest text one field may take.
pub const MAX_TEXT_CHARS: usize = 100_000;

/// A field's value as asked.
#[derive(Debug, Clone, PartialEq)]
pub enum Wanted {
    Text(String),
    Flag(bool),
    Number(f64),
    Labels(Vec<String>),
}

/// How a field is filled.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Kind {
    /// Typed into (a text field, a text area, an editable region).
    Text,
    /// A checkbox, clicked when its state differs.
    Checkbox,
    /// A radio button, clicked to turn it on.
    Radio,
    /// A native select or an ARIA combobox or listbox, by label.
    Select,
    /// A range input, moved with arrow keys.
    Range,
}

impl Kind {
    pub fn name(self) -> &'static str {
        match self {
            Kind::Text => "text",
            Kind::Checkbox => "checkbox",
            Kind::Radio => "radio",
            Kind::Select => "select",
            Kind::Range => "range",
        }
    }
}

/// One field, ready to fill.
pub struct Field {
    pub reference: u32,
    pub node: NodeHandle,
    pub state: NodeState,
    pub kind: Kind,
    pub wanted: Wanted,
}

/// A field's `{ref, value}` as the arguments give it.
pub fn parse(index: usize, v: &Value) -> Result<(u32, Wanted), ToolError> {
    let at = |m: &str| invalid(format!("fields[{index}]: {m}"));
    let obj = v
        .as_object()
        .ok_or_else(|| at("must be an object {ref, value}"))?;
    if let Some(k) = obj.keys().find(|k| *k != "ref" && *k != "value") {
        return Err(at(&format!("unknown key `{k}`")));
    }
    let reference = match &obj.get("ref") {
        Some(Value::Number(n)) => n.as_u64(),
        Some(Value::String(s)) => s.trim().parse::<u64>().ok(),
        _ => None,
    }
    .filter(|n| *n >= 1)
    .and_then(|n| u32::try_from(n).ok())
    .ok_or_else(|| at("`ref` must be a positive integer ref"))?;
    let wanted = match obj.get("value") {
        Some(Value::String(s)) if s.chars().count() <= MAX_TEXT_CHARS => Wanted::Text(s.clone()),
        Some(Value::String(_)) => {
            return Err(at(&format!(
                "`value` is longer than {MAX_TEXT_CHARS} characters"
            )))
        }
        Some(Value::Bool(b)) => Wanted::Flag(*b),
        Some(Value::Number(n)) => Wanted::Number(
            n.as_f64()
                .filter(|f| f.is_finite())
                .ok_or_else(|| at("`value` is not a finite number"))?,
        ),
        Some(Value::Array(items)) if !items.is_empty() && items.len() <= 100 => Wanted::Labels(
            items
                .iter()
                .map(|i| i.as_str().map(str::to_string))
                .collect::<Option<Vec<_>>>()
                .ok_or_else(|| at("a list `value` must hold option labels (strings)"))?,
        ),
        _ => {
            return Err(at(
                "`value` must be a string, true/false, a number, or a list of option labels",
            ))
        }
    };
    Ok((reference, wanted))
}

/// A checkbox or radio's value given as text (the command line sends
/// text): `true`/`false`, `on`/`off`, `yes`/`no`, `checked`/`unchecked`.
pub fn flag(t: &str) -> Option<bool> {
    match t.trim().to_ascii_lowercase().as_str() {
        "true" | "on" | "yes" | "checked" => Some(true),
        "false" | "off" | "no" | "unchecked" => Some(false),
        _ => None,
    }
}

/// What the node is (`combobox`: a text input that is a combobox), and
/// whether the value fits it.
pub fn classify(state: &NodeState, wanted: &Wanted, combobox: bool) -> Result<Kind, &'static str> {
    let input_type = state.input_type.as_deref().map(str::to_ascii_lowercase);
    let kind = match (state.tag.as_str(), input_type.as_deref()) {
        _ if combobox => Kind::Select,
        ("select", _) => Kind::Select,
        ("input", Some("checkbox")) => Kind::Checkbox,
        ("input", Some("radio")) => Kind::Radio,
        ("input", Some("range")) => Kind::Range,
        // A text control that cannot take text now (disabled, read-only)
        // is still a text field: typing refuses it (`not_editable`).
        ("input" | "textarea", _) => Kind::Text,
        _ if state.editable => Kind::Text,
        // Not a native control: an ARIA combobox or listbox, by label
        // (page-select refuses anything else).
        _ => Kind::Select,
    };
    let wanted = match (kind, wanted) {
        (Kind::Checkbox | Kind::Radio, Wanted::Text(t)) => match flag(t) {
            Some(b) => &Wanted::Flag(b),
            None => wanted,
        },
        _ => wanted,
    };
    let fits = match (kind, wanted) {
        (Kind::Text, Wanted::Text(_) | Wanted::Number(_)) => true,
        (Kind::Checkbox, Wanted::Flag(_)) => true,
        (Kind::Radio, Wanted::Flag(true)) => true,
        (Kind::Radio, Wanted::Flag(false)) => {
            return Err(
                "a radio button is turned off by choosing another one: give that one `true`",
            )
        }
        (Kind::Select, Wanted::Text(_) | Wanted::Labels(_)) => true,
        (Kind::Range, Wanted::Number(_)) => true,
        (Kind::Range, Wanted::Text(t)) => t.trim().parse::<f64>().is_ok_and(f64::is_finite),
        _ => false,
    };
    if fits {
        Ok(kind)
    } else {
        Err(match kind {
            Kind::Text => "a text field takes a string (or a number)",
            Kind::Checkbox | Kind::Radio => "a checkbox or radio button takes true or false",
            Kind::Select => "a select takes an option label (or a list of labels)",
            Kind::Range => "a range input takes a number",
        })
    }
}

/// Whether a text input is a combobox (`role=combobox`, as the inputs of
/// Tom Select, react-select or MUI Autocomplete are): it is filled by
/// choosing an option, as `browser.select` does, not by typing.
fn combobox_input(node: NodeHandle, state: &NodeState) -> Result<bool, ToolError> {
    let text_input = state.tag == "input"
        && state.editable
        && !matches!(
            state.input_type.as_deref(),
            Some("checkbox" | "radio" | "range" | "password")
        );
    if !text_input {
        return Ok(false);
    }
    Ok(matches!(
        page_select::widget_of(node)?,
        Some(Widget::Combobox)
    ))
}

/// Every field resolved and classified, in order, before any is filled.
pub fn plan(observation: &str, fields: &[Value]) -> Result<Vec<Field>, ToolError> {
    if fields.is_empty() || fields.len() > MAX_FIELDS {
        return Err(invalid(format!(
            "`fields` must hold 1 to {MAX_FIELDS} fields"
        )));
    }
    let asked = fields
        .iter()
        .enumerate()
        .map(|(i, f)| parse(i, f))
        .collect::<Result<Vec<_>, _>>()?;
    let mut out = Vec::new();
    for (i, (reference, wanted)) in asked.into_iter().enumerate() {
        let node = page_read::resolve_ref(observation, reference)?;
        let state = page_read::read_node(node)?;
        let combobox = combobox_input(node, &state)?;
        let kind = classify(&state, &wanted, combobox)
            .map_err(|m| invalid(format!("fields[{i}] (ref {reference}): {m}")))?;
        out.push(Field {
            reference,
            node,
            state,
            kind,
            wanted,
        });
    }
    Ok(out)
}
