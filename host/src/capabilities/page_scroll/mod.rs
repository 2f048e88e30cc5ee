//! Capability `page-scroll` (`tools-wit/page-scroll.wit`): scroll the
//! call's page, a scroll container, or an element into view, and read
//! back what moved. Everything the capability is lives in this folder:
//! its linking against the shared `TabView` (here), its WIT `Host` impl (`host.rs`), the
//! scrolls themselves (`scroll.rs`), the page-side probes and the pure
//! logic of edges, steps and growth (`metrics.rs`), and its unit tests.
//! It sees only the shared [`crate::tab::Tab`], never the whole call.

mod host;
mod metrics;
mod scroll;
#[cfg(test)]
mod tests;

use crate::tab::{TabScope, TabView};
use crate::wit::page_scroll;
use wasmtime::component::Linker;

/// Add `page-scroll` to a linker whose store data hands out the
/// call's [`TabView`] (this capability keeps no state of its own).
pub fn add_to_linker<T: Send + 'static>(
    linker: &mut Linker<T>,
    view: fn(&mut T) -> TabView<'_>,
) -> wasmtime::Result<()> {
    page_scroll::add_to_linker::<T, TabScope>(linker, view)
}
