//! Setting upload artifacts on a file input directly, and what both ways
//! of uploading share: the page-side read-back of the input's files and
//! the check that a single-file input gets one file.

use crate::browser::types::{NodeHandle, UploadReadback};
use crate::error::{BpError, BpResult};
use crate::tab::Tab;
use chromiumoxide::cdp::browser_protocol::dom::{BackendNodeId, SetFileInputFilesParams};
use serde_json::{json, Value};
use std::path::PathBuf;

/// What the page's input holds: `{count, names}`.
pub(super) const READ_FILES: &str = "function() { const f = Array.from(this.files || []); return {count: f.length, names: f.map(x => x.name)}; }";

/// Whether the input takes several files.
const TAKES_MANY: &str = "function() { return !!this.multiple; }";

/// The read-back of [`READ_FILES`].
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

/// The files of the calling workspace's upload artifacts `ids`, each
/// checked (refused as the store refuses an unknown or foreign ID).
pub(super) fn upload_paths(tab: &Tab<'_>, ids: &[String]) -> BpResult<Vec<PathBuf>> {
    ids.iter().map(|id| tab.upload_path(id)).collect()
}

/// The command that gives `paths` to the input of `backend`.
pub(super) fn set_input_files(
    paths: &[PathBuf],
    backend: i64,
) -> BpResult<SetFileInputFilesParams> {
    let files = paths
        .iter()
        .map(|p| {
            p.to_str()
                .map(str::to_string)
                .ok_or_else(|| BpError::internal("an upload's path is not UTF-8"))
        })
        .collect::<BpResult<Vec<_>>>()?;
    Ok(SetFileInputFilesParams {
        files,
        node_id: None,
        backend_node_id: Some(BackendNodeId::new(backend)),
        object_id: None,
    })
}

/// Set the artifacts `ids` on the file input of `handle` and read it back.
pub(super) async fn set_files(
    tab: &mut Tab<'_>,
    handle: NodeHandle,
    ids: &[String],
) -> BpResult<UploadReadback> {
    tab.check()?;
    let paths = upload_paths(tab, ids)?;
    let multiple = tab.call_on(handle, TAKES_MANY).await? == true;
    check_count(multiple, paths.len())?;
    let backend = tab.backend_node(handle)?;
    let set = set_input_files(&paths, backend)?;
    tab.dispatching();
    tab.send_for(handle, &set).await?;
    let read = tab.call_on(handle, READ_FILES).await?;
    Ok(readback(&read))
}
