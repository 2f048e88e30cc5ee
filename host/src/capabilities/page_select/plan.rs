//! The pure part of a select: the options read from the page, which of
//! them the caller wants (looked up before anything is chosen), the
//! refusals (unknown option, several options for a one-choice widget, a
//! disabled option), and whether the selection read back matches.

use crate::error::{BpError, Code};
use crate::wit::page_select::{Chosen, MatchBy, UnknownOptions};
use serde_json::{json, Value};

/// How many of the labels a widget has an unknown option's refusal lists.
pub const LISTED_LABELS: usize = 20;
/// How many characters of each listed label.
const LABEL_CHARS: usize = 80;

/// One option as the page reported it.
#[derive(Debug, Clone, PartialEq)]
pub struct Opt {
    pub label: String,
    pub value: Option<String>,
    pub disabled: bool,
    pub selected: bool,
}

impl Opt {
    pub fn chosen(&self) -> Chosen {
        Chosen {
            label: self.label.clone(),
            value: self.value.clone(),
        }
    }
}

/// The options in a page reply (`options: [{label, value, disabled,
/// selected}]`); entries that are not objects are skipped.
pub fn options(v: &Value) -> Vec<Opt> {
    v.as_array()
        .into_iter()
        .flatten()
        .filter(|o| o.is_object())
        .map(|o| Opt {
            label: o["label"].as_str().unwrap_or_default().to_string(),
            value: o["value"].as_str().map(str::to_string),
            disabled: o["disabled"].as_bool().unwrap_or(false),
            selected: o["selected"].as_bool().unwrap_or(false),
        })
        .collect()
}

/// Labels compare with whitespace collapsed and trimmed.
pub fn norm(s: &str) -> String {
    s.split_whitespace().collect::<Vec<_>>().join(" ")
}

/// The index of the option `want` names: by value exactly; by label
/// exactly, else the one label equal to it ignoring case.
fn find_one(options: &[Opt], by: MatchBy, want: &str) -> Option<usize> {
    match by {
        MatchBy::Value => options
            .iter()
            .position(|o| o.value.as_deref() == Some(want)),
        MatchBy::Label => {
            let want = norm(want);
            options.iter().position(|o| o.label == want).or_else(|| {
                let lower = want.to_lowercase();
                let same: Vec<usize> = (0..options.len())
                    .filter(|i| options[*i].label.to_lowercase() == lower)
                    .collect();
                (same.len() == 1).then(|| same[0])
            })
        }
    }
}

/// The options `wanted` names, in order, each once; an option that does
/// not exist refuses the whole request, listing (bounded) what exists.
pub fn find(
    options: &[Opt],
    total: u64,
    by: MatchBy,
    wanted: &[String],
) -> Result<Vec<usize>, BpError> {
    let mut found = Vec::new();
    let mut missing = Vec::new();
    for w in wanted {
        match find_one(options, by, w) {
            Some(i) if !found.contains(&i) => found.push(i),
            Some(_) => {}
            None => missing.push(w.as_str()),
        }
    }
    if missing.is_empty() {
        Ok(found)
    } else {
        Err(unknown(&missing, options, total, by))
    }
}

fn word(by: MatchBy) -> &'static str {
    match by {
        MatchBy::Label => "label",
        MatchBy::Value => "value",
    }
}

fn bounded(s: &str) -> String {
    let clean = crate::sanitize::invisible::clean(s);
    clean.chars().take(LABEL_CHARS).collect()
}

/// The refusal of an option that does not exist: what the widget has is
/// page data, in `context.pageData` (at most [`LISTED_LABELS`] labels,
/// each bounded and cleaned of invisible characters), never in the words.
pub fn unknown(missing: &[&str], options: &[Opt], total: u64, by: MatchBy) -> BpError {
    let listed: Vec<Value> = options
        .iter()
        .take(LISTED_LABELS)
        .map(|o| json!({"label": bounded(&o.label), "value": o.value.as_deref().map(bounded)}))
        .collect();
    let asked: Vec<String> = missing.iter().map(|m| bounded(m)).collect();
    BpError::invalid(format!(
        "no option has the {} asked for ({} not found; nothing was changed): context.missing names them, context.pageData.options lists (at most {LISTED_LABELS} of) the options the widget has",
        word(by),
        missing.len(),
    ))
    .with_context(json!({
        "reason": "unknown_option",
        "missing": asked,
        "optionCount": total,
        "pageData": {"options": listed},
    }))
}

/// Whether `e` is an unknown option's refusal (it carries page data).
pub fn is_unknown_option(e: &BpError) -> bool {
    e.context
        .as_ref()
        .is_some_and(|c| c["reason"] == "unknown_option")
}

/// An unknown option's refusal as the WIT outcome `try-select` returns
/// (the same bounded, cleaned page data); `None` for any other error.
pub fn unknown_options(e: &BpError) -> Option<UnknownOptions> {
    if !is_unknown_option(e) {
        return None;
    }
    let ctx = e.context.as_ref()?;
    let strings = |v: &Value| -> Vec<String> {
        v.as_array()
            .into_iter()
            .flatten()
            .filter_map(|s| s.as_str().map(str::to_string))
            .collect()
    };
    Some(UnknownOptions {
        missing: strings(&ctx["missing"]),
        options: chosen(&ctx["pageData"]["options"]),
        total: u32::try_from(ctx["optionCount"].as_u64().unwrap_or(0)).unwrap_or(u32::MAX),
    })
}

/// Several options for a widget that holds one.
pub fn one_only(n: usize) -> BpError {
    BpError::invalid(format!(
        "this widget holds one choice; {n} options were asked for (nothing was changed)"
    ))
}

/// A disabled widget or option: nothing was chosen.
pub fn disabled(what: &str) -> BpError {
    BpError::new(
        Code::ActionNotVerified,
        format!("the {what} is disabled; nothing was changed"),
    )
    .with_context(json!({"reason": "disabled"}))
}

/// A native select a person cannot see (a widget library keeps the
/// select it stands in for hidden): setting it would leave the widget
/// showing something else, so nothing is set.
pub fn hidden() -> BpError {
    BpError::new(
        Code::ActionNotVerified,
        "the select is hidden (a custom widget likely stands in for it); nothing was changed: select through the widget's combobox instead",
    )
    .with_context(json!({"reason": "not_visible"}))
}

/// Whether the selection read back holds every wanted option and, for
/// a one-choice widget, nothing else.
pub fn matches(wanted: &[Chosen], selected: &[Chosen], multiple: bool) -> bool {
    let has = |w: &Chosen| {
        selected
            .iter()
            .any(|s| s.label == w.label && (w.value.is_none() || s.value == w.value))
    };
    wanted.iter().all(has) && (multiple || selected.len() == wanted.len())
}

/// The options in a page reply of selected `{label, value}` pairs.
pub fn chosen(v: &Value) -> Vec<Chosen> {
    options(v).iter().map(Opt::chosen).collect()
}
