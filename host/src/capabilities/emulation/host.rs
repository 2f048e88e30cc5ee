//! The WIT `Host` impl of `emulation`.

use super::apply;
use crate::tab::TabView;
use crate::wit::emulation::{self, ColorScheme, MediaRead, Metrics, ReducedMotion, ViewportRead};
use crate::wit::typed::{typed, Res};

impl emulation::Host for TabView<'_> {
    async fn set_viewport(&mut self, metrics: Metrics) -> Res<ViewportRead> {
        let tab = self.tab()?;
        typed(apply::set_viewport(tab, metrics).await)
    }

    async fn reset_viewport(&mut self) -> Res<ViewportRead> {
        let tab = self.tab()?;
        typed(apply::reset_viewport(tab).await)
    }

    async fn emulate_media(
        &mut self,
        color_scheme: Option<ColorScheme>,
        reduced_motion: Option<ReducedMotion>,
    ) -> Res<MediaRead> {
        let tab = self.tab()?;
        typed(apply::emulate_media(tab, color_scheme, reduced_motion).await)
    }
}
