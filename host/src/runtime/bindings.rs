//! Every `bindgen!` of the host lives here, apart from hand-written code.
//!
//! The host binds one union world that imports every capability interface
//! and exports `tool`; each component is linked only with the interfaces
//! the policy grants, so a component whose world imports a denied
//! interface cannot be instantiated.

wasmtime::component::bindgen!({
    inline: r#"
        package browser-pilot:host;
        world host-view {
            import browser-pilot:tools/page-read@0.1.0;
            import browser-pilot:tools/navigation@0.1.0;
            import browser-pilot:tools/input@0.1.0;
            import browser-pilot:tools/capture@0.1.0;
            import browser-pilot:tools/artifacts@0.1.0;
            import browser-pilot:tools/upload@0.1.0;
            import browser-pilot:tools/network-read@0.1.0;
            import browser-pilot:tools/network-modify@0.1.0;
            import browser-pilot:tools/cookies-read@0.1.0;
            import browser-pilot:tools/cookies-write@0.1.0;
            import browser-pilot:tools/script@0.1.0;
            import browser-pilot:tools/dialogs@0.1.0;
            import browser-pilot:tools/tabs-manage@0.1.0;
            export browser-pilot:tools/tool@0.1.0;
        }
    "#,
    path: "../tools-wit",
    imports: { default: async | trappable },
    exports: { default: async },
});
pub use browser_pilot::tools::{
    artifacts, capture, cookies_read, cookies_write, dialogs, input, navigation, network_modify,
    network_read, page_read, script, tabs_manage, types, upload,
};
pub use exports::browser_pilot::tools::tool;
