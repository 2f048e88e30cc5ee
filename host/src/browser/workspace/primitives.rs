//! The primitives the capability folders build their own browser
//! operations on (`capabilities/capture`, `upload`, `cookies_write`,
//! `script`, `artifacts`, `dialogs`): typed commands sent on the call's
//! tab behind the same guards as every page call, and the few facts of the
//! call and its workspace those operations need. A target capability
//! reaches them only through `crate::tab::Tab`, a workspace capability
//! through its own view of the [`WorkspaceCall`].

use crate::browser::call::TargetCall;
use crate::browser::registry::PendingDialog;
use crate::browser::types::NodeHandle;
use crate::browser::workspace::WorkspaceCall;
use crate::error::BpResult;
use crate::store::artifacts::ArtifactStore;
use chromiumoxide::types::Command;
use serde_json::Value;
use std::path::PathBuf;

impl TargetCall {
    /// Send `cmd` on the tab's page session, behind the guards of every
    /// page call (no dialog open, renderer alive); its typed reply.
    pub(crate) async fn send_cmd<C: Command>(&self, cmd: &C) -> BpResult<C::Response> {
        self.cmd(cmd).await
    }

    /// Send `cmd` on the tab's page session; its reply as JSON, for
    /// replies that carry page data.
    pub(crate) async fn send_cmd_raw<C: Command>(&self, cmd: &C) -> BpResult<Value> {
        self.cmd_raw(cmd).await
    }

    /// Send `cmd` on the session that renders the node of `handle`.
    pub(crate) async fn send_cmd_for<C: Command>(
        &self,
        handle: NodeHandle,
        cmd: &C,
    ) -> BpResult<C::Response> {
        self.cmd_for(handle, cmd).await
    }

    /// Something is about to reach the browser: a failure from here on
    /// has an unknown outcome.
    pub(crate) fn dispatching(&self) {
        self.mark_dispatched();
    }

    /// The page session's ID (events are filtered by it).
    pub(crate) fn page_session(&self) -> &str {
        &self.session
    }

    /// The URL the registry last heard for the tab.
    pub(crate) fn page_url(&self) -> String {
        self.registry
            .with(&self.raw_id, |t| t.url.clone())
            .unwrap_or_default()
    }

    /// The file of the calling workspace's upload artifact `id`.
    pub(crate) fn upload_path(&self, id: &str) -> BpResult<PathBuf> {
        let workspace = &self.caller.workspace_id;
        Ok(self.ws.artifacts.upload_file(workspace, id)?.2)
    }

    /// The backend node ID of `handle`.
    pub(crate) fn backend_node(&self, handle: NodeHandle) -> BpResult<i64> {
        self.backend(handle)
    }

    /// A handle for a backend node of the page's main session.
    pub(crate) fn adopt_backend(&mut self, backend: i64) -> NodeHandle {
        self.new_handle(backend, None, self.session.clone())
    }
}

impl WorkspaceCall {
    /// The workspace checkpoint (the lease is alive, the connection the
    /// one the call started on).
    pub(crate) fn checked(&self) -> BpResult<()> {
        self.check()
    }

    /// Something is about to reach the browser.
    pub(crate) fn dispatching(&self) {
        self.mark_dispatched();
    }

    /// The artifact store and the calling workspace's ID in it.
    pub(crate) fn artifact_store(&self) -> (&ArtifactStore, &str) {
        (&self.artifacts, &self.caller.workspace_id)
    }

    /// The artifact ID in a descriptor the store returned.
    pub(crate) fn artifact_id_of(d: &Value) -> String {
        super::artifact_id(d)
    }

    /// The dialogs pending on the tabs the workspace controls (only on
    /// its current tab with `only_this`), with each tab's public ID.
    pub(crate) fn open_dialogs(&self, only_this: bool) -> BpResult<Vec<(String, PendingDialog)>> {
        let only = self.current_raw(only_this)?;
        let mut out = Vec::new();
        for (raw, public) in &self.controlled {
            if only.as_ref().is_some_and(|o| o != raw) {
                continue;
            }
            if let Some(Some(d)) = self.registry.with(raw, |t| t.dialog.clone()) {
                out.push((public.clone(), d));
            }
        }
        Ok(out)
    }

    /// The session the pending dialog `id` opened on, if it is on a tab
    /// the workspace controls.
    pub(crate) fn dialog_session(&self, id: &str) -> Option<String> {
        self.controlled.iter().find_map(|(raw, _)| {
            self.registry
                .with(raw, |t| {
                    t.dialog
                        .as_ref()
                        .filter(|d| d.id == id)
                        .map(|d| d.session.clone())
                })
                .flatten()
        })
    }

    /// Send `cmd` on `session`; its typed reply.
    pub(crate) async fn send_cmd_on<C: Command>(
        &self,
        session: &str,
        cmd: &C,
    ) -> BpResult<C::Response> {
        self.cdp.send(cmd, Some(session)).await
    }
}
