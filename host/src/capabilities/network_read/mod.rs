//! Capability `network-read` (`tools-wit/network-read.wit`): the calling
//! workspace's request journal, paged. Its view of the calling workspace
//! and linking (here, from `workspace_view!`), its WIT `Host` impl
//! (`host.rs`) and the WIT <-> broker conversions (`convert.rs`). It
//! reaches the workspace, never a tab; the journal is `store/network`,
//! read through `browser/workspace/net.rs`.

mod convert;
mod host;

crate::workspace_view!(NetworkReadView, NetworkReadScope, network_read);
