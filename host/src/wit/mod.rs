//! Every `bindgen!` of the host lives here, apart from hand-written code.
//! A leaf: generated code only, so the runtime (which links) and each
//! capability (which implements its interface) both import it without a
//! circle between them.
//!
//! The host binds the package's `host-view` world, which imports every
//! capability interface and exports `tool`; each component is linked only with the interfaces
//! the policy grants, so a component whose world imports a denied
//! interface cannot be instantiated.

pub mod errors;
pub mod typed;

wasmtime::component::bindgen!({
    world: "browser-pilot:tools/host-view",
    path: "../tools-wit",
    imports: { default: async | trappable },
    trappable_error_type: {
        "browser-pilot:tools/types.tool-error" => crate::error::BpError,
    },
    exports: { default: async },
});
pub use browser_pilot::tools::page_select;
pub use browser_pilot::tools::{
    artifacts, capture, cookies_read, cookies_write, dialogs, input, navigation, network_modify,
    network_read, page_read, page_scroll, page_tools, page_wait, pointer, script, tabs_manage,
    types, upload,
};
pub use browser_pilot::tools::{console, emulation};
pub use browser_pilot::tools::{state_load, state_save, storage_read, storage_write};
pub use exports::browser_pilot::tools::tool;
