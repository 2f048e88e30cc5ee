//! Capability `artifacts` (`tools-wit/artifacts.wit`): keep a capture as
//! an artifact of the calling workspace, and read an upload artifact's
//! metadata. Its view of the calling workspace and linking (here, from
//! `workspace_view!`), its WIT `Host` impl (`host.rs`), the WIT <->
//! broker conversions (`convert.rs`), the operations on the store
//! (`store.rs`; the store is `store/artifacts`) and unit tests. It
//! reaches the workspace, never a tab.

mod convert;
mod host;
mod store;
#[cfg(test)]
mod tests;

crate::workspace_view!(ArtifactsView, ArtifactsScope, artifacts);
