//! Capability `script` (`tools-wit/script.wit`): evaluate a script in the
//! call's tab (behind the client grant `developer.eval`). Its linking
//! against the shared `TabView` (here), its WIT `Host` impl
//! (`host.rs`), the evaluation in typed CDP on the shared tab (`run.rs`)
//! and its unit tests; it crosses only strings, so it has no conversions.

mod host;
mod run;
#[cfg(test)]
mod tests;

use crate::tab::{TabScope, TabView};
use crate::wit::script;
use wasmtime::component::Linker;

/// Add `script` to a linker whose store data hands out the call's
/// [`TabView`] (this capability keeps no state of its own).
pub fn add_to_linker<T: Send + 'static>(
    linker: &mut Linker<T>,
    view: fn(&mut T) -> TabView<'_>,
) -> wasmtime::Result<()> {
    script::add_to_linker::<T, TabScope>(linker, view)
}
