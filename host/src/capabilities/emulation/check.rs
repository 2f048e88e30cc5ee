//! The pure half of emulation: what a request may ask for, the override
//! it becomes, and whether what the page reports afterwards is what was
//! asked.

use crate::browser::call::emulation::Override;
use crate::error::{BpError, BpResult, Code};
use crate::wit::emulation::{ColorScheme, MediaRead, Metrics, ReducedMotion, ViewportRead};
use serde_json::{json, Value};

/// The largest width or height, in CSS pixels.
pub const MAX_SIDE: u32 = 10_000;
/// The device scale factors accepted.
pub const SCALES: std::ops::RangeInclusive<f64> = 0.5..=4.0;

/// The override `m` asks for, or `invalid_argument` (nothing is sent).
pub fn metrics_override(m: &Metrics) -> BpResult<Override> {
    for (name, v) in [("width", m.width), ("height", m.height)] {
        if !(1..=MAX_SIDE).contains(&v) {
            return Err(BpError::invalid(format!(
                "`{name}` must be 1 to {MAX_SIDE} CSS pixels, not {v}"
            )));
        }
    }
    let scale = m.device_scale_factor.unwrap_or(1.0);
    if !scale.is_finite() || !SCALES.contains(&scale) {
        return Err(BpError::invalid(format!(
            "`deviceScaleFactor` must be 0.5 to 4, not {scale}"
        )));
    }
    Ok(Override::Metrics {
        width: m.width,
        height: m.height,
        scale,
        mobile: m.mobile,
    })
}

/// The media features asked for, as `Emulation.setEmulatedMedia` names
/// them (none given: every emulated feature is removed).
pub fn media_override(scheme: Option<ColorScheme>, motion: Option<ReducedMotion>) -> Override {
    let mut features = Vec::new();
    if let Some(s) = scheme {
        let value = match s {
            ColorScheme::Light => "light",
            ColorScheme::Dark => "dark",
            ColorScheme::NoPreference => "no-preference",
        };
        features.push(("prefers-color-scheme", value));
    }
    if let Some(m) = motion {
        let value = match m {
            ReducedMotion::Reduce => "reduce",
            ReducedMotion::NoPreference => "no-preference",
        };
        features.push(("prefers-reduced-motion", value));
    }
    Override::Media(features)
}

/// Page-side read of the size (`screen` too: in mobile mode the layout
/// width follows the page's meta viewport, the screen the override).
pub const SIZE_PROBE: &str = "({w: innerWidth, h: innerHeight, dpr: devicePixelRatio, \
     sw: screen.width, sh: screen.height})";

/// Page-side read of the media features.
pub const MEDIA_PROBE: &str = "({dark: matchMedia('(prefers-color-scheme: dark)').matches, \
     light: matchMedia('(prefers-color-scheme: light)').matches, \
     reduce: matchMedia('(prefers-reduced-motion: reduce)').matches})";

/// What the size probe reports: the read and the screen size.
pub fn size_read(v: &Value) -> Option<(ViewportRead, (u32, u32))> {
    let int = |k: &str| v.get(k)?.as_f64().map(|f| f.round() as u32);
    Some((
        ViewportRead {
            inner_width: int("w")?,
            inner_height: int("h")?,
            device_pixel_ratio: v.get("dpr")?.as_f64()?,
        },
        (int("sw")?, int("sh")?),
    ))
}

/// What the media probe reports.
pub fn media_read(v: &Value) -> Option<MediaRead> {
    let b = |k: &str| v.get(k)?.as_bool();
    Some(MediaRead {
        dark: b("dark")?,
        light: b("light")?,
        reduced_motion: b("reduce")?,
    })
}

/// Whether the page reports the size `o` asked for: the inner size (the
/// screen size in mobile mode, whose layout width is the page's own) and
/// the pixel ratio.
pub fn size_matches(o: &Override, read: &ViewportRead, screen: (u32, u32)) -> bool {
    let Override::Metrics {
        width,
        height,
        scale,
        mobile,
    } = o
    else {
        return true;
    };
    let size = if *mobile {
        screen
    } else {
        (read.inner_width, read.inner_height)
    };
    size == (*width, *height) && (read.device_pixel_ratio - scale).abs() < 0.01
}

/// Whether `matchMedia` reports the features `o` emulates.
pub fn media_matches(o: &Override, read: &MediaRead) -> bool {
    let Override::Media(features) = o else {
        return true;
    };
    features.iter().all(|(name, value)| match (*name, *value) {
        ("prefers-color-scheme", "dark") => read.dark,
        ("prefers-color-scheme", "light") => read.light,
        ("prefers-color-scheme", _) => !read.dark && !read.light,
        ("prefers-reduced-motion", "reduce") => read.reduced_motion,
        (_, _) => !read.reduced_motion,
    })
}

/// The error when the page does not report what was asked: the override
/// was sent, the page disagrees, and says what it reports. (Through the
/// component, what reaches the client is the code and `reason`.)
pub fn not_applied(what: &str, reason: &str, reported: Value) -> BpError {
    BpError::new(
        Code::ActionNotVerified,
        format!("the page does not report the {what} asked for"),
    )
    .with_context(json!({"reason": reason, "reported": reported}))
}
