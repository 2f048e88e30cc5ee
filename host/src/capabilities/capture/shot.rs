//! The captures: a PNG of the viewport or of the whole page (its CSS
//! content size, capped at Chromium's texture limit), and the page
//! printed to PDF with its backgrounds.

use crate::browser::types::Image;
use crate::error::{BpError, BpResult};
use crate::tab::Tab;
use base64::Engine as _;
use chromiumoxide::cdp::browser_protocol::page::{
    CaptureScreenshotFormat, CaptureScreenshotParams, GetLayoutMetricsParams, PrintToPdfParams,
    Viewport,
};

/// Largest full-page capture, in CSS pixels per side (Chromium's own
/// texture limit is 16384).
pub(super) const MAX_CAPTURE_EDGE: f64 = 16_384.0;

pub(super) async fn screenshot(tab: &mut Tab<'_>, full_page: bool) -> BpResult<Image> {
    tab.check()?;
    let content = if full_page {
        let metrics = tab.send(&GetLayoutMetricsParams {}).await?;
        let size = metrics.css_content_size;
        Some((size.width, size.height))
    } else {
        None
    };
    let reply = tab.send(&shot_params(content)).await?;
    let png = decode(reply.data.as_ref())?;
    let (width, height) = png_size(&png)?;
    Ok(Image { png, width, height })
}

pub(super) async fn pdf(tab: &mut Tab<'_>) -> BpResult<Vec<u8>> {
    tab.check()?;
    let print = PrintToPdfParams {
        print_background: Some(true),
        ..Default::default()
    };
    let reply = tab.send(&print).await?;
    decode(reply.data.as_ref())
}

/// The screenshot command: the viewport, or with the page's CSS content
/// size the whole page (each side capped at [`MAX_CAPTURE_EDGE`]).
pub(super) fn shot_params(content: Option<(f64, f64)>) -> CaptureScreenshotParams {
    let mut shot = CaptureScreenshotParams {
        format: Some(CaptureScreenshotFormat::Png),
        ..Default::default()
    };
    if let Some((width, height)) = content {
        shot.capture_beyond_viewport = Some(true);
        shot.clip = Some(Viewport {
            x: 0.0,
            y: 0.0,
            width: width.clamp(1.0, MAX_CAPTURE_EDGE),
            height: height.clamp(1.0, MAX_CAPTURE_EDGE),
            scale: 1.0,
        });
    }
    shot
}

/// The bytes of the browser's base64 data.
pub(super) fn decode(text: &str) -> BpResult<Vec<u8>> {
    base64::engine::general_purpose::STANDARD
        .decode(text)
        .map_err(|_| BpError::internal("the browser returned undecodable data"))
}

/// Width and height from a PNG's IHDR chunk.
pub(super) fn png_size(png: &[u8]) -> BpResult<(u32, u32)> {
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
