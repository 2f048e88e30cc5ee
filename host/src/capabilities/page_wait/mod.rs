//! Capability `page-wait` (`tools-wit/page-wait.wit`): wait, bounded, for
//! a condition on the call's tab. Everything the capability is lives in
//! this folder: its linking against the shared `TabView` (here), its WIT `Host` impl
//! (`host.rs`), the page-side predicates and the poll loop (`poll.rs`),
//! the pure logic of conditions and their schedule (`condition.rs`), and
//! its unit tests. It sees only the shared [`crate::tab::Tab`], never the whole call.

mod condition;
mod host;
mod poll;
#[cfg(test)]
mod tests;

use crate::tab::{TabScope, TabView};
use crate::wit::page_wait;
use wasmtime::component::Linker;

/// Add `page-wait` to a linker whose store data hands out the
/// call's [`TabView`] (this capability keeps no state of its own).
pub fn add_to_linker<T: Send + 'static>(
    linker: &mut Linker<T>,
    view: fn(&mut T) -> TabView<'_>,
) -> wasmtime::Result<()> {
    page_wait::add_to_linker::<T, TabScope>(linker, view)
}
