//! Capability `capture` (`tools-wit/capture.wit`): a PNG screenshot of the
//! call's tab (viewport or whole page) or the page printed to PDF. Its
//! linking against the shared `TabView` (here), its WIT `Host` impl
//! (`host.rs`) and the WIT <-> broker conversion of an image
//! (`convert.rs`), the captures in typed CDP on the shared tab
//! (`shot.rs`) and unit tests of their pure logic; keeping a capture is
//! the `artifacts` capability's.

mod convert;
mod host;
mod shot;
#[cfg(test)]
mod tests;

use crate::tab::{TabScope, TabView};
use crate::wit::capture;
use wasmtime::component::Linker;

/// Add `capture` to a linker whose store data hands out the call's
/// [`TabView`] (this capability keeps no state of its own).
pub fn add_to_linker<T: Send + 'static>(
    linker: &mut Linker<T>,
    view: fn(&mut T) -> TabView<'_>,
) -> wasmtime::Result<()> {
    capture::add_to_linker::<T, TabScope>(linker, view)
}
