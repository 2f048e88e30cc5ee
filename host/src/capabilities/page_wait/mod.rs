//! Capability `page-wait` (`tools-wit/page-wait.wit`): wait, bounded, for
//! a condition on the call's tab. Everything the capability is lives in
//! this folder: its view and linking (here), its WIT `Host` impl
//! (`host.rs`), the page-side predicates and the poll loop (`poll.rs`),
//! the pure logic of conditions and their schedule (`condition.rs`), and
//! its unit tests. It sees only the shared [`Tab`], never the whole call.

mod condition;
mod host;
mod poll;
#[cfg(test)]
mod tests;

use crate::tab::Tab;
use crate::wit::page_wait;
use wasmtime::component::{HasData, Linker};

/// What the capability's host functions see: the call's tab, when the
/// call has one.
pub struct WaitView<'a> {
    tab: Option<Tab<'a>>,
}

impl<'a> WaitView<'a> {
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

/// Marker for linking `page-wait` against [`WaitView`].
pub struct WaitScope;

impl HasData for WaitScope {
    type Data<'a> = WaitView<'a>;
}

/// Add `page-wait` to a linker whose store data hands out a [`WaitView`].
pub fn add_to_linker<T: Send + 'static>(
    linker: &mut Linker<T>,
    view: fn(&mut T) -> WaitView<'_>,
) -> wasmtime::Result<()> {
    page_wait::add_to_linker::<T, WaitScope>(linker, view)
}
