//! Capture and upload operations of a [`TargetCall`], and the artifact
//! operations of a [`WorkspaceCall`].

use crate::browser::call::TargetCall;
use crate::browser::types::{
    ArtifactRef, Image, NewArtifact, NodeHandle, UploadFile, UploadReadback,
};
use crate::browser::workspace::WorkspaceCall;
use crate::error::{BpError, BpResult};
use crate::store::artifacts::NewArtifact as StoredArtifact;
use base64::Engine as _;
use serde_json::{json, Value};

/// Largest full-page capture, in CSS pixels per side (Chromium's own
/// texture limit is 16384).
const MAX_CAPTURE_EDGE: f64 = 16_384.0;

fn decode(data: &Value) -> BpResult<Vec<u8>> {
    let text = data
        .as_str()
        .ok_or_else(|| BpError::internal("the browser returned no data"))?;
    base64::engine::general_purpose::STANDARD
        .decode(text)
        .map_err(|_| BpError::internal("the browser returned undecodable data"))
}

/// Width and height from a PNG's IHDR chunk.
fn png_size(png: &[u8]) -> BpResult<(u32, u32)> {
    let field = |at: usize| {
        png.get(at..at + 4)
            .and_then(|b| <[u8; 4]>::try_from(b).ok())
            .map(u32::from_be_bytes)
    };
    match (png.starts_with(b"\x89PNG\r\n\x1a\n"), field(16), field(20)) {
        (true, Some(w), Some(h)) => Ok((w, h)),
        _ => Err(BpError::internal("the screenshot is not a PNG")),
    }
}

impl TargetCall {
    pub async fn screenshot(&mut self, full_page: bool) -> BpResult<Image> {
        self.check()?;
        let mut params = json!({"format": "png"});
        if full_page {
            let metrics = self.send("Page.getLayoutMetrics", json!({})).await?;
            let size = &metrics["cssContentSize"];
            let w = size["width"]
                .as_f64()
                .unwrap_or(800.0)
                .clamp(1.0, MAX_CAPTURE_EDGE);
            let h = size["height"]
                .as_f64()
                .unwrap_or(600.0)
                .clamp(1.0, MAX_CAPTURE_EDGE);
            params = json!({"format": "png", "captureBeyondViewport": true,
                            "clip": {"x": 0, "y": 0, "width": w, "height": h, "scale": 1}});
        }
        let reply = self.send("Page.captureScreenshot", params).await?;
        let png = decode(&reply["data"])?;
        let (width, height) = png_size(&png)?;
        Ok(Image { png, width, height })
    }

    pub async fn pdf(&mut self) -> BpResult<Vec<u8>> {
        self.check()?;
        let reply = self
            .send("Page.printToPDF", json!({"printBackground": true}))
            .await?;
        decode(&reply["data"])
    }

    pub async fn set_files(
        &mut self,
        handle: NodeHandle,
        ids: &[String],
    ) -> BpResult<UploadReadback> {
        self.check()?;
        let mut paths = Vec::with_capacity(ids.len());
        for id in ids {
            paths.push(
                self.ws
                    .artifacts
                    .upload_file(&self.caller.workspace_id, id)?
                    .2,
            );
        }
        let multiple = self
            .call_on(
                handle,
                "function() { return !!this.multiple; }",
                json!([]),
                true,
            )
            .await?["value"]
            == true;
        super::chooser::check_count(multiple, paths.len())?;
        let backend = self.backend(handle)?;
        self.mark_dispatched();
        self.send_for(
            handle,
            "DOM.setFileInputFiles",
            json!({"files": paths, "backendNodeId": backend}),
        )
        .await?;
        let read = super::chooser::READ_FILES;
        let v = self.call_on(handle, read, json!([]), true).await?["value"].clone();
        Ok(super::chooser::readback(&v))
    }
}

/// Artifacts belong to the workspace: creating one or reading an upload's
/// metadata needs no tab.
impl WorkspaceCall {
    pub fn create_artifact(&mut self, a: NewArtifact) -> BpResult<ArtifactRef> {
        self.check()?;
        let kind = a.kind.as_str();
        if !matches!(a.mime.as_str(), "image/png" | "application/pdf") {
            return Err(BpError::invalid(format!(
                "unsupported artifact type {}",
                a.mime
            )));
        }
        let new = StoredArtifact {
            workspace_id: &self.caller.workspace_id,
            kind,
            mime: &a.mime,
            filename: None,
            width: a.width,
            height: a.height,
            preview_of: a.preview_of,
        };
        let d = self.artifacts.create(new, &a.data)?;
        Ok(ArtifactRef {
            artifact_id: crate::browser::workspace::artifact_id(&d),
            bytes: d["bytes"].as_u64().unwrap_or(0),
        })
    }

    pub fn upload_file(&mut self, id: &str) -> BpResult<UploadFile> {
        self.check()?;
        let (filename, bytes, _) = self.artifacts.upload_file(&self.caller.workspace_id, id)?;
        Ok(UploadFile {
            artifact_id: id.to_string(),
            filename,
            bytes,
        })
    }
}
