//! Capability `network-modify` (`tools-wit/network-modify.wit`): the
//! calling workspace's request rules (block, mock, set headers) and its
//! HTTP credentials per origin. Its view of the calling workspace and
//! linking (here, from `workspace_view!`), its WIT `Host` impl
//! (`host.rs`), the WIT <-> broker conversions (`convert.rs`) and their
//! unit tests. It reaches the workspace, never a tab; the rules live in
//! `store/network` and are applied by `browser/workspace/net.rs`.

mod convert;
mod host;
#[cfg(test)]
mod tests;

crate::workspace_view!(NetworkModifyView, NetworkModifyScope, network_modify);
