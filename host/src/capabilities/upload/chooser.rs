//! Uploads through a file chooser: a styled button or label whose
//! `<input type=file>` is hidden. With the chooser intercepted, the node is
//! clicked (trusted input), the chooser-opened event it causes is answered
//! with the upload artifacts on the input it names, and the interception
//! is turned off again whatever happened. No chooser within the bound is
//! `action_not_verified` (`no_file_chooser`).

use super::files::{check_count, readback, set_input_files, upload_paths, READ_FILES};
use crate::browser::types::{MouseButton, NodeHandle, Point, UploadReadback};
use crate::cdp::CdpEvent;
use crate::error::{BpError, BpResult, Code};
use crate::tab::Tab;
use chromiumoxide::cdp::browser_protocol::page::{
    EventFileChooserOpened, FileChooserOpenedMode, SetInterceptFileChooserDialogParams,
};
use serde_json::json;
use std::path::PathBuf;
use std::sync::Arc;
use std::time::Duration;
use tokio::sync::broadcast;

/// How long a click may take to open its chooser.
const CHOOSER_WAIT: Duration = Duration::from_secs(3);

/// The interception of file choosers, on or off.
fn intercept(enabled: bool) -> SetInterceptFileChooserDialogParams {
    SetInterceptFileChooserDialogParams {
        enabled,
        cancel: None,
    }
}

/// Click `handle` with the file chooser intercepted and answer the
/// chooser it opens with the artifacts `ids`.
pub(super) async fn choose_files(
    tab: &mut Tab<'_>,
    handle: NodeHandle,
    ids: &[String],
) -> BpResult<UploadReadback> {
    tab.check()?;
    let paths = upload_paths(tab, ids)?;
    let (at, _) = tab.aim(handle).await?;
    let mut events = tab.watch_events();
    tab.send(&intercept(true)).await?;
    let answered = click_and_answer(tab, at, &mut events, &paths).await;
    // Off again, whatever happened: a later chooser is the person's.
    let off = tab.send(&intercept(false)).await;
    let backend = answered?;
    off?;
    let input = tab.adopt_backend(backend);
    let read = tab.call_on(input, READ_FILES).await?;
    Ok(readback(&read))
}

/// The click, then the chooser's input answered; its backend node.
async fn click_and_answer(
    tab: &mut Tab<'_>,
    at: Point,
    events: &mut broadcast::Receiver<Arc<CdpEvent>>,
    paths: &[PathBuf],
) -> BpResult<i64> {
    tab.click(at, MouseButton::Left, 1).await?;
    let session = tab.page_session().to_string();
    let opened = tokio::time::timeout(CHOOSER_WAIT, async {
        loop {
            match events.recv().await {
                Ok(ev)
                    if ev.is::<EventFileChooserOpened>()
                        && ev.session_id.as_deref() == Some(session.as_str()) =>
                {
                    return Some(ev.parse::<EventFileChooserOpened>());
                }
                Ok(_) | Err(broadcast::error::RecvError::Lagged(_)) => {}
                Err(_) => return None,
            }
        }
    })
    .await;
    let Ok(Some(opened)) = opened else {
        return Err(
            BpError::new(Code::ActionNotVerified, "the click opened no file chooser")
                .with_context(json!({"reason": "no_file_chooser"})),
        );
    };
    let opened =
        opened.ok_or_else(|| BpError::internal("the file chooser event was not understood"))?;
    let backend = opened
        .backend_node_id
        .map(|b| *b.inner())
        .ok_or_else(|| BpError::internal("the file chooser named no input"))?;
    let multiple = opened.mode == FileChooserOpenedMode::SelectMultiple;
    check_count(multiple, paths.len())?;
    tab.send(&set_input_files(paths, backend)?).await?;
    Ok(backend)
}
