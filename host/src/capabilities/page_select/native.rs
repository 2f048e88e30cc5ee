//! A native `<select>`: the options are looked up first, then set as a
//! person's choice sets them (focus, the selection, `input` and `change`
//! events), and the selection is read back.

use super::plan::{self, Opt};
use super::probe;
use crate::error::BpResult;
use crate::tab::Tab;
use crate::wit::page_select::{Chosen, MatchBy, Pace, Selection, Widget};
use serde_json::{json, Value};

/// Choose `wanted` in the native select `node`, whose `inspect` reply is
/// `info`; settled as `pace` says before the selection is read back.
pub async fn select(
    tab: &mut Tab<'_>,
    node: u32,
    info: &Value,
    widget: Widget,
    by: MatchBy,
    wanted: &[String],
    pace: Pace,
) -> BpResult<Selection> {
    let multiple = widget == Widget::NativeMultiple;
    let options = plan::options(&info["options"]);
    let indices = check(info, &options, multiple, by, wanted)?;
    let want: Vec<Chosen> = indices.iter().map(|i| options[*i].chosen()).collect();
    tab.pace_arm(pace).await?;
    let set = probe::run(tab, node, "native-set", &json!(indices)).await?;
    let settle = tab.pace_settle(pace).await?;
    // Read again: a `change` handler may have changed it back.
    let read = probe::run(tab, node, "native-read", &Value::Null).await?;
    let selected = plan::chosen(&read["selected"]);
    Ok(Selection {
        widget,
        matches: plan::matches(&want, &selected, multiple),
        selected,
        changed: set["changed"].as_bool().unwrap_or(false),
        clicks: 0,
        closed_with_escape: false,
        settle,
    })
}

/// Every refusal, before anything is set: a hidden select, a disabled
/// select, several options for a one-choice select, an option that does
/// not exist, a disabled option.
pub fn check(
    info: &Value,
    options: &[Opt],
    multiple: bool,
    by: MatchBy,
    wanted: &[String],
) -> BpResult<Vec<usize>> {
    if info["hidden"].as_bool().unwrap_or(false) {
        return Err(plan::hidden());
    }
    if info["disabled"].as_bool().unwrap_or(false) {
        return Err(plan::disabled("select"));
    }
    if !multiple && wanted.len() > 1 {
        return Err(plan::one_only(wanted.len()));
    }
    let total = info["total"].as_u64().unwrap_or(options.len() as u64);
    let indices = plan::find(options, total, by, wanted)?;
    if indices.iter().any(|i| options[*i].disabled) {
        return Err(plan::disabled("option"));
    }
    Ok(indices)
}
