//! Capability `emulation` (`tools-wit/emulation.wit`): the size and the
//! media features the call's page renders with, each change read back
//! from the page. Everything the capability is lives in this folder: its
//! linking against the shared `TabView` (here), its WIT `Host` impl
//! (`host.rs`), the checks of what is asked and what the page reports
//! (`check.rs`), the overrides and their read-back (`apply.rs`), and its
//! unit tests. The overrides stay on the tab until reset, or until no
//! lease controls the tab (the broker removes them then:
//! `crate::browser::call::emulation::clear_overrides`).

mod apply;
mod check;
mod host;
#[cfg(test)]
mod tests;

use crate::tab::{TabScope, TabView};
use crate::wit::emulation;
use wasmtime::component::Linker;

/// Add `emulation` to a linker whose store data hands out the call's
/// [`TabView`] (this capability keeps no per-call state of its own).
pub fn add_to_linker<T: Send + 'static>(
    linker: &mut Linker<T>,
    view: fn(&mut T) -> TabView<'_>,
) -> wasmtime::Result<()> {
    emulation::add_to_linker::<T, TabScope>(linker, view)
}
