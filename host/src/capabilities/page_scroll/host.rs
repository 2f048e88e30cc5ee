//! The WIT `Host` impl of `page-scroll`.

use super::scroll;
use crate::tab::TabView;
use crate::wit::page_scroll::{self, Motion, Scrolled};
use crate::wit::typed::{typed, Res};

impl page_scroll::Host for TabView<'_> {
    async fn scroll(&mut self, node: Option<u32>, motion: Motion) -> Res<Scrolled> {
        let tab = self.tab()?;
        typed(scroll::scroll(tab, node, motion).await)
    }
}
