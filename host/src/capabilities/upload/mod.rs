//! Capability `upload` (`tools-wit/upload.wit`): give upload artifacts to
//! a file input of the call's tab, set directly or through the file
//! chooser a click opens, and read the input back. Its linking against
//! the shared `TabView` (here), its WIT `Host` impl (`host.rs`), the
//! WIT <-> broker conversion of the read-back (`convert.rs`), the
//! operations in typed CDP on the shared tab (`files.rs`: set directly,
//! and the read-back both ways share; `chooser.rs`: through the chooser)
//! and their unit tests.

mod chooser;
mod convert;
mod files;
mod host;
#[cfg(test)]
mod tests;

use crate::tab::{TabScope, TabView};
use crate::wit::upload;
use wasmtime::component::Linker;

/// Add `upload` to a linker whose store data hands out the call's
/// [`TabView`] (this capability keeps no state of its own).
pub fn add_to_linker<T: Send + 'static>(
    linker: &mut Linker<T>,
    view: fn(&mut T) -> TabView<'_>,
) -> wasmtime::Result<()> {
    upload::add_to_linker::<T, TabScope>(linker, view)
}
