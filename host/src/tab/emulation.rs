//! The tab's rendering overrides, for the `emulation` capability.

use super::Tab;
use crate::browser::call::emulation::Override;
use crate::error::BpResult;

impl Tab<'_> {
    /// Make an emulation override on the tab (removed by the broker once
    /// no lease controls the tab).
    pub async fn emulate(&mut self, o: &Override) -> BpResult<()> {
        self.call.emulate(o).await
    }
}
