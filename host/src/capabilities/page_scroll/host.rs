//! The WIT `Host` impl of `page-scroll`.

use super::scroll;
use super::ScrollView;
use crate::wit::page_scroll::{self, Motion, Scrolled};
use crate::wit::typed::{typed, Res};

impl page_scroll::Host for ScrollView<'_> {
    async fn scroll(&mut self, node: Option<u32>, motion: Motion) -> Res<Scrolled> {
        let tab = self.tab()?;
        typed(scroll::scroll(tab, node, motion).await)
    }
}
