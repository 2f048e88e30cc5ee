//! Typed CDP commands on the tab, and the few facts of the call that the
//! capability folders' own browser operations need (capture, upload,
//! cookies, script). The primitives are `browser/workspace/primitives.rs`;
//! a command goes out behind the same guards as every page call.

use super::Tab;
use crate::browser::types::NodeHandle;
use crate::error::BpResult;
use chromiumoxide::types::Command;
use serde_json::Value;
use std::path::PathBuf;

impl Tab<'_> {
    /// The call's checkpoint: lease, generation, target and session are
    /// still what the call started with.
    pub fn check(&self) -> BpResult<()> {
        self.call.check()
    }

    /// Send `cmd` on the tab's page session; its typed reply.
    pub async fn send<C: Command>(&self, cmd: &C) -> BpResult<C::Response> {
        self.call.send_cmd(cmd).await
    }

    /// Send `cmd` on the page session; its reply as JSON (for replies
    /// that carry page data or enums that drift between versions).
    pub async fn send_raw<C: Command>(&self, cmd: &C) -> BpResult<Value> {
        self.call.send_cmd_raw(cmd).await
    }

    /// Send `cmd` on the session that renders the node of `handle`.
    pub async fn send_for<C: Command>(&self, handle: NodeHandle, cmd: &C) -> BpResult<C::Response> {
        self.call.send_cmd_for(handle, cmd).await
    }

    /// Mark that something is about to reach the browser (a failure from
    /// here on has an unknown outcome).
    pub fn dispatching(&self) {
        self.call.dispatching();
    }

    /// The page session's ID, to pick the tab's events.
    pub fn page_session(&self) -> &str {
        self.call.page_session()
    }

    /// The URL the broker last heard for the tab.
    pub fn page_url(&self) -> String {
        self.call.page_url()
    }

    /// The file of the calling workspace's upload artifact `id`.
    pub fn upload_path(&self, id: &str) -> BpResult<PathBuf> {
        self.call.upload_path(id)
    }

    /// The backend node ID of `handle`.
    pub fn backend_node(&self, handle: NodeHandle) -> BpResult<i64> {
        self.call.backend_node(handle)
    }

    /// A handle, valid for this call, for a backend node of the page.
    pub fn adopt_backend(&mut self, backend: i64) -> NodeHandle {
        self.call.adopt_backend(backend)
    }
}
