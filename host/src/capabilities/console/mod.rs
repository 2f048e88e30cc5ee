//! Capability `console` (`tools-wit/console.wit`): the calling
//! workspace's console journal. The journal itself is `crate::console`
//! (fed by the broker from the tabs the workspace controls); this folder
//! is the capability: its view and linking (here), its WIT `Host` impl
//! (`host.rs`), the mapping of levels and entries (`convert.rs`), and its
//! unit tests. It reaches the workspace, never a tab.

mod convert;
mod host;
#[cfg(test)]
mod tests;

use crate::browser::workspace::WorkspaceCall;
use crate::error::{BpError, BpResult};
use crate::wit::console;
use wasmtime::component::{HasData, Linker};

/// What `console`'s host functions see: the calling workspace.
pub struct ConsoleView<'a> {
    ws: Option<&'a mut WorkspaceCall>,
}

impl<'a> ConsoleView<'a> {
    pub fn new(ws: Option<&'a mut WorkspaceCall>) -> Self {
        Self { ws }
    }

    /// The calling workspace; a call without one is a broker bug (an
    /// internal error).
    fn workspace(&mut self) -> BpResult<&mut WorkspaceCall> {
        self.ws
            .as_deref_mut()
            .ok_or_else(|| BpError::internal("no workspace scope for this call"))
    }
}

crate::tool_errors!(ConsoleView<'_>);

/// Marker for linking `console` against [`ConsoleView`].
pub struct ConsoleScope;

impl HasData for ConsoleScope {
    type Data<'a> = ConsoleView<'a>;
}

/// Add `console` to a linker whose store data hands out the call's
/// [`ConsoleView`].
pub fn add_to_linker<T: Send + 'static>(
    linker: &mut Linker<T>,
    view: fn(&mut T) -> ConsoleView<'_>,
) -> wasmtime::Result<()> {
    console::add_to_linker::<T, ConsoleScope>(linker, view)
}
