//! The WIT `Host` impl of `page-scroll`.

use super::scroll;
use crate::error::BpResult;
use crate::tab::TabView;
use crate::wit::page_scroll::{self, Motion, Scrolled};

impl page_scroll::Host for TabView<'_> {
    async fn scroll(&mut self, node: Option<u32>, motion: Motion) -> BpResult<Scrolled> {
        let tab = self.tab()?;
        scroll::scroll(tab, node, motion).await
    }
}
