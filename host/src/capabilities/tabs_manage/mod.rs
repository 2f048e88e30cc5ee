//! Capability `tabs-manage` (`tools-wit/tabs-manage.wit`): open a tab for
//! the calling workspace (and navigate it), close one, or close every tab
//! it opened. Its view of the calling workspace and linking (here, from
//! `workspace_view!`), its WIT `Host` impl (`host.rs`) and the conversion
//! of an opened tab to WIT (`convert.rs`). It reaches the workspace, never
//! a tab; the broker does the work behind `browser/workspace/tabs.rs`'s
//! `TabsHost`.

mod convert;
mod host;

crate::workspace_view!(TabsManageView, TabsManageScope, tabs_manage);
