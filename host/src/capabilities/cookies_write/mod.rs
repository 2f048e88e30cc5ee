//! Capability `cookies-write` (`tools-wit/cookies-write.wit`): set
//! cookies for the call's tab's page, or clear them. Its linking against
//! the shared `TabView` (here), its WIT `Host` impl (`host.rs`), the
//! conversion of a WIT cookie to the browser's (`convert.rs`), the writes
//! in typed CDP (`write.rs`: set, and clear what the tab's cookie read
//! finds) and their unit tests.

mod convert;
mod host;
#[cfg(test)]
mod tests;
mod write;

use crate::tab::{TabScope, TabView};
use crate::wit::cookies_write;
use wasmtime::component::Linker;

/// Add `cookies-write` to a linker whose store data hands out the call's
/// [`TabView`] (this capability keeps no state of its own).
pub fn add_to_linker<T: Send + 'static>(
    linker: &mut Linker<T>,
    view: fn(&mut T) -> TabView<'_>,
) -> wasmtime::Result<()> {
    cookies_write::add_to_linker::<T, TabScope>(linker, view)
}
