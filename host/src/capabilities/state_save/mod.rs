//! Capability `state-save` (`tools-wit/state-save.wit`): save the calling workspace's signed-in state (the browser's cookies, the local storage of the origins its tabs show) into a `state` artifact (sensitivity `secret`, an owner-only file). The work is the workspace's (`browser/workspace/state.rs`, the file format in `state_file.rs`); this folder is the capability: its view and linking (here) and its WIT `Host` impl (`host.rs`). Only counts and origins come back to the component, never a value.

mod host;

use crate::browser::workspace::WorkspaceCall;
use crate::error::{BpError, BpResult};
use crate::wit::state_save;
use wasmtime::component::{HasData, Linker};

/// What `state-save`'s host functions see: the calling workspace.
pub struct StateSaveView<'a> {
    ws: Option<&'a mut WorkspaceCall>,
}

impl<'a> StateSaveView<'a> {
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

crate::tool_errors!(StateSaveView<'_>);

/// Marker for linking `state-save` against [`StateSaveView`].
pub struct StateSaveScope;

impl HasData for StateSaveScope {
    type Data<'a> = StateSaveView<'a>;
}

/// Add `state-save` to a linker whose store data hands out the call's
/// [`StateSaveView`].
pub fn add_to_linker<T: Send + 'static>(
    linker: &mut Linker<T>,
    view: fn(&mut T) -> StateSaveView<'_>,
) -> wasmtime::Result<()> {
    state_save::add_to_linker::<T, StateSaveScope>(linker, view)
}
