//! The WIT `Host` impl of `page-wait`.

use super::poll;
use crate::error::BpResult;
use crate::tab::TabView;
use crate::wit::page_wait::{self, Condition, Waited};

/// The longest wait one call may ask for.
pub const MAX_TIMEOUT_MS: u32 = 30_000;

impl page_wait::Host for TabView<'_> {
    async fn wait_for(&mut self, condition: Condition, timeout_ms: u32) -> BpResult<Waited> {
        let tab = self.tab()?;
        poll::wait_for(tab, &condition, timeout_ms.min(MAX_TIMEOUT_MS)).await
    }
}
