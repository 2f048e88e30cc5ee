//! Dialog operations of a workspace: only dialogs on targets the calling
//! workspace controls are visible or answerable, and no tab needs to be
//! selected to list or answer them.

use crate::browser::types::DialogInfo;
use crate::browser::workspace::WorkspaceCall;
use crate::error::{BpError, BpResult};
use serde_json::json;

impl WorkspaceCall {
    pub fn pending_dialogs(&mut self, only_this: bool) -> BpResult<Vec<DialogInfo>> {
        self.check()?;
        let only = self.current_raw(only_this)?;
        let mut out = Vec::new();
        for (raw, public) in &self.controlled {
            if only.as_ref().is_some_and(|o| o != raw) {
                continue;
            }
            if let Some(Some(d)) = self.registry.with(raw, |t| t.dialog.clone()) {
                out.push(DialogInfo {
                    dialog_id: d.id,
                    target_id: public.clone(),
                    kind: d.kind,
                    message: d.message,
                    default_prompt: d.default_prompt,
                    opened_at: d.opened_at_ms,
                });
            }
        }
        Ok(out)
    }

    pub async fn respond_dialog(
        &mut self,
        id: &str,
        accept: bool,
        text: Option<String>,
    ) -> BpResult<()> {
        self.check()?;
        // Answered on the session it opened on.
        let found = self.controlled.iter().find_map(|(raw, _)| {
            self.registry
                .with(raw, |t| {
                    t.dialog
                        .as_ref()
                        .filter(|d| d.id == id)
                        .map(|d| d.session.clone())
                })
                .flatten()
        });
        let session =
            found.ok_or_else(|| BpError::invalid("no such pending dialog for this workspace"))?;
        self.mark_dispatched();
        let mut params = json!({"accept": accept});
        if let Some(t) = text {
            params["promptText"] = json!(t);
        }
        self.cdp
            .call("Page.handleJavaScriptDialog", Some(&session), params)
            .await
            .map(|_| ())
    }
}
