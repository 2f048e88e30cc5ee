//! `bp viewport` and `bp emulate`: the size and the media features the
//! current tab renders with (`browser.viewport`, `browser.emulate`).
//! Return the protocol result and its line for humans.

use crate::session::Session;
use browser_pilot_host::{BpError, BpResult};
use serde_json::{json, Value};

/// `bp viewport WxH [--scale F] [--mobile]`, or `bp viewport --reset`.
#[derive(Debug, clap::Args)]
#[command(group(clap::ArgGroup::new("what").required(true).args(["size", "reset"])))]
pub struct ViewportArgs {
    /// The size in CSS pixels, WIDTHxHEIGHT (each 1 to 10000).
    #[arg(value_name = "WxH")]
    pub size: Option<String>,
    /// Device pixels per CSS pixel (0.5 to 4).
    #[arg(long, value_name = "F", requires = "size")]
    pub scale: Option<f64>,
    /// Emulate a mobile device (the page's meta viewport applies).
    #[arg(long, requires = "size")]
    pub mobile: bool,
    /// Remove the size override.
    #[arg(long, conflicts_with_all = ["size", "scale", "mobile"])]
    pub reset: bool,
}

/// `bp emulate`: media features.
#[derive(Debug, clap::Args)]
#[command(group(clap::ArgGroup::new("feature").required(true).multiple(true)
    .args(["color_scheme", "reduced_motion"])))]
pub struct EmulateArgs {
    /// prefers-color-scheme.
    #[arg(long, value_parser = ["light", "dark", "no-preference"])]
    pub color_scheme: Option<String>,
    /// prefers-reduced-motion.
    #[arg(long, value_parser = ["reduce", "no-preference"])]
    pub reduced_motion: Option<String>,
}

/// `WxH` as two whole numbers (their range is the tool's to check).
fn parse_size(text: &str) -> BpResult<(u64, u64)> {
    let bad = || {
        BpError::invalid(format!(
            "size `{text}` is not WIDTHxHEIGHT (for example 1280x800)"
        ))
    };
    let (w, h) = text.split_once(['x', 'X', ',']).ok_or_else(bad)?;
    let num = |s: &str| s.trim().parse::<u64>().map_err(|_| bad());
    Ok((num(w)?, num(h)?))
}

fn viewport_arguments(a: &ViewportArgs) -> BpResult<Value> {
    if a.reset {
        return Ok(json!({"reset": true}));
    }
    let size = a.size.as_deref().unwrap_or_default();
    let (width, height) = parse_size(size)?;
    let mut args = json!({"width": width, "height": height});
    if let Some(f) = a.scale {
        args["deviceScaleFactor"] = json!(f);
    }
    if a.mobile {
        args["mobile"] = json!(true);
    }
    Ok(args)
}

pub(crate) async fn viewport(s: &mut Session, a: ViewportArgs) -> BpResult<(Value, String)> {
    let v = s.tool("browser.viewport", viewport_arguments(&a)?).await?;
    let text = format!(
        "{} {}x{} CSS px at {}x",
        if v["reset"] == true {
            "viewport reset: the page reports"
        } else {
            "viewport set: the page reports"
        },
        v["innerWidth"].as_u64().unwrap_or(0),
        v["innerHeight"].as_u64().unwrap_or(0),
        v["devicePixelRatio"].as_f64().unwrap_or(0.0)
    );
    Ok((v, text))
}

pub(crate) async fn emulate(s: &mut Session, a: EmulateArgs) -> BpResult<(Value, String)> {
    let mut args = json!({});
    if let Some(c) = a.color_scheme {
        args["colorScheme"] = json!(c);
    }
    if let Some(m) = a.reduced_motion {
        args["reducedMotion"] = json!(m);
    }
    let v = s.tool("browser.emulate", args).await?;
    let text = format!(
        "the page reports prefers-color-scheme {} and prefers-reduced-motion {}",
        v["colorScheme"].as_str().unwrap_or("?"),
        v["reducedMotion"].as_str().unwrap_or("?")
    );
    Ok((v, text))
}
