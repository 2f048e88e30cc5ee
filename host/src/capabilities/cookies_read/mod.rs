//! Capability `cookies-read` (`tools-wit/cookies-read.wit`): the cookies
//! the browser holds for the call's tab's page (or for URLs named). Its
//! linking against the shared `TabView` (here), its WIT `Host` impl
//! (`host.rs`) and the conversion of a browser cookie to WIT
//! (`convert.rs`). The read is the tab's (`tab/cookies.rs`, typed CDP),
//! shared with `cookies-write`.

mod convert;
mod host;

use crate::tab::{TabScope, TabView};
use crate::wit::cookies_read;
use wasmtime::component::Linker;

/// Add `cookies-read` to a linker whose store data hands out the call's
/// [`TabView`] (this capability keeps no state of its own).
pub fn add_to_linker<T: Send + 'static>(
    linker: &mut Linker<T>,
    view: fn(&mut T) -> TabView<'_>,
) -> wasmtime::Result<()> {
    cookies_read::add_to_linker::<T, TabScope>(linker, view)
}
