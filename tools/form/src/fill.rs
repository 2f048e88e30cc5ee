//! Filling one field as a person would, then reading it back: text is
//! typed (the content selected and replaced), a checkbox or radio is
//! clicked with real input when its state differs, a select goes
//! through `page-select`, a range input is moved with arrow keys.

use crate::browser_pilot::tools::input::{self as host_input, Modifiers, MouseButton};
use crate::browser_pilot::tools::page_read;
use crate::browser_pilot::tools::page_select::{self, Attempt, MatchBy, Pace, UnknownOptions};
use crate::plan::{Field, Kind, Wanted};
use bp_sdk::types::SettleMode;
use bp_sdk::typing::{type_steps, typed_matches, Read};
use bp_sdk::{invalid, not_verified, NotVerified, ToolError};
use serde_json::{json, Value};

/// The most arrow-key steps a range input is moved by.
const MAX_RANGE_STEPS: u32 = 1000;

/// Why a field failed.
pub enum Failure {
    /// A step failed with this error.
    Error(ToolError),
    /// The field was filled but does not read back as asked (its
    /// evidence).
    Mismatch(Value),
    /// Options asked for do not exist; nothing was chosen.
    Unknown(UnknownOptions),
}

impl From<ToolError> for Failure {
    fn from(e: ToolError) -> Self {
        Failure::Error(e)
    }
}

/// The evidence of one field: verified, or a mismatch (a failure).
fn verdict(ok: bool, mut evidence: Value) -> Result<Value, Failure> {
    evidence["status"] = json!(if ok { "verified" } else { "mismatch" });
    evidence["verdict"] = json!(if ok { "value_matches" } else { "mismatch" });
    if ok {
        Ok(evidence)
    } else {
        Err(Failure::Mismatch(evidence))
    }
}

/// Fill `field` (of observation `observation`), waiting up to `wait` ms
/// for it to be ready for input.
pub fn fill(observation: &str, field: &Field, wait: u32) -> Result<Value, Failure> {
    let base = json!({"ref": field.reference, "kind": field.kind.name()});
    match (field.kind, &field.wanted) {
        (Kind::Text, Wanted::Text(t)) => text(observation, field, t, wait, base),
        (Kind::Text, Wanted::Number(n)) => text(observation, field, &n.to_string(), wait, base),
        (Kind::Checkbox | Kind::Radio, Wanted::Flag(on)) => toggle(field, *on, wait, base),
        (Kind::Checkbox | Kind::Radio, Wanted::Text(t)) => match crate::plan::flag(t) {
            Some(on) => toggle(field, on, wait, base),
            None => Err(invalid("a checkbox or radio button takes true or false").into()),
        },
        (Kind::Select, Wanted::Text(t)) => select(field, std::slice::from_ref(t), wait, base),
        (Kind::Select, Wanted::Labels(l)) => select(field, l, wait, base),
        (Kind::Range, Wanted::Number(n)) => range(field, *n, base),
        (Kind::Range, Wanted::Text(t)) => match t.trim().parse::<f64>() {
            Ok(n) => range(field, n, base),
            Err(_) => Err(invalid("a range input takes a number").into()),
        },
        _ => Err(invalid("the value does not fit the field").into()),
    }
}

/// Type `text` in place of the field's content, and read it back. The
/// steps and the read-back rule are the input family's (`bp_sdk::typing`).
fn text(
    observation: &str,
    field: &Field,
    text: &str,
    wait: u32,
    base: Value,
) -> Result<Value, Failure> {
    let (node, before, selected) =
        host_input::focus_editable(observation, field.reference, true, wait)?;
    if !before.editable {
        return Err(not_verified("not_editable").into());
    }
    let steps = type_steps(true, selected, text, false);
    for step in steps.iter().skip(1) {
        match *step {
            "select_all" => host_input::press_key("a", Modifiers::CTRL)?,
            "delete" => host_input::press_key("Backspace", Modifiers::empty())?,
            _ => host_input::insert_text(text)?,
        }
    }
    let after = page_read::read_node(node)?;
    let ok = typed_matches(
        Read {
            value: before.value.as_deref(),
            length: before.value_length,
        },
        Read {
            value: after.value.as_deref(),
            length: after.value_length,
        },
        text,
        true,
    );
    verdict(ok, base)
}

/// Click a checkbox or radio with real input when its state is not `on`.
fn toggle(field: &Field, on: bool, wait: u32, mut base: Value) -> Result<Value, Failure> {
    if field.state.checked == Some(on) {
        base["checked"] = json!(on);
        base["clicked"] = json!(false);
        return verdict(true, base);
    }
    host_input::actionable(field.node, wait)?;
    let (at, hit) = host_input::aim(field.node)?;
    if !hit.on_target {
        return Err(Failure::Error(ToolError::ActionNotVerified(NotVerified {
            reason: "covered".to_string(),
            covering_role: Some(hit.role),
            covering_name: Some(hit.name),
        })));
    }
    host_input::click(at, MouseButton::Left, 1)?;
    let after = page_read::read_node(field.node)?;
    base["checked"] = json!(after.checked);
    base["clicked"] = json!(true);
    verdict(after.checked == Some(on), base)
}

/// Choose `labels` through `page-select` (the fill settles once, at its
/// end).
fn select(field: &Field, labels: &[String], wait: u32, mut base: Value) -> Result<Value, Failure> {
    let pace = Pace {
        wait_ms: wait,
        settle: SettleMode::None,
    };
    match page_select::try_select(field.node, MatchBy::Label, labels, pace)? {
        Attempt::Chosen(s) => {
            base["selected"] = Value::Array(
                s.selected
                    .iter()
                    .map(|c| json!({"label": c.label, "value": c.value}))
                    .collect(),
            );
            verdict(s.matches, base)
        }
        Attempt::Unknown(u) => Err(Failure::Unknown(u)),
    }
}

fn number(field: &Field) -> Result<f64, ToolError> {
    page_read::read_node(field.node)?
        .value
        .and_then(|v| v.trim().parse::<f64>().ok())
        .ok_or_else(|| ToolError::Internal("the range input's value is not a number".into()))
}

/// Move a range input to `target` with arrow keys, as a person does with
/// the keyboard: one key finds the step, then as many as it takes.
fn range(field: &Field, target: f64, mut base: Value) -> Result<Value, Failure> {
    host_input::focus(field.node)?;
    let start = number(field)?;
    let close = |v: f64| (v - target).abs() < 1e-9;
    if !close(start) {
        let key = if target > start {
            "ArrowRight"
        } else {
            "ArrowLeft"
        };
        host_input::press_key(key, Modifiers::empty())?;
        let one = number(field)?;
        let step = (one - start).abs();
        if step > 0.0 {
            let more = ((target - one).abs() / step).round();
            if more > f64::from(MAX_RANGE_STEPS) {
                return Err(invalid(format!(
                    "the range input is more than {MAX_RANGE_STEPS} steps from the value"
                ))
                .into());
            }
            for _ in 0..(more as u32) {
                host_input::press_key(key, Modifiers::empty())?;
            }
        }
    }
    let end = number(field)?;
    base["value"] = json!(end);
    verdict(close(end), base)
}
