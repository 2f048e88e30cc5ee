//! The WIT `Host` impl of `pointer`.

use super::{drag, hover};
use crate::error::BpResult;
use crate::tab::TabView;
use crate::wit::pointer::{self, Dragged, DropAt, HoverTarget, Hovered};

impl pointer::Host for TabView<'_> {
    async fn hover(&mut self, target: HoverTarget) -> BpResult<Hovered> {
        let tab = self.tab()?;
        hover::hover(tab, target).await
    }

    async fn drag(&mut self, source: u32, target: DropAt, steps: u32) -> BpResult<Dragged> {
        let tab = self.tab()?;
        drag::drag(tab, source, target, steps).await
    }
}
