//! How each capability of the registry (`crate::capabilities`) is linked:
//! each capability folder's `add_to_linker` against the view it takes
//! from the store (`runtime/host/views.rs`): the shared tab for a target
//! capability, its own view of the calling workspace for a workspace one.

pub use caps::{grants, overtakes, reach_of, Capability, Reach};

use super::HostState;
use crate::capabilities as caps;
use wasmtime::component::Linker;

/// Adds one capability interface to a linker.
pub type LinkFn = fn(&mut Linker<HostState>) -> wasmtime::Result<()>;

/// The linking of `cap`, against the view its registry row's reach names
/// (checked by `links_match_the_registry_reach`).
pub fn link(cap: Capability) -> (Reach, LinkFn) {
    use Capability as C;
    match cap {
        C::PageRead => (Reach::Target, |l| {
            caps::page_read::add_to_linker(l, HostState::tab_view)
        }),
        C::Navigation => (Reach::Target, |l| {
            caps::navigation::add_to_linker(l, HostState::tab_view)
        }),
        C::Input => (Reach::Target, |l| {
            caps::input::add_to_linker(l, HostState::tab_view)
        }),
        C::Capture => (Reach::Target, |l| {
            caps::capture::add_to_linker(l, HostState::tab_view)
        }),
        C::Artifacts => (Reach::Workspace, |l| {
            caps::artifacts::add_to_linker(l, HostState::artifacts_view)
        }),
        C::Upload => (Reach::Target, |l| {
            caps::upload::add_to_linker(l, HostState::tab_view)
        }),
        C::NetworkRead => (Reach::Workspace, |l| {
            caps::network_read::add_to_linker(l, HostState::network_read_view)
        }),
        C::NetworkModify => (Reach::Workspace, |l| {
            caps::network_modify::add_to_linker(l, HostState::network_modify_view)
        }),
        C::CookiesRead => (Reach::Target, |l| {
            caps::cookies_read::add_to_linker(l, HostState::tab_view)
        }),
        C::CookiesWrite => (Reach::Target, |l| {
            caps::cookies_write::add_to_linker(l, HostState::tab_view)
        }),
        C::Script => (Reach::Target, |l| {
            caps::script::add_to_linker(l, HostState::tab_view)
        }),
        C::Dialogs => (Reach::Workspace, |l| {
            caps::dialogs::add_to_linker(l, HostState::dialogs_view)
        }),
        C::TabsManage => (Reach::Workspace, |l| {
            caps::tabs_manage::add_to_linker(l, HostState::tabs_manage_view)
        }),
        C::PageTools => (Reach::Target, |l| {
            caps::page_tools::add_to_linker(l, HostState::tab_view)
        }),
        C::PageWait => (Reach::Target, |l| {
            caps::page_wait::add_to_linker(l, HostState::tab_view)
        }),
        C::PageScroll => (Reach::Target, |l| {
            caps::page_scroll::add_to_linker(l, HostState::tab_view)
        }),
        C::Pointer => (Reach::Target, |l| {
            caps::pointer::add_to_linker(l, HostState::tab_view)
        }),
        C::PageSelect => (Reach::Target, |l| {
            caps::page_select::add_to_linker(l, HostState::tab_view)
        }),
        C::Emulation => (Reach::Target, |l| {
            caps::emulation::add_to_linker(l, HostState::tab_view)
        }),
        C::Console => (Reach::Workspace, |l| {
            caps::console::add_to_linker(l, HostState::console_view)
        }),
        C::StorageRead => (Reach::Target, |l| {
            caps::storage_read::add_to_linker(l, HostState::tab_view)
        }),
        C::StorageWrite => (Reach::Target, |l| {
            caps::storage_write::add_to_linker(l, HostState::tab_view)
        }),
        C::StateSave => (Reach::Workspace, |l| {
            caps::state_save::add_to_linker(l, HostState::state_save_view)
        }),
        C::StateLoad => (Reach::Workspace, |l| {
            caps::state_load::add_to_linker(l, HostState::state_load_view)
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
