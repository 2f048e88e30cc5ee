//! The capture family: `browser.screenshot` and `browser.pdf`. Captures are
//! stored as workspace artifacts; large or full-page screenshots also get a
//! model-sized preview, scaled down here in the component.

wit_bindgen::generate!({
    world: "capture-family",
    path: "../../tools-wit",
    with: { "browser-pilot:tools/types@0.1.0": bp_sdk::types },
});

mod preview;

use bp_sdk::spec::{target_id_schema, with_common};
use bp_sdk::{invalid, Args, CallContext, Component, ToolError, ToolSpec};
use browser_pilot::tools::artifacts::{self, ArtifactKind, NewArtifact};
use browser_pilot::tools::capture::{self, ScreenshotOptions};
use serde_json::{json, Map, Value};

/// Longest edge of a preview, in pixels.
pub const PREVIEW_EDGE: u32 = 1280;

struct Capture;

fn artifact_schema() -> Value {
    json!({"type": "object", "required": ["artifactId", "kind", "mime", "bytes", "path"], "x-browser-pilot-sensitivity": ["page_capture"]})
}

fn screenshot_spec() -> ToolSpec {
    let mut props = Map::new();
    props.insert("artifact".into(), artifact_schema());
    props.insert("preview".into(), artifact_schema());
    ToolSpec::read(
        "browser.screenshot",
        "Screenshot the target (viewport, or the full page) as a PNG artifact; large captures also get a bounded preview.",
        &["capture", "artifacts"],
    )
    .schemas(
        json!({"type": "object", "additionalProperties": false, "properties": {
            "targetId": target_id_schema(),
            "fullPage": {"type": "boolean", "default": false}}}),
        json!({"type": "object", "required": ["artifact"], "properties": Value::Object(with_common(props))}),
    )
    .sensitivity(&[], &["page_capture"])
    .creates(&[ArtifactKind::Screenshot, ArtifactKind::Preview])
}

fn pdf_spec() -> ToolSpec {
    let mut props = Map::new();
    props.insert("artifact".into(), artifact_schema());
    ToolSpec::read("browser.pdf", "Print the target to a PDF artifact.", &["capture", "artifacts"])
        .schemas(
            json!({"type": "object", "additionalProperties": false, "properties": {"targetId": target_id_schema()}}),
            json!({"type": "object", "required": ["artifact"], "properties": Value::Object(with_common(props))}),
        )
        .sensitivity(&[], &["page_capture"])
        .creates(&[ArtifactKind::Pdf])
}

fn screenshot(mut args: Args) -> Result<Value, ToolError> {
    args.allow(&["targetId"]);
    let full_page = args.opt_bool("fullPage")?.unwrap_or(false);
    args.finish()?;
    let image = capture::screenshot(ScreenshotOptions { full_page })?;
    let (width, height) = (image.width, image.height);
    let needs_preview = full_page || width > PREVIEW_EDGE || height > PREVIEW_EDGE;
    let preview = if needs_preview {
        Some(preview::scale_png(&image.png, PREVIEW_EDGE)?)
    } else {
        None
    };
    let stored = artifacts::create(&NewArtifact {
        kind: ArtifactKind::Screenshot,
        mime: "image/png".into(),
        data: image.png,
        width: Some(width),
        height: Some(height),
        preview_of: None,
    })?;
    let mut out = json!({"artifact": {"artifactId": stored.artifact_id}});
    if let Some(p) = preview {
        let small = artifacts::create(&NewArtifact {
            kind: ArtifactKind::Preview,
            mime: "image/png".into(),
            data: p.png,
            width: Some(p.width),
            height: Some(p.height),
            preview_of: Some(stored.artifact_id.clone()),
        })?;
        out["preview"] = json!({"artifactId": small.artifact_id});
    }
    Ok(out)
}

fn pdf(mut args: Args) -> Result<Value, ToolError> {
    args.allow(&["targetId"]);
    args.finish()?;
    let data = capture::pdf()?;
    if !data.starts_with(b"%PDF-") {
        return Err(ToolError::Internal(
            "the browser did not produce a PDF".into(),
        ));
    }
    let stored = artifacts::create(&NewArtifact {
        kind: ArtifactKind::Pdf,
        mime: "application/pdf".into(),
        data,
        width: None,
        height: None,
        preview_of: None,
    })?;
    Ok(json!({"artifact": {"artifactId": stored.artifact_id}}))
}

impl Component for Capture {
    fn specs() -> Vec<ToolSpec> {
        vec![screenshot_spec(), pdf_spec()]
    }

    fn call(_ctx: &CallContext, name: &str, args: Args) -> Result<Value, ToolError> {
        match name {
            "browser.screenshot" => screenshot(args),
            "browser.pdf" => pdf(args),
            other => Err(invalid(format!("unknown tool `{other}`"))),
        }
    }
}

bp_sdk::export_component!(Capture);
