//! How each capability of the registry (`crate::capabilities`) is linked:
//! the interface is added to a linker against the view of the row's
//! reach, so its `Host` impl must be written for that view (`TargetView`
//! or `WorkspaceView`) or the host does not compile.

pub use crate::capabilities::{grants, overtakes, reach_of, Capability, Reach};

use super::bindings::{
    artifacts, capture, cookies_read, cookies_write, dialogs, input, navigation, network_modify,
    network_read, page_read, page_tools, script, tabs_manage, upload,
};
use super::HostState;
use crate::runtime::host::views::{TargetScope, WorkspaceScope};
use wasmtime::component::Linker;

/// Adds one capability interface to a linker.
pub type LinkFn = fn(&mut Linker<HostState>) -> wasmtime::Result<()>;

/// Link `$iface` against the view of `$reach`.
macro_rules! scoped {
    (Target, $iface:ident) => {
        (|l: &mut Linker<HostState>| {
            $iface::add_to_linker::<HostState, TargetScope>(l, HostState::target_view)
        }) as LinkFn
    };
    (Workspace, $iface:ident) => {
        (|l: &mut Linker<HostState>| {
            $iface::add_to_linker::<HostState, WorkspaceScope>(l, HostState::workspace_view)
        }) as LinkFn
    };
}

/// The linking of `cap`, against the view its registry row's reach names
/// (checked by `links_match_the_registry_reach`).
pub fn link(cap: Capability) -> (Reach, LinkFn) {
    use Capability as C;
    match cap {
        C::PageRead => (Reach::Target, scoped!(Target, page_read)),
        C::Navigation => (Reach::Target, scoped!(Target, navigation)),
        C::Input => (Reach::Target, scoped!(Target, input)),
        C::Capture => (Reach::Target, scoped!(Target, capture)),
        C::Artifacts => (Reach::Workspace, scoped!(Workspace, artifacts)),
        C::Upload => (Reach::Target, scoped!(Target, upload)),
        C::NetworkRead => (Reach::Workspace, scoped!(Workspace, network_read)),
        C::NetworkModify => (Reach::Workspace, scoped!(Workspace, network_modify)),
        C::CookiesRead => (Reach::Target, scoped!(Target, cookies_read)),
        C::CookiesWrite => (Reach::Target, scoped!(Target, cookies_write)),
        C::Script => (Reach::Target, scoped!(Target, script)),
        C::Dialogs => (Reach::Workspace, scoped!(Workspace, dialogs)),
        C::TabsManage => (Reach::Workspace, scoped!(Workspace, tabs_manage)),
        C::PageTools => (Reach::Target, scoped!(Target, page_tools)),
        C::PageWait => (Reach::Target, |l| {
            crate::capabilities::page_wait::add_to_linker(l, HostState::tab_view)
        }),
        C::PageScroll => (Reach::Target, |l| {
            crate::capabilities::page_scroll::add_to_linker(l, HostState::tab_view)
        }),
        C::Pointer => (Reach::Target, |l| {
            crate::capabilities::pointer::add_to_linker(l, HostState::tab_view)
        }),
        C::PageSelect => (Reach::Target, |l| {
            crate::capabilities::page_select::add_to_linker(l, HostState::tab_view)
        }),
        C::Emulation => (Reach::Target, |l| {
            crate::capabilities::emulation::add_to_linker(l, HostState::tab_view)
        }),
        C::Console => (Reach::Workspace, |l| {
            crate::capabilities::console::add_to_linker(l, HostState::console_view)
        }),
        C::StorageRead => (Reach::Target, |l| {
            crate::capabilities::storage_read::add_to_linker(l, HostState::tab_view)
        }),
        C::StorageWrite => (Reach::Target, |l| {
            crate::capabilities::storage_write::add_to_linker(l, HostState::tab_view)
        }),
        C::StateSave => (Reach::Workspace, |l| {
            crate::capabilities::state_save::add_to_linker(l, HostState::state_save_view)
        }),
        C::StateLoad => (Reach::Workspace, |l| {
            crate::capabilities::state_load::add_to_linker(l, HostState::state_load_view)
        }),
        // Only broker-native tools use it: nothing to link.
        C::Window => (Reach::Target, |_| Ok(())),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn links_match_the_registry_reach() {
        for cap in Capability::ALL {
            assert_eq!(link(cap).0, cap.row().reach, "{cap}");
        }
    }
}
