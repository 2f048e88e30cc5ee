//! The WIT `Host` impl of `page-select`.

use super::{aria, native, plan, probe};
use crate::error::{BpError, BpResult};
use crate::tab::{Tab, TabView};
use crate::wit::page_select::{self, Attempt, MatchBy, Pace, Selection, Widget};
use serde_json::Value;

impl page_select::Host for TabView<'_> {
    async fn select(
        &mut self,
        node: u32,
        by: MatchBy,
        wanted: Vec<String>,
        pace: Pace,
    ) -> BpResult<Selection> {
        // An unknown option's refusal carries the options the widget has,
        // as page data in its context: it goes out whole (`wit::typed`).
        let tab = self.tab()?;
        select(tab, node, by, &wanted, pace).await
    }

    async fn widget_of(&mut self, node: u32) -> BpResult<Option<Widget>> {
        let tab = self.tab()?;
        let info = probe::run(tab, node, "inspect", &Value::Null).await;
        info.map(|i| match i["kind"].as_str() {
            Some("native-single") => Some(Widget::NativeSingle),
            Some("native-multiple") => Some(Widget::NativeMultiple),
            Some("combobox") => Some(Widget::Combobox),
            Some("listbox") => Some(Widget::Listbox),
            _ => None,
        })
    }

    async fn try_select(
        &mut self,
        node: u32,
        by: MatchBy,
        wanted: Vec<String>,
        pace: Pace,
    ) -> BpResult<Attempt> {
        let tab = self.tab()?;
        match select(tab, node, by, &wanted, pace).await {
            Ok(s) => Ok(Attempt::Chosen(s)),
            Err(e) => match plan::unknown_options(&e) {
                Some(u) => Ok(Attempt::Unknown(u)),
                None => Err(e),
            },
        }
    }
}

/// Choose `wanted` in the widget `node` is, by its kind.
async fn select(
    tab: &mut Tab<'_>,
    node: u32,
    by: MatchBy,
    wanted: &[String],
    pace: Pace,
) -> BpResult<Selection> {
    if wanted.is_empty() {
        return Err(BpError::invalid("name at least one option to select"));
    }
    let info = ready(tab, node, pace.wait_ms).await?;
    let kind = info["kind"].as_str().unwrap_or("other");
    let widget = match kind {
        "native-single" => Widget::NativeSingle,
        "native-multiple" => Widget::NativeMultiple,
        "combobox" => Widget::Combobox,
        "listbox" => Widget::Listbox,
        _ => {
            return Err(BpError::invalid(
                "the element is not a select, combobox or listbox (nothing was changed); name the select, combobox or listbox itself",
            ))
        }
    };
    match widget {
        Widget::NativeSingle | Widget::NativeMultiple => {
            native::select(tab, node, &info, widget, by, wanted, pace).await
        }
        Widget::Combobox | Widget::Listbox => {
            aria::select(tab, node, &info, widget, by, wanted, pace).await
        }
    }
}

/// The widget's `inspect` reply, once it is enabled: a select, combobox
/// or listbox that is disabled is waited for (up to `wait_ms`, as a click
/// waits: `disabled` when it stays so) and inspected again. Anything else
/// is inspected once.
async fn ready(tab: &mut Tab<'_>, node: u32, wait_ms: u32) -> BpResult<Value> {
    let info = probe::run(tab, node, "inspect", &Value::Null).await?;
    let widget = matches!(
        info["kind"].as_str(),
        Some("native-single" | "native-multiple" | "combobox" | "listbox")
    );
    if !widget || info["disabled"] != true || wait_ms == 0 {
        return Ok(info);
    }
    tab.actionable(node, wait_ms, false).await?;
    probe::run(tab, node, "inspect", &Value::Null).await
}
