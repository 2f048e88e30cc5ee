//! Capability `pointer` (`tools-wit/pointer.wit`): hover and drag with the
//! real pointer, and read back what the page did. Everything the
//! capability is lives in this folder: its linking against the shared
//! `TabView` (here), its WIT `Host` impl (`host.rs`), the hover
//! (`hover.rs`), the drag (`drag.rs`), the page-side probes and what they
//! read (`probes.rs`), where the pointer was left in each tab and the
//! paths it moves along (`position.rs`), and its unit tests. It sees only
//! the shared [`crate::tab::Tab`], never the whole call.

mod drag;
mod host;
mod hover;
mod position;
mod probes;
#[cfg(test)]
mod tests;

use crate::tab::{TabScope, TabView};
use crate::wit::pointer;
use wasmtime::component::Linker;

/// Add `pointer` to a linker whose store data hands out the call's
/// [`TabView`] (the pointer position it keeps per tab lives beyond one
/// call, in `position.rs`).
pub fn add_to_linker<T: Send + 'static>(
    linker: &mut Linker<T>,
    view: fn(&mut T) -> TabView<'_>,
) -> wasmtime::Result<()> {
    pointer::add_to_linker::<T, TabScope>(linker, view)
}
