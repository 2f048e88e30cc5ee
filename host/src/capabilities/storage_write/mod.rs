//! Capability `storage-write` (`tools-wit/storage-write.wit`): set or
//! remove items of the local or session storage of the origin the call's
//! tab shows, each change read back from the browser (`DOMStorage`)
//! afterwards. Its linking against the shared `TabView` (here), its WIT
//! `Host` impl (`host.rs`), the changes and their checks (`change.rs`)
//! and its unit tests.

mod change;
mod host;
#[cfg(test)]
mod tests;

use crate::tab::{TabScope, TabView};
use crate::wit::storage_write;
use wasmtime::component::Linker;

/// Add `storage-write` to a linker whose store data hands out the call's
/// [`TabView`] (no per-call state of its own).
pub fn add_to_linker<T: Send + 'static>(
    linker: &mut Linker<T>,
    view: fn(&mut T) -> TabView<'_>,
) -> wasmtime::Result<()> {
    storage_write::add_to_linker::<T, TabScope>(linker, view)
}
