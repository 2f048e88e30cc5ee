//! The WIT `Host` impl of `pointer`.

use super::{drag, hover};
use crate::tab::TabView;
use crate::wit::pointer::{self, Dragged, DropAt, HoverTarget, Hovered};
use crate::wit::typed::{typed, Res};

impl pointer::Host for TabView<'_> {
    async fn hover(&mut self, target: HoverTarget) -> Res<Hovered> {
        let tab = self.tab()?;
        typed(hover::hover(tab, target).await)
    }

    async fn drag(&mut self, source: u32, target: DropAt, steps: u32) -> Res<Dragged> {
        let tab = self.tab()?;
        typed(drag::drag(tab, source, target, steps).await)
    }
}
