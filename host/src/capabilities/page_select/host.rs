//! The WIT `Host` impl of `page-select`.

use super::{aria, native, plan, probe};
use crate::error::{BpError, BpResult};
use crate::tab::{Tab, TabView};
use crate::wit::page_select::{self, Attempt, MatchBy, Selection, Widget};

impl page_select::Host for TabView<'_> {
    async fn select(&mut self, node: u32, by: MatchBy, wanted: Vec<String>) -> BpResult<Selection> {
        // An unknown option's refusal carries the options the widget has,
        // as page data in its context: it goes out whole (`wit::typed`).
        let tab = self.tab()?;
        select(tab, node, by, &wanted).await
    }

    async fn widget_of(&mut self, node: u32) -> BpResult<Option<Widget>> {
        let tab = self.tab()?;
        let info = probe::run(tab, node, "inspect", &serde_json::Value::Null).await;
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
    ) -> BpResult<Attempt> {
        let tab = self.tab()?;
        match select(tab, node, by, &wanted).await {
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
) -> BpResult<Selection> {
    if wanted.is_empty() {
        return Err(BpError::invalid("name at least one option to select"));
    }
    let info = probe::run(tab, node, "inspect", &serde_json::Value::Null).await?;
    match info["kind"].as_str().unwrap_or("other") {
        "native-single" => native::select(tab, node, &info, Widget::NativeSingle, by, wanted).await,
        "native-multiple" => {
            native::select(tab, node, &info, Widget::NativeMultiple, by, wanted).await
        }
        "combobox" => aria::select(tab, node, &info, Widget::Combobox, by, wanted).await,
        "listbox" => aria::select(tab, node, &info, Widget::Listbox, by, wanted).await,
        _ => Err(BpError::invalid(
            "the element is not a select, combobox or listbox (nothing was changed); name the select, combobox or listbox itself",
        )),
    }
}
