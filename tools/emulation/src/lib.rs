//! The emulation family: `browser.viewport` renders the page at a size
//! (CSS px, device scale factor, mobile) or resets it, and
//! `browser.emulate` sets media features (colour scheme, reduced motion).
//! Each reports what the page itself reads back (`innerWidth`,
//! `innerHeight`, `devicePixelRatio`, `matchMedia`); a page that does not
//! report what was asked is an error from the host, never a success. The
//! component checks the request; the host sends and reads back.

wit_bindgen::generate!({
    world: "emulation-family",
    path: "../../tools-wit",
    with: { "browser-pilot:tools/types@0.1.0": bp_sdk::types },
});

use bp_sdk::spec::{target_id_schema, with_common};
use bp_sdk::{invalid, Args, CallContext, Component, ToolError, ToolSpec};
use browser_pilot::tools::emulation::{self, ColorScheme, Metrics, ReducedMotion, ViewportRead};
use serde_json::{json, Map, Value};

/// The largest width or height, in CSS pixels.
const MAX_SIDE: u32 = 10_000;

struct Emulation;

fn viewport_spec() -> ToolSpec {
    let mut out = Map::new();
    out.insert("innerWidth".into(), json!({"type": "integer"}));
    out.insert("innerHeight".into(), json!({"type": "integer"}));
    out.insert("devicePixelRatio".into(), json!({"type": "number"}));
    out.insert("reset".into(), json!({"type": "boolean"}));
    ToolSpec::mutating(
        "browser.viewport",
        "Render the controlled tab at a size in CSS pixels (optionally a device scale factor and mobile mode), or with reset: true remove that override. Reports innerWidth, innerHeight and devicePixelRatio as the page reads them; a page that does not report the size asked for is an error.",
        &["page-read", "emulation"],
    )
    .schemas(
        json!({
            "type": "object",
            "additionalProperties": false,
            "properties": {
                "targetId": target_id_schema(),
                "width": {"type": "integer", "minimum": 1, "maximum": MAX_SIDE},
                "height": {"type": "integer", "minimum": 1, "maximum": MAX_SIDE},
                "deviceScaleFactor": {"type": "number", "minimum": 0.5, "maximum": 4},
                "mobile": {"type": "boolean"},
                "reset": {"type": "boolean", "description": "Remove the size override (alone)."}
            }
        }),
        json!({"type": "object", "required": ["innerWidth", "innerHeight", "devicePixelRatio"], "properties": Value::Object(with_common(out))}),
    )
}

fn emulate_spec() -> ToolSpec {
    let mut out = Map::new();
    out.insert(
        "colorScheme".into(),
        json!({"enum": ["light", "dark", "no-preference"]}),
    );
    out.insert(
        "reducedMotion".into(),
        json!({"enum": ["reduce", "no-preference"]}),
    );
    ToolSpec::mutating(
        "browser.emulate",
        "Emulate media features on the controlled tab: colorScheme (prefers-color-scheme) and reducedMotion (prefers-reduced-motion); a feature left out is no longer emulated. Reports what matchMedia reads for each.",
        &["page-read", "emulation"],
    )
    .schemas(
        json!({
            "type": "object",
            "additionalProperties": false,
            "properties": {
                "targetId": target_id_schema(),
                "colorScheme": {"enum": ["light", "dark", "no-preference"]},
                "reducedMotion": {"enum": ["reduce", "no-preference"]}
            }
        }),
        json!({"type": "object", "required": ["colorScheme", "reducedMotion"], "properties": Value::Object(with_common(out))}),
    )
}

fn size_json(r: &ViewportRead, reset: bool) -> Value {
    json!({
        "innerWidth": r.inner_width,
        "innerHeight": r.inner_height,
        "devicePixelRatio": r.device_pixel_ratio,
        "reset": reset,
    })
}

fn viewport(mut args: Args) -> Result<Value, ToolError> {
    let width = args.opt_u32("width", 1, MAX_SIDE)?;
    let height = args.opt_u32("height", 1, MAX_SIDE)?;
    let scale = match args.opt_value("deviceScaleFactor") {
        None => None,
        Some(v) => Some(
            v.as_f64()
                .filter(|s| (0.5..=4.0).contains(s))
                .ok_or_else(|| invalid("`deviceScaleFactor` must be a number from 0.5 to 4"))?,
        ),
    };
    let mobile = args.opt_bool("mobile")?;
    let reset = args.opt_bool("reset")?.unwrap_or(false);
    args.finish()?;
    if reset {
        if width.is_some() || height.is_some() || scale.is_some() || mobile.is_some() {
            return Err(invalid("`reset` goes alone"));
        }
        return Ok(size_json(&emulation::reset_viewport()?, true));
    }
    let (Some(width), Some(height)) = (width, height) else {
        return Err(invalid("give `width` and `height` (or `reset: true`)"));
    };
    let read = emulation::set_viewport(Metrics {
        width,
        height,
        device_scale_factor: scale,
        mobile: mobile.unwrap_or(false),
    })?;
    Ok(size_json(&read, false))
}

fn emulate(mut args: Args) -> Result<Value, ToolError> {
    let scheme = match args.opt_str("colorScheme")?.as_deref() {
        None => None,
        Some("light") => Some(ColorScheme::Light),
        Some("dark") => Some(ColorScheme::Dark),
        Some("no-preference") => Some(ColorScheme::NoPreference),
        Some(other) => {
            return Err(invalid(format!(
                "`colorScheme` must be light, dark or no-preference, not `{other}`"
            )))
        }
    };
    let motion = match args.opt_str("reducedMotion")?.as_deref() {
        None => None,
        Some("reduce") => Some(ReducedMotion::Reduce),
        Some("no-preference") => Some(ReducedMotion::NoPreference),
        Some(other) => {
            return Err(invalid(format!(
                "`reducedMotion` must be reduce or no-preference, not `{other}`"
            )))
        }
    };
    args.finish()?;
    let read = emulation::emulate_media(scheme, motion)?;
    let scheme = match (read.dark, read.light) {
        (true, _) => "dark",
        (false, true) => "light",
        (false, false) => "no-preference",
    };
    let motion = if read.reduced_motion {
        "reduce"
    } else {
        "no-preference"
    };
    Ok(json!({"colorScheme": scheme, "reducedMotion": motion}))
}

impl Component for Emulation {
    fn specs() -> Vec<ToolSpec> {
        vec![viewport_spec(), emulate_spec()]
    }

    fn call(_ctx: &CallContext, name: &str, mut args: Args) -> Result<Value, ToolError> {
        args.allow(&["targetId"]);
        match name {
            "browser.viewport" => viewport(args),
            "browser.emulate" => emulate(args),
            other => Err(invalid(format!("unknown tool `{other}`"))),
        }
    }
}

bp_sdk::export_component!(Emulation);
