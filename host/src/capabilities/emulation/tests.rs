//! Unit tests of the pure logic: what is accepted, the overrides sent,
//! and when a read-back counts as the change asked for.

use super::check::{
    media_matches, media_override, media_read, metrics_override, size_matches, size_read,
};
use crate::browser::call::emulation::Override;
use crate::error::Code;
use crate::wit::emulation::{ColorScheme, MediaRead, Metrics, ReducedMotion};
use serde_json::json;

fn metrics(width: u32, height: u32, scale: Option<f64>, mobile: bool) -> Metrics {
    Metrics {
        width,
        height,
        device_scale_factor: scale,
        mobile,
    }
}

#[test]
fn sizes_and_scales_out_of_range_are_refused() {
    for bad in [
        metrics(0, 800, None, false),
        metrics(1280, 0, None, false),
        metrics(100_000, 800, None, false),
        metrics(10_001, 10_001, None, false),
        metrics(800, 600, Some(0.0), false),
        metrics(800, 600, Some(5.0), false),
        metrics(800, 600, Some(f64::NAN), false),
    ] {
        let e = metrics_override(&bad).expect_err("out of range");
        assert_eq!(e.code, Code::InvalidArgument, "{bad:?}");
    }
    let o = metrics_override(&metrics(375, 667, Some(2.0), true)).expect("in range");
    let (method, params) = o.command().expect("serialisable");
    assert_eq!(method, "Emulation.setDeviceMetricsOverride");
    assert_eq!(
        params,
        json!({"width": 375, "height": 667, "deviceScaleFactor": 2.0, "mobile": true})
    );
}

#[test]
fn a_size_counts_only_when_the_page_reports_it() {
    let o = metrics_override(&metrics(1000, 700, None, false)).expect("in range");
    let v = json!({"w": 1000, "h": 700, "dpr": 1, "sw": 1000, "sh": 700});
    let (read, screen) = size_read(&v).expect("a probe reply");
    assert!(size_matches(&o, &read, screen));
    let (small, screen) =
        size_read(&json!({"w": 780, "h": 493, "dpr": 1, "sw": 780, "sh": 493})).expect("reply");
    assert!(!size_matches(&o, &small, screen));
    // Mobile: the layout width is the page's, the screen is the override.
    let m = metrics_override(&metrics(375, 667, Some(2.0), true)).expect("in range");
    let (wide, screen) =
        size_read(&json!({"w": 980, "h": 1742, "dpr": 2, "sw": 375, "sh": 667})).expect("reply");
    assert!(size_matches(&m, &wide, screen));
    assert!(size_read(&json!({"w": 1})).is_none());
}

#[test]
fn media_features_are_sent_and_checked_by_name() {
    let o = media_override(Some(ColorScheme::Dark), Some(ReducedMotion::Reduce));
    assert_eq!(
        o,
        Override::Media(vec![
            ("prefers-color-scheme", "dark"),
            ("prefers-reduced-motion", "reduce")
        ])
    );
    let read = |dark, light, reduced_motion| MediaRead {
        dark,
        light,
        reduced_motion,
    };
    assert!(media_matches(&o, &read(true, false, true)));
    assert!(!media_matches(&o, &read(false, true, true)));
    assert!(!media_matches(&o, &read(true, false, false)));
    let none = media_override(Some(ColorScheme::NoPreference), None);
    assert!(media_matches(&none, &read(false, false, true)));
    assert!(!media_matches(&none, &read(false, true, false)));
    assert_eq!(
        media_override(None, None)
            .command()
            .expect("serialisable")
            .1,
        json!({"features": []})
    );
    let r = media_read(&json!({"dark": true, "light": false, "reduce": false})).expect("reply");
    assert!(r.dark && !r.reduced_motion);
}
