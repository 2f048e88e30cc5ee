//! Capability `page-scroll` (`tools-wit/page-scroll.wit`): scroll the
//! call's page, a scroll container, or an element into view, and read
//! back what moved. Everything the capability is lives in this folder:
//! its view and linking (here), its WIT `Host` impl (`host.rs`), the
//! scrolls themselves (`scroll.rs`), the page-side probes and the pure
//! logic of edges, steps and growth (`metrics.rs`), and its unit tests.
//! It sees only the shared [`Tab`], never the whole call.

mod host;
mod metrics;
mod scroll;
#[cfg(test)]
mod tests;

use crate::tab::Tab;
use crate::wit::page_scroll;
use wasmtime::component::{HasData, Linker};

/// What the capability's host functions see: the call's tab, when the
/// call has one.
pub struct ScrollView<'a> {
    tab: Option<Tab<'a>>,
}

impl<'a> ScrollView<'a> {
    pub fn new(tab: Option<Tab<'a>>) -> Self {
        Self { tab }
    }

    /// The call's tab. A tool that imports this capability is always
    /// dispatched with one; reaching here without one is a broker bug,
    /// reported as a trap.
    fn tab(&mut self) -> wasmtime::Result<&mut Tab<'a>> {
        self.tab
            .as_mut()
            .ok_or_else(|| wasmtime::Error::msg("no tab scope for this call"))
    }
}

/// Marker for linking `page-scroll` against [`ScrollView`].
pub struct ScrollScope;

impl HasData for ScrollScope {
    type Data<'a> = ScrollView<'a>;
}

/// Add `page-scroll` to a linker whose store data hands out a
/// [`ScrollView`].
pub fn add_to_linker<T: Send + 'static>(
    linker: &mut Linker<T>,
    view: fn(&mut T) -> ScrollView<'_>,
) -> wasmtime::Result<()> {
    page_scroll::add_to_linker::<T, ScrollScope>(linker, view)
}
