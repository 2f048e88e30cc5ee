//! Uploads through a file chooser: a styled button or label whose
//! `<input type=file>` is hidden. With the chooser intercepted, the node is
//! clicked (trusted input), the `Page.fileChooserOpened` it causes is
//! answered with the upload artifacts on the input it names, and the
//! interception is turned off again whatever happened. No chooser within
//! the bound is `action_not_verified` (`no_file_chooser`).

use crate::browser::call::TargetCall;
use crate::browser::types::{MouseButton, NodeHandle, UploadReadback};
use crate::error::{BpError, BpResult, Code};
use serde_json::{json, Value};
use std::time::Duration;

/// How long a click may take to open its chooser.
const CHOOSER_WAIT: Duration = Duration::from_secs(3);

/// What the page's input holds: `{count, names}`.
pub(super) const READ_FILES: &str = "function() { const f = Array.from(this.files || []); return {count: f.length, names: f.map(x => x.name)}; }";

pub(super) fn readback(v: &Value) -> UploadReadback {
    UploadReadback {
        file_count: v["count"].as_u64().unwrap_or(0) as u32,
        names: v["names"]
            .as_array()
            .into_iter()
            .flatten()
            .filter_map(Value::as_str)
            .map(str::to_string)
            .collect(),
    }
}

/// `files` given to an input that takes one: refused before anything is
/// set.
pub(super) fn check_count(multiple: bool, files: usize) -> BpResult<()> {
    if files > 1 && !multiple {
        return Err(
            BpError::invalid(format!("the file input takes one file; {files} were given"))
                .with_context(json!({"reason": "single_file_input", "files": files})),
        );
    }
    Ok(())
}

impl TargetCall {
    /// Click `handle` with the file chooser intercepted and answer the
    /// chooser it opens with the artifacts `ids`.
    pub async fn choose_files(
        &mut self,
        handle: NodeHandle,
        ids: &[String],
    ) -> BpResult<UploadReadback> {
        self.check()?;
        let mut paths = Vec::with_capacity(ids.len());
        for id in ids {
            let (_, _, path) = self
                .ws
                .artifacts
                .upload_file(&self.caller.workspace_id, id)?;
            paths.push(path);
        }
        let (at, _) = self.aim(handle).await?;
        let mut events = self.watch_events();
        self.send(
            "Page.setInterceptFileChooserDialog",
            json!({"enabled": true}),
        )
        .await?;
        let answered = self.click_and_answer(at, &mut events, &paths).await;
        // Off again, whatever happened: a later chooser is the person's.
        let off = self
            .send(
                "Page.setInterceptFileChooserDialog",
                json!({"enabled": false}),
            )
            .await;
        let backend = answered?;
        off?;
        let input = self.new_handle(backend, None, self.session.clone());
        let v = self.call_on(input, READ_FILES, json!([]), true).await?["value"].clone();
        Ok(readback(&v))
    }

    /// The click, then the chooser's input answered; its backend node.
    async fn click_and_answer(
        &mut self,
        at: crate::browser::types::Point,
        events: &mut tokio::sync::broadcast::Receiver<std::sync::Arc<crate::cdp::CdpEvent>>,
        paths: &[std::path::PathBuf],
    ) -> BpResult<i64> {
        self.click(at, MouseButton::Left, 1).await?;
        let session = self.session.clone();
        let opened = tokio::time::timeout(CHOOSER_WAIT, async {
            loop {
                match events.recv().await {
                    Ok(ev)
                        if ev.method == "Page.fileChooserOpened"
                            && ev.session_id.as_deref() == Some(session.as_str()) =>
                    {
                        return Some(ev.params.clone());
                    }
                    Ok(_) | Err(tokio::sync::broadcast::error::RecvError::Lagged(_)) => {}
                    Err(_) => return None,
                }
            }
        })
        .await;
        let Ok(Some(params)) = opened else {
            return Err(
                BpError::new(Code::ActionNotVerified, "the click opened no file chooser")
                    .with_context(json!({"reason": "no_file_chooser"})),
            );
        };
        let backend = params["backendNodeId"]
            .as_i64()
            .ok_or_else(|| BpError::internal("the file chooser named no input"))?;
        check_count(params["mode"] == "selectMultiple", paths.len())?;
        self.send(
            "DOM.setFileInputFiles",
            json!({"files": paths, "backendNodeId": backend}),
        )
        .await?;
        Ok(backend)
    }
}
