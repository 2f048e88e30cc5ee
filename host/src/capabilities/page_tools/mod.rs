//! Capability `page-tools` (`tools-wit/page-tools.wit`): the tools a page
//! declares (WebMCP): list them, look one up, invoke one. Its linking
//! against the shared `TabView` (here), its WIT `Host` impl (`host.rs`)
//! and the WIT <-> broker conversions (`convert.rs`, where the page's
//! words lose their invisible characters). The operations are the tab's
//! (`crate::tab`, `browser/page_tools/`).

mod convert;
mod host;

use crate::tab::{TabScope, TabView};
use crate::wit::page_tools;
use wasmtime::component::Linker;

/// Add `page-tools` to a linker whose store data hands out the call's
/// [`TabView`] (this capability keeps no state of its own).
pub fn add_to_linker<T: Send + 'static>(
    linker: &mut Linker<T>,
    view: fn(&mut T) -> TabView<'_>,
) -> wasmtime::Result<()> {
    page_tools::add_to_linker::<T, TabScope>(linker, view)
}
