//! The WIT `Host` impl of `pointer`.

use super::{drag, hover};
use crate::error::BpResult;
use crate::tab::TabView;
use crate::wit::pointer::{self, Dragged, DropAt, HoverTarget, Hovered, Pace};

impl pointer::Host for TabView<'_> {
    async fn hover(&mut self, target: HoverTarget, pace: Pace) -> BpResult<Hovered> {
        let tab = self.tab()?;
        hover::hover(tab, target, pace).await
    }

    async fn drag(
        &mut self,
        source: u32,
        target: DropAt,
        steps: u32,
        pace: Pace,
    ) -> BpResult<Dragged> {
        let tab = self.tab()?;
        drag::drag(tab, source, target, steps, pace).await
    }
}
