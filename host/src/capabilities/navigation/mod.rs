//! Capability `navigation` (`tools-wit/navigation.wit`): move the call's
//! tab to a URL or through its history, and pick the frame the calling
//! workspace's observations start at. Its linking against the shared
//! `TabView` (here), its WIT `Host` impl (`host.rs`) and the WIT <->
//! broker conversions (`convert.rs`). The navigation itself is the tab's
//! (`crate::tab`, `browser/navigation/`).

mod convert;
mod host;

use crate::tab::{TabScope, TabView};
use crate::wit::navigation;
use wasmtime::component::Linker;

/// Add `navigation` to a linker whose store data hands out the call's
/// [`TabView`] (this capability keeps no state of its own).
pub fn add_to_linker<T: Send + 'static>(
    linker: &mut Linker<T>,
    view: fn(&mut T) -> TabView<'_>,
) -> wasmtime::Result<()> {
    navigation::add_to_linker::<T, TabScope>(linker, view)
}
