//! Capability `page-select` (`tools-wit/page-select.wit`): choose options
//! in a native `<select>` or an ARIA combobox or listbox, and read the
//! selection back. Everything the capability is lives in this folder: its
//! linking against the shared `TabView` (here), its WIT `Host` impl
//! (`host.rs`), the native route (`native/mod.rs`), the ARIA route with real
//! clicks (`aria.rs`), the page-side steps (`select.js`, run through
//! `probe.rs`), the pure matching of wanted options (`plan.rs`), and its
//! unit tests. It sees only the shared [`crate::tab::Tab`].

mod aria;
mod host;
mod native;
mod plan;
mod probe;
#[cfg(test)]
mod tests;

use crate::tab::{TabScope, TabView};
use crate::wit::page_select;
use wasmtime::component::Linker;

/// Add `page-select` to a linker whose store data hands out the call's
/// [`TabView`] (this capability keeps no state of its own).
pub fn add_to_linker<T: Send + 'static>(
    linker: &mut Linker<T>,
    view: fn(&mut T) -> TabView<'_>,
) -> wasmtime::Result<()> {
    page_select::add_to_linker::<T, TabScope>(linker, view)
}
