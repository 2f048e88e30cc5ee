//! `bp scroll`: scroll the page, a scroll container by ref, or an element
//! into view (`browser.scroll`). Returns the protocol result and its line
//! for humans.

use crate::commands::parse_ref;
use crate::session::Session;
use browser_pilot_host::BpResult;
use serde_json::{json, Value};

/// `bp scroll`: one motion, of the page or of the element REF names.
#[derive(Debug, clap::Args)]
#[command(group(clap::ArgGroup::new("motion").required(true)
    .args(["by", "up", "down", "direction", "to", "into_view"])))]
pub struct ScrollArgs {
    /// The scroll container to scroll (a ref from `bp snapshot`), or with
    /// --into-view the element to bring into view; without it the page.
    #[arg(value_name = "REF")]
    pub reference: Option<String>,
    /// Scroll down by PX CSS pixels (a negative PX scrolls up).
    #[arg(long, value_name = "PX", allow_negative_numbers = true)]
    pub by: Option<i64>,
    /// Scroll up one viewport (or --amount PX).
    #[arg(long)]
    pub up: bool,
    /// Scroll down one viewport (or --amount PX).
    #[arg(long)]
    pub down: bool,
    /// Scroll in this direction one viewport (or --amount PX).
    #[arg(long, value_parser = ["up", "down", "left", "right"])]
    pub direction: Option<String>,
    /// How far, in CSS pixels, with --up, --down or --direction.
    #[arg(long, value_name = "PX")]
    pub amount: Option<u32>,
    /// Scroll to the top or the bottom.
    #[arg(long, value_parser = ["top", "bottom"])]
    pub to: Option<String>,
    /// Bring the element REF into view, centred.
    #[arg(long, requires = "reference")]
    pub into_view: bool,
}

/// The `browser.scroll` arguments of the command line's motion.
fn arguments(a: ScrollArgs) -> BpResult<Value> {
    let mut args = json!({});
    if let Some(r) = &a.reference {
        args["ref"] = json!(parse_ref(r)?);
    }
    let direction = match (a.by, a.up, a.down, a.direction) {
        (Some(px), ..) => {
            args["amount"] = json!(px.unsigned_abs());
            Some(if px < 0 { "up" } else { "down" }.to_string())
        }
        (_, true, ..) => Some("up".to_string()),
        (_, _, true, _) => Some("down".to_string()),
        (_, _, _, d) => d,
    };
    if let Some(d) = direction {
        args["direction"] = json!(d);
    }
    if let Some(px) = a.amount {
        args["amount"] = json!(px);
    }
    if let Some(t) = a.to {
        args["to"] = json!(t);
    }
    if a.into_view {
        args["intoView"] = json!(true);
    }
    Ok(args)
}

pub(crate) async fn scroll(s: &mut Session, a: ScrollArgs) -> BpResult<(Value, String)> {
    let v = s.tool("browser.scroll", arguments(a)?).await?;
    let at = |k: &str| {
        format!(
            "{},{}",
            v[k]["x"].as_f64().unwrap_or(0.0),
            v[k]["y"].as_f64().unwrap_or(0.0)
        )
    };
    let mut text = format!(
        "scrolled {} from {} to {} ({})",
        v["scrolled"].as_str().unwrap_or("page"),
        at("before"),
        at("after"),
        v["route"].as_str().unwrap_or("?")
    );
    if v["atEdge"] == true {
        text.push_str("; at the edge");
    }
    if v["contentGrew"] == true {
        text.push_str("; more content loaded");
    }
    Ok((v, text))
}
