//! Capability `state-load` (`tools-wit/state-load.wit`): load a saved state (a `bp-state` file in an artifact) into the connected browser, checked whole first, each part read back. Into the user's own browser only with the client grant `state.load-user` (the granter's answer, carried by the workspace call). The work is the workspace's (`browser/workspace/state.rs`); this folder is the capability: its view and linking (here) and its WIT `Host` impl (`host.rs`).

mod host;

use crate::browser::workspace::WorkspaceCall;
use crate::error::{BpError, BpResult};
use crate::wit::state_load;
use wasmtime::component::{HasData, Linker};

/// What `state-load`'s host functions see: the calling workspace.
pub struct StateLoadView<'a> {
    ws: Option<&'a mut WorkspaceCall>,
}

impl<'a> StateLoadView<'a> {
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

crate::tool_errors!(StateLoadView<'_>);

/// Marker for linking `state-load` against [`StateLoadView`].
pub struct StateLoadScope;

impl HasData for StateLoadScope {
    type Data<'a> = StateLoadView<'a>;
}

/// Add `state-load` to a linker whose store data hands out the call's
/// [`StateLoadView`].
pub fn add_to_linker<T: Send + 'static>(
    linker: &mut Linker<T>,
    view: fn(&mut T) -> StateLoadView<'_>,
) -> wasmtime::Result<()> {
    state_load::add_to_linker::<T, StateLoadScope>(linker, view)
}
