//! `bp hover`: move the real pointer onto an element by ref, or onto a
//! viewport point, and leave it there (`browser.hover`). Returns the
//! protocol result and its line for humans.

use crate::commands::parse_ref;
use crate::session::Session;
use browser_pilot_host::{BpError, BpResult};
use serde_json::{json, Value};

/// `bp hover REF` or `bp hover --at X,Y`.
#[derive(Debug, clap::Args)]
#[command(group(clap::ArgGroup::new("target").required(true).args(["reference", "at"])))]
pub struct HoverArgs {
    /// The element to hover (a ref from `bp snapshot`).
    #[arg(value_name = "REF")]
    pub reference: Option<String>,
    /// A viewport point in CSS pixels, as in a screenshot.
    #[arg(long, value_name = "X,Y", allow_hyphen_values = true)]
    pub at: Option<String>,
    #[command(flatten)]
    pub pace: crate::pace_args::PaceArgs,
}

/// Two numbers written `A,B`.
pub(crate) fn parse_pair(text: &str, what: &str) -> BpResult<(f64, f64)> {
    let bad = || BpError::invalid(format!("`{text}` is not {what}: write two numbers as A,B"));
    let (a, b) = text.split_once(',').ok_or_else(bad)?;
    let num = |s: &str| s.trim().parse::<f64>().ok().filter(|n| n.is_finite());
    Ok((num(a).ok_or_else(bad)?, num(b).ok_or_else(bad)?))
}

fn arguments(a: &HoverArgs) -> BpResult<Value> {
    let mut args = match (&a.reference, &a.at) {
        (Some(r), _) => json!({"ref": parse_ref(r)?}),
        (None, Some(at)) => {
            let (x, y) = parse_pair(at, "a point")?;
            json!({"at": {"x": x, "y": y}})
        }
        (None, None) => return Err(BpError::invalid("name a REF or --at X,Y")),
    };
    a.pace.apply(&mut args);
    Ok(args)
}

pub(crate) async fn hover(s: &mut Session, a: HoverArgs) -> BpResult<(Value, String)> {
    let v = s.tool("browser.hover", arguments(&a)?).await?;
    let under = &v["under"];
    let mut text = format!(
        "hovered {},{} over {} \"{}\"",
        v["at"]["x"].as_f64().unwrap_or(0.0),
        v["at"]["y"].as_f64().unwrap_or(0.0),
        under["role"].as_str().unwrap_or("?"),
        under["name"].as_str().unwrap_or_default()
    );
    let count = v["appeared"]["count"].as_u64().unwrap_or(0);
    if count > 0 {
        let names: Vec<&str> = v["appeared"]["names"]
            .as_array()
            .into_iter()
            .flatten()
            .filter_map(Value::as_str)
            .collect();
        text.push_str(&format!("; {count} appeared: {}", names.join(", ")));
    }
    if v["expandedChanged"] == true {
        text.push_str(&format!(
            "; expanded is now {}",
            v["expanded"].as_str().unwrap_or("unset")
        ));
    }
    text.push_str(&crate::pace_args::note(&v["settle"]));
    Ok((v, text))
}
