//! An ARIA combobox or listbox: the popup is opened with a real click,
//! found wherever it is rendered, every wanted option is looked up before
//! any is chosen, each is clicked with real input, the popup is closed
//! (Escape) if still open, and the widget's selection is read back.

use super::plan::{self, Opt};
use super::probe;
use crate::browser::types::Point;
use crate::error::{BpError, BpResult, Code};
use crate::tab::Tab;
use crate::wit::page_select::{Chosen, MatchBy, Pace, Selection, Widget};
use serde_json::{json, Value};
use std::time::{Duration, Instant};

/// How long a popup is waited for after the click that opens it (its
/// options may be created on open).
const OPEN_WAIT: Duration = Duration::from_millis(1500);
/// How long a choice is waited for to show in the widget.
const CHOICE_WAIT: Duration = Duration::from_millis(800);
/// How long a popup is waited for to close after Escape.
const CLOSE_WAIT: Duration = Duration::from_millis(500);
/// The pause between reads.
const TICK: Duration = Duration::from_millis(40);

/// The popup as one read found it.
struct Popup {
    found: bool,
    open: bool,
    multiple: bool,
    options: Vec<Opt>,
    total: u64,
}

async fn popup(tab: &mut Tab<'_>, node: u32) -> BpResult<Popup> {
    let v = probe::run(tab, node, "options", &Value::Null).await?;
    Ok(Popup {
        found: v["found"].as_bool().unwrap_or(false),
        open: v["open"].as_bool().unwrap_or(false),
        multiple: v["multiple"].as_bool().unwrap_or(false),
        options: plan::options(&v["options"]),
        total: v["total"].as_u64().unwrap_or(0),
    })
}

fn point(v: &Value) -> Option<Point> {
    Some(Point {
        x: v["x"].as_f64()?,
        y: v["y"].as_f64()?,
    })
}

/// A click point the page refused: covered (with what covers it), or
/// gone.
fn not_clickable(v: &Value, what: &str) -> BpError {
    let reason = if v["covered"] == true {
        "covered"
    } else if v["gone"] == true {
        "option_gone"
    } else {
        "not_visible"
    };
    let mut context = json!({"reason": reason});
    if reason == "covered" {
        context["coveringRole"] = json!(v["role"].as_str().unwrap_or_default());
        context["coveringName"] = json!(v["name"].as_str().unwrap_or_default());
    }
    BpError::new(
        Code::ActionNotVerified,
        format!(
            "the {what} could not be clicked ({})",
            reason.replace('_', " ")
        ),
    )
    .with_context(context)
}

/// Open the popup with a real click on the widget, and wait (bounded)
/// until it shows with options.
async fn open(tab: &mut Tab<'_>, node: u32, wait_ms: u32, clicks: &mut u32) -> BpResult<Popup> {
    // The widget ready first (attached, visible, stable, enabled), waited
    // for as a click waits (up to `wait_ms`); the point clicked may be its
    // wrapper's.
    tab.actionable(node, wait_ms, false).await?;
    probe::run(tab, node, "prepare", &Value::Null).await?;
    let v = probe::run(tab, node, "open-point", &Value::Null).await?;
    let at = point(&v).ok_or_else(|| not_clickable(&v, "widget"))?;
    tab.click_at(at).await?;
    *clicks += 1;
    let start = Instant::now();
    loop {
        let p = popup(tab, node).await?;
        if (p.open && !p.options.is_empty()) || start.elapsed() >= OPEN_WAIT {
            return Ok(p);
        }
        tokio::time::sleep(TICK).await;
    }
}

/// Close a popup that is still open, with Escape; whether it closed.
async fn close(tab: &mut Tab<'_>, node: u32) -> BpResult<bool> {
    if !popup(tab, node).await?.open {
        return Ok(false);
    }
    tab.press_key("Escape").await?;
    let start = Instant::now();
    loop {
        if !popup(tab, node).await?.open {
            return Ok(true);
        }
        if start.elapsed() >= CLOSE_WAIT {
            return Ok(false);
        }
        tokio::time::sleep(TICK).await;
    }
}

/// The labels of `known` the widget shows as selected now.
async fn readback(tab: &mut Tab<'_>, node: u32, known: &[Opt]) -> BpResult<Vec<Chosen>> {
    let labels: Vec<&str> = known.iter().map(|o| o.label.as_str()).collect();
    let v = probe::run(tab, node, "readback", &json!(labels)).await?;
    let shown: Vec<&str> = v["labels"]
        .as_array()
        .into_iter()
        .flatten()
        .filter_map(Value::as_str)
        .collect();
    let mut out: Vec<Chosen> = Vec::new();
    for o in known {
        if shown.contains(&o.label.as_str()) && !out.iter().any(|c| c.label == o.label) {
            out.push(o.chosen());
        }
    }
    Ok(out)
}

/// Choose `wanted` in the ARIA widget `node`, whose `inspect` reply is
/// `info`; settled as `pace` says (armed before the first click) before
/// the selection is read back.
pub async fn select(
    tab: &mut Tab<'_>,
    node: u32,
    info: &Value,
    widget: Widget,
    by: MatchBy,
    wanted: &[String],
    pace: Pace,
) -> BpResult<Selection> {
    if info["disabled"].as_bool().unwrap_or(false) {
        return Err(plan::disabled(match widget {
            Widget::Listbox => "listbox",
            _ => "combobox",
        }));
    }
    let mut clicks = 0;
    let is_combobox = widget == Widget::Combobox;
    let already_open = probe::run(tab, node, "prepare", &Value::Null).await? == true;
    tab.pace_arm(pace).await?;
    let first = if is_combobox && !already_open {
        open(tab, node, pace.wait_ms, &mut clicks).await?
    } else {
        popup(tab, node).await?
    };
    let opened = clicks > 0;
    let found = match look_up(&first, info, by, wanted) {
        Ok(found) => found,
        Err(e) => {
            if opened {
                close(tab, node).await?;
            }
            return Err(e);
        }
    };
    let multiple = first.multiple || info["multiple"] == true;
    let want: Vec<Chosen> = found.iter().map(|i| first.options[*i].chosen()).collect();
    let before = readback(tab, node, &first.options).await?;
    for w in &want {
        // In a multi-select a click on a chosen option often takes it
        // away again: one already shown as chosen is left as it is.
        if multiple && before.iter().any(|b| b.label == w.label) {
            continue;
        }
        choose(tab, node, is_combobox, w, by, pace.wait_ms, &mut clicks).await?;
        wait_shown(tab, node, &first.options, w).await?;
    }
    let closed = is_combobox && close(tab, node).await?;
    let settle = tab.pace_settle(pace).await?;
    let selected = readback(tab, node, &first.options).await?;
    Ok(Selection {
        widget,
        matches: plan::matches(&want, &selected, multiple),
        changed: !same(&before, &selected),
        selected,
        clicks,
        closed_with_escape: closed,
        settle,
    })
}

/// Every refusal before anything is chosen: no popup, several options
/// for a one-choice widget, an option that does not exist, a disabled
/// option.
fn look_up(p: &Popup, info: &Value, by: MatchBy, wanted: &[String]) -> BpResult<Vec<usize>> {
    if !p.found || p.options.is_empty() {
        return Err(BpError::new(
            Code::ActionNotVerified,
            "no listbox with options showed for the widget; nothing was chosen",
        )
        .with_context(json!({"reason": "no_popup"})));
    }
    let multiple = p.multiple || info["multiple"] == true;
    if !multiple && wanted.len() > 1 {
        return Err(plan::one_only(wanted.len()));
    }
    let found = plan::find(&p.options, p.total, by, wanted)?;
    if found.iter().any(|i| p.options[*i].disabled) {
        return Err(plan::disabled("option"));
    }
    Ok(found)
}

/// Click the option `w` with real input, opening the popup again first
/// if an earlier choice closed it.
async fn choose(
    tab: &mut Tab<'_>,
    node: u32,
    is_combobox: bool,
    w: &Chosen,
    by: MatchBy,
    wait_ms: u32,
    clicks: &mut u32,
) -> BpResult<()> {
    if is_combobox && !popup(tab, node).await?.open {
        open(tab, node, wait_ms, clicks).await?;
    }
    let key = match by {
        MatchBy::Value => json!({"by": "value", "want": w.value}),
        MatchBy::Label => json!({"by": "label", "want": w.label}),
    };
    let v = probe::run(tab, node, "option-point", &key).await?;
    if v["disabled"] == true {
        return Err(plan::disabled("option"));
    }
    let at = point(&v).ok_or_else(|| not_clickable(&v, "option"))?;
    tab.click_at(at).await?;
    *clicks += 1;
    Ok(())
}

/// Wait, bounded, for the widget to show `w` as selected.
async fn wait_shown(tab: &mut Tab<'_>, node: u32, known: &[Opt], w: &Chosen) -> BpResult<()> {
    let start = Instant::now();
    while start.elapsed() < CHOICE_WAIT {
        if readback(tab, node, known)
            .await?
            .iter()
            .any(|c| c.label == w.label)
        {
            break;
        }
        tokio::time::sleep(TICK).await;
    }
    Ok(())
}

fn same(a: &[Chosen], b: &[Chosen]) -> bool {
    a.len() == b.len() && a.iter().zip(b).all(|(x, y)| x.label == y.label)
}
