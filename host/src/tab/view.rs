//! The view a capability with no private per-call state links against:
//! the call's [`Tab`] and nothing else. A capability that keeps state of
//! its own defines its own view beside its folder instead.

use super::Tab;
use crate::error::{BpError, BpResult};
use wasmtime::component::HasData;

/// What such a capability's host functions see: the call's tab, when the
/// call has one.
pub struct TabView<'a> {
    tab: Option<Tab<'a>>,
}

impl<'a> TabView<'a> {
    pub fn new(tab: Option<Tab<'a>>) -> Self {
        Self { tab }
    }

    /// The call's tab. A tool that imports a tab capability is always
    /// dispatched with one; reaching here without one is a broker bug,
    /// reported as an internal error.
    pub fn tab(&mut self) -> BpResult<&mut Tab<'a>> {
        self.tab
            .as_mut()
            .ok_or_else(|| BpError::internal("no tab scope for this call"))
    }

    /// The call's tab, once input dispatched before has settled (only
    /// reads that can serve as the barrier skip this and take
    /// [`TabView::tab`]; see `browser/input/settle.rs`).
    pub async fn settled(&mut self) -> BpResult<&mut Tab<'a>> {
        let tab = self.tab()?;
        tab.call.settle_pending().await;
        Ok(tab)
    }
}

/// Marker for linking an interface against [`TabView`].
pub struct TabScope;

impl HasData for TabScope {
    type Data<'a> = TabView<'a>;
}
crate::tool_errors!(TabView<'_>);
