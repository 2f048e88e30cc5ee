//! The dialogs of a workspace: only dialogs on targets the calling
//! workspace controls are visible or answerable, and no tab needs to be
//! selected to list or answer them. A dialog is answered on the session
//! it opened on.

use crate::browser::types::DialogInfo;
use crate::browser::workspace::WorkspaceCall;
use crate::error::{BpError, BpResult};
use chromiumoxide::cdp::browser_protocol::page::HandleJavaScriptDialogParams;

pub(super) fn pending(ws: &mut WorkspaceCall, only_this: bool) -> BpResult<Vec<DialogInfo>> {
    ws.checked()?;
    let open = ws.open_dialogs(only_this)?;
    Ok(open
        .into_iter()
        .map(|(target_id, d)| DialogInfo {
            dialog_id: d.id,
            target_id,
            kind: d.kind,
            message: d.message,
            default_prompt: d.default_prompt,
            opened_at: d.opened_at_ms,
        })
        .collect())
}

/// The command that answers a dialog.
pub(super) fn answer(accept: bool, text: Option<String>) -> HandleJavaScriptDialogParams {
    HandleJavaScriptDialogParams {
        accept,
        prompt_text: text,
    }
}

pub(super) async fn respond(
    ws: &mut WorkspaceCall,
    id: &str,
    accept: bool,
    text: Option<String>,
) -> BpResult<()> {
    ws.checked()?;
    let session = ws
        .dialog_session(id)
        .ok_or_else(|| BpError::invalid("no such pending dialog for this workspace"))?;
    ws.dispatching();
    ws.send_cmd_on(&session, &answer(accept, text))
        .await
        .map(drop)
}
