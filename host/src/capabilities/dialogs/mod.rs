//! Capability `dialogs` (`tools-wit/dialogs.wit`): the JavaScript dialogs
//! open on the tabs the calling workspace controls, and answering one. Its
//! view of the calling workspace and linking (here, from
//! `workspace_view!`), its WIT `Host` impl (`host.rs`) and the conversion
//! of a dialog to WIT (`convert.rs`, where the page's message loses its
//! invisible characters), listing and answering (`answer.rs`, typed CDP)
//! and its unit tests. It reaches the workspace, never a tab.

mod answer;
mod convert;
mod host;
#[cfg(test)]
mod tests;

crate::workspace_view!(DialogsView, DialogsScope, dialogs);
