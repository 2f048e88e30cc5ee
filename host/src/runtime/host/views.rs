//! Narrow host contexts. Each capability interface is implemented on the
//! view of its scope, not on the whole store data:
//! - a target capability's imports see a [`TargetView`], which reaches the
//!   call's one checked tab (and, through it, its workspace);
//! - a workspace capability's imports see a [`WorkspaceView`], which holds
//!   the [`WorkspaceCall`] alone. It has no field that leads to a tab, so
//!   a workspace capability reaching a tab does not compile.
//!
//! The registry's `link` picks the view from the row's reach, in the way
//! wasmtime-wasi hands each WASI interface a small `*View`.

use crate::browser::call::TargetCall;
use crate::browser::workspace::WorkspaceCall;
use crate::error::{BpError, BpResult};
use crate::runtime::{HostState, Scope};
use wasmtime::component::HasData;

/// What a target capability's host functions see.
pub struct TargetView<'a>(Option<&'a mut TargetCall>);

/// What a workspace capability's host functions see.
pub struct WorkspaceView<'a>(Option<&'a mut WorkspaceCall>);

/// Marker for linking an interface against [`TargetView`].
pub struct TargetScope;

/// Marker for linking an interface against [`WorkspaceView`].
pub struct WorkspaceScope;

impl HasData for TargetScope {
    type Data<'a> = TargetView<'a>;
}

impl HasData for WorkspaceScope {
    type Data<'a> = WorkspaceView<'a>;
}

impl HostState {
    /// The target view: the call's tab, when the call has one. A tool
    /// that imports a target capability is always dispatched with a tab;
    /// reaching here without one is a broker bug, reported as a trap.
    pub(in crate::runtime) fn target_view(&mut self) -> TargetView<'_> {
        TargetView(match &mut self.scope {
            Some(Scope::Target(t)) => Some(t),
            _ => None,
        })
    }

    /// The workspace view: the calling workspace, whatever the scope.
    pub(in crate::runtime) fn workspace_view(&mut self) -> WorkspaceView<'_> {
        WorkspaceView(match &mut self.scope {
            Some(Scope::Target(t)) => Some(&mut t.ws),
            Some(Scope::Workspace(w)) => Some(w),
            None => None,
        })
    }
}

impl HostState {
    /// The view of `console`: the calling workspace, whatever the scope.
    pub(in crate::runtime) fn console_view(
        &mut self,
    ) -> crate::capabilities::console::ConsoleView<'_> {
        crate::capabilities::console::ConsoleView::new(match &mut self.scope {
            Some(Scope::Target(t)) => Some(&mut t.ws),
            Some(Scope::Workspace(w)) => Some(w),
            None => None,
        })
    }

    /// The view of `state-save`: the calling workspace, whatever the scope.
    pub(in crate::runtime) fn state_save_view(
        &mut self,
    ) -> crate::capabilities::state_save::StateSaveView<'_> {
        crate::capabilities::state_save::StateSaveView::new(self.workspace_call())
    }

    /// The view of `state-load`: the calling workspace, whatever the scope.
    pub(in crate::runtime) fn state_load_view(
        &mut self,
    ) -> crate::capabilities::state_load::StateLoadView<'_> {
        crate::capabilities::state_load::StateLoadView::new(self.workspace_call())
    }

    /// The calling workspace, whatever the scope.
    fn workspace_call(&mut self) -> Option<&mut WorkspaceCall> {
        match &mut self.scope {
            Some(Scope::Target(t)) => Some(&mut t.ws),
            Some(Scope::Workspace(w)) => Some(w),
            None => None,
        }
    }

    /// The view of the tab capabilities that keep no state of their own
    /// (`page-wait`, `page-scroll`): the call's tab, seen through the
    /// shared [`crate::tab::Tab`] only.
    pub(in crate::runtime) fn tab_view(&mut self) -> crate::tab::TabView<'_> {
        crate::tab::TabView::new(match &mut self.scope {
            Some(Scope::Target(t)) => Some(crate::tab::Tab::new(t)),
            _ => None,
        })
    }
}

impl TargetView<'_> {
    /// The call's tab.
    pub(in crate::runtime) fn call(&mut self) -> BpResult<&mut TargetCall> {
        self.0
            .as_deref_mut()
            .ok_or_else(|| BpError::internal("no tab scope for this call"))
    }

    /// The call's tab, once input dispatched before has settled (only
    /// reads that can serve as the barrier skip this; see `input/settle.rs`).
    pub(in crate::runtime) async fn settled(&mut self) -> BpResult<&mut TargetCall> {
        let call = self.call()?;
        call.settle_pending().await;
        Ok(call)
    }
}

impl HostState {
    /// Before a call returns: settle input its tool left pending.
    pub(in crate::runtime) async fn finish(&mut self) {
        if let Some(Scope::Target(t)) = &mut self.scope {
            t.settle_pending().await;
        }
    }
}

impl WorkspaceView<'_> {
    /// The calling workspace.
    pub(in crate::runtime) fn call(&mut self) -> BpResult<&mut WorkspaceCall> {
        self.0
            .as_deref_mut()
            .ok_or_else(|| BpError::internal("no workspace scope for this call"))
    }
}

crate::tool_errors!(TargetView<'_>);
crate::tool_errors!(WorkspaceView<'_>);

crate::tool_errors!(HostState);
