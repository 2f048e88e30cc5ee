//! Capability `storage-read` (`tools-wit/storage-read.wit`): the local or
//! session storage of the origin the call's tab shows, as the browser
//! holds it (`DOMStorage`, never page script). Its linking against the
//! shared `TabView` (here), its WIT `Host` impl (`host.rs`), the mapping
//! of a bounded read to WIT (`read.rs`) and its unit tests. The browser
//! operations are the tab's (`crate::tab`, `browser/call/storage.rs`).

mod host;
mod read;
#[cfg(test)]
mod tests;

use crate::tab::{TabScope, TabView};
use crate::wit::storage_read;
use wasmtime::component::Linker;

/// Add `storage-read` to a linker whose store data hands out the call's
/// [`TabView`] (no per-call state of its own).
pub fn add_to_linker<T: Send + 'static>(
    linker: &mut Linker<T>,
    view: fn(&mut T) -> TabView<'_>,
) -> wasmtime::Result<()> {
    storage_read::add_to_linker::<T, TabScope>(linker, view)
}
