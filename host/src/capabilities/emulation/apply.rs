//! The overrides, sent on the call's tab and read back from the page,
//! bounded: a renderer applies a new size with its next frame.

use super::check::{self, MEDIA_PROBE, SIZE_PROBE};
use crate::browser::call::emulation::Override;
use crate::error::{BpError, BpResult};
use crate::tab::Tab;
use crate::wit::emulation::{ColorScheme, MediaRead, Metrics, ReducedMotion, ViewportRead};
use serde_json::json;
use std::time::{Duration, Instant};

/// How long the page is given to report a change.
const SETTLE: Duration = Duration::from_millis(1000);
/// The pause between reads.
const TICK: Duration = Duration::from_millis(30);

async fn read_size(tab: &mut Tab<'_>) -> BpResult<(ViewportRead, (u32, u32))> {
    let v = tab.evaluate(SIZE_PROBE).await?;
    check::size_read(&v).ok_or_else(|| BpError::internal("the page's size was not readable"))
}

async fn read_media(tab: &mut Tab<'_>) -> BpResult<MediaRead> {
    let v = tab.evaluate(MEDIA_PROBE).await?;
    check::media_read(&v)
        .ok_or_else(|| BpError::internal("the page's media features were not readable"))
}

/// Render at `metrics`, then read until the page reports it (or the
/// bound passes: `action_not_verified` with what it reports).
pub async fn set_viewport(tab: &mut Tab<'_>, metrics: Metrics) -> BpResult<ViewportRead> {
    let o = check::metrics_override(&metrics)?;
    tab.emulate(&o).await?;
    let start = Instant::now();
    loop {
        let (read, screen) = read_size(tab).await?;
        if check::size_matches(&o, &read, screen) {
            return Ok(read);
        }
        if start.elapsed() >= SETTLE {
            let reported = json!({"innerWidth": read.inner_width, "innerHeight": read.inner_height,
                "devicePixelRatio": read.device_pixel_ratio, "screen": [screen.0, screen.1]});
            return Err(check::not_applied("size", "size_not_applied", reported));
        }
        tokio::time::sleep(TICK).await;
    }
}

/// Remove the size override and read the page's own size back (after
/// the renderer's next frame has applied it).
pub async fn reset_viewport(tab: &mut Tab<'_>) -> BpResult<ViewportRead> {
    let before = read_size(tab).await?.0;
    tab.emulate(&Override::ClearMetrics).await?;
    let start = Instant::now();
    loop {
        let (read, _) = read_size(tab).await?;
        let changed =
            (read.inner_width, read.inner_height) != (before.inner_width, before.inner_height);
        if changed || start.elapsed() >= Duration::from_millis(200) {
            return Ok(read);
        }
        tokio::time::sleep(TICK).await;
    }
}

/// Emulate the media features given, then read until `matchMedia`
/// reports them.
pub async fn emulate_media(
    tab: &mut Tab<'_>,
    scheme: Option<ColorScheme>,
    motion: Option<ReducedMotion>,
) -> BpResult<MediaRead> {
    let o = check::media_override(scheme, motion);
    tab.emulate(&o).await?;
    let start = Instant::now();
    loop {
        let read = read_media(tab).await?;
        if check::media_matches(&o, &read) {
            return Ok(read);
        }
        if start.elapsed() >= SETTLE {
            let reported = json!({"dark": read.dark, "light": read.light,
                "reducedMotion": read.reduced_motion});
            return Err(check::not_applied(
                "media features",
                "media_not_applied",
                reported,
            ));
        }
        tokio::time::sleep(TICK).await;
    }
}
