//! Capability `input` (`tools-wit/input.wit`): act on the call's tab as a
//! person does: wait for a node to be actionable, aim and hit-test, click,
//! focus, type and press keys, and settle after. Its linking against the
//! shared `TabView` (here), its WIT `Host` impl (`host.rs`), the WIT <->
//! broker conversions (`convert.rs`) and their unit tests. The operations
//! are the tab's (`crate::tab`, `browser/input/`).

mod convert;
mod host;
#[cfg(test)]
mod tests;

use crate::tab::{TabScope, TabView};
use crate::wit::input;
use wasmtime::component::Linker;

/// Add `input` to a linker whose store data hands out the call's
/// [`TabView`] (this capability keeps no state of its own).
pub fn add_to_linker<T: Send + 'static>(
    linker: &mut Linker<T>,
    view: fn(&mut T) -> TabView<'_>,
) -> wasmtime::Result<()> {
    input::add_to_linker::<T, TabScope>(linker, view)
}
