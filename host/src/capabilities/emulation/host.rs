//! The WIT `Host` impl of `emulation`.

use super::apply;
use crate::error::BpResult;
use crate::tab::TabView;
use crate::wit::emulation::{self, ColorScheme, MediaRead, Metrics, ReducedMotion, ViewportRead};

impl emulation::Host for TabView<'_> {
    async fn set_viewport(&mut self, metrics: Metrics) -> BpResult<ViewportRead> {
        let tab = self.tab()?;
        apply::set_viewport(tab, metrics).await
    }

    async fn reset_viewport(&mut self) -> BpResult<ViewportRead> {
        let tab = self.tab()?;
        apply::reset_viewport(tab).await
    }

    async fn emulate_media(
        &mut self,
        color_scheme: Option<ColorScheme>,
        reduced_motion: Option<ReducedMotion>,
    ) -> BpResult<MediaRead> {
        let tab = self.tab()?;
        apply::emulate_media(tab, color_scheme, reduced_motion).await
    }
}
