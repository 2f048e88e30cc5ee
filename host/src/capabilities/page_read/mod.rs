//! Capability `page-read` (`tools-wit/page-read.wit`): read the call's
//! tab: the page, its frames, the accessibility tree and the interactive
//! nodes, observations and their refs, one node's state, the page's text.
//! Its linking against the shared `TabView` (here), its WIT `Host` impl
//! (`host.rs`), the WIT <-> broker conversions (`convert.rs`, where page
//! text loses its invisible characters) and their unit tests. The reads
//! themselves are the tab's (`crate::tab`, `browser/observe/`,
//! `browser/call/`).

mod convert;
mod host;
#[cfg(test)]
mod tests;

use crate::tab::{TabScope, TabView};
use crate::wit::page_read;
use wasmtime::component::Linker;

/// Add `page-read` to a linker whose store data hands out the call's
/// [`TabView`] (this capability keeps no state of its own).
pub fn add_to_linker<T: Send + 'static>(
    linker: &mut Linker<T>,
    view: fn(&mut T) -> TabView<'_>,
) -> wasmtime::Result<()> {
    page_read::add_to_linker::<T, TabScope>(linker, view)
}
