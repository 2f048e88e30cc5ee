//! Narrow host contexts, handed out by the store to each capability
//! folder's `add_to_linker` (`runtime/capability.rs`), in the way
//! wasmtime-wasi hands each WASI interface a small `*View`:
//! - a target capability sees the call's [`crate::tab::Tab`] through a
//!   [`crate::tab::TabView`], and nothing else of the call;
//! - a workspace capability sees its own view of the calling workspace
//!   (made by `workspace_view!`), which has no field that leads to a tab,
//!   so a workspace capability reaching a tab does not compile.

use crate::browser::workspace::WorkspaceCall;
use crate::capabilities as caps;
use crate::runtime::{HostState, Scope};

/// One view method per workspace capability: its own view of the calling
/// workspace, whatever the scope.
macro_rules! workspace_views {
    ($($(#[$doc:meta])* $name:ident => $cap:ident::$view:ident;)*) => {
        impl HostState {
            $(
                $(#[$doc])*
                pub(in crate::runtime) fn $name(&mut self) -> caps::$cap::$view<'_> {
                    caps::$cap::$view::new(self.workspace_call())
                }
            )*
        }
    };
}

workspace_views! {
    /// The view of `artifacts`.
    artifacts_view => artifacts::ArtifactsView;
    /// The view of `network-read`.
    network_read_view => network_read::NetworkReadView;
    /// The view of `network-modify`.
    network_modify_view => network_modify::NetworkModifyView;
    /// The view of `dialogs`.
    dialogs_view => dialogs::DialogsView;
    /// The view of `tabs-manage`.
    tabs_manage_view => tabs_manage::TabsManageView;
    /// The view of `console`.
    console_view => console::ConsoleView;
    /// The view of `state-save`.
    state_save_view => state_save::StateSaveView;
    /// The view of `state-load`.
    state_load_view => state_load::StateLoadView;
}

impl HostState {
    /// The calling workspace, whatever the scope.
    fn workspace_call(&mut self) -> Option<&mut WorkspaceCall> {
        match &mut self.scope {
            Some(Scope::Target(t)) => Some(&mut t.ws),
            Some(Scope::Workspace(w)) => Some(w),
            None => None,
        }
    }

    /// The view of every tab capability: the call's tab, seen through the
    /// shared [`crate::tab::Tab`] only. A tool that imports a target
    /// capability is always dispatched with a tab; reaching a host function
    /// without one is a broker bug, reported as an internal error.
    pub(in crate::runtime) fn tab_view(&mut self) -> crate::tab::TabView<'_> {
        crate::tab::TabView::new(match &mut self.scope {
            Some(Scope::Target(t)) => Some(crate::tab::Tab::new(t)),
            _ => None,
        })
    }

    /// Before a call returns: settle input its tool left pending.
    pub(in crate::runtime) async fn finish(&mut self) {
        if let Some(Scope::Target(t)) = &mut self.scope {
            t.settle_pending().await;
        }
    }
}

crate::tool_errors!(HostState);
