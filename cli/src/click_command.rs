//! `bp click`: click an element by ref (once it is ready for input), or a
//! point of the viewport (`--at X,Y`, CSS pixels as in a screenshot), with
//! `browser.click`. Returns the protocol result and its line for humans.

use crate::commands::parse_ref;
use crate::output;
use crate::session::Session;
use browser_pilot_host::{BpError, BpResult};
use serde_json::{json, Value};

/// `bp click REF` or `bp click --at X,Y`.
#[derive(Debug, clap::Args)]
#[command(group(clap::ArgGroup::new("aim").required(true).args(["reference", "at"])))]
pub struct ClickArgs {
    /// The element to click (a ref from `bp snapshot`).
    #[arg(value_name = "REF")]
    pub reference: Option<String>,
    /// Click at this point of the viewport instead (CSS pixels, `X,Y`).
    #[arg(long, value_name = "X,Y", allow_hyphen_values = true)]
    pub at: Option<String>,
    /// Use a synthetic DOM click instead of trusted input.
    #[arg(long, conflicts_with_all = ["at", "double", "right"])]
    pub dom_event: bool,
    /// A double click (two presses, the second with click count 2).
    #[arg(long)]
    pub double: bool,
    /// Press the right button (a context menu).
    #[arg(long)]
    pub right: bool,
    /// How long to wait for the element to be ready (0..10000 ms).
    #[arg(long, value_name = "MS")]
    pub wait_ms: Option<u32>,
    /// What to wait for after the click: none, dom or network (default).
    #[arg(long, value_parser = ["none", "dom", "network"])]
    pub settle: Option<String>,
}

/// `X,Y` as a point.
fn point(at: &str) -> BpResult<Value> {
    let parts: Vec<f64> = at
        .split(',')
        .map(|p| p.trim().parse::<f64>())
        .collect::<Result<_, _>>()
        .map_err(|_| BpError::invalid(format!("`{at}` is not a point; use X,Y")))?;
    match parts[..] {
        [x, y] if x.is_finite() && y.is_finite() => Ok(json!({"x": x, "y": y})),
        _ => Err(BpError::invalid(format!("`{at}` is not a point; use X,Y"))),
    }
}

fn arguments(a: &ClickArgs) -> BpResult<Value> {
    let mut args = match (&a.reference, &a.at) {
        (_, Some(at)) => json!({"at": point(at)?}),
        (Some(r), None) => json!({"ref": parse_ref(r)?}),
        (None, None) => return Err(BpError::invalid("give a REF or --at X,Y")),
    };
    if a.dom_event {
        args["trust"] = json!("dom_event");
    }
    if a.double {
        args["clickCount"] = json!(2);
    }
    if a.right {
        args["button"] = json!("right");
    }
    if let Some(ms) = a.wait_ms {
        args["waitMs"] = json!(ms);
    }
    if let Some(s) = &a.settle {
        args["settle"] = json!(s);
    }
    Ok(args)
}

pub(crate) async fn click(s: &mut Session, a: ClickArgs) -> BpResult<(Value, String)> {
    let v = s.tool("browser.click", arguments(&a)?).await?;
    let mut text = match (&a.reference, &a.at) {
        (_, Some(at)) => {
            let t = &v["evidence"]["target"];
            let what = [&t["role"], &t["name"]]
                .iter()
                .filter_map(|v| v.as_str())
                .filter(|s| !s.is_empty())
                .collect::<Vec<_>>()
                .join(" ");
            let line = output::action(&format!("clicked at {at}"), "", &v);
            format!("{line} on {}", if what.is_empty() { "?" } else { &what })
        }
        (reference, None) => output::action("clicked", reference.as_deref().unwrap_or(""), &v),
    };
    if let Some(state) = v["evidence"]["settle"]["state"].as_str() {
        if state != "settled" {
            let n = &v["evidence"]["settle"]["requests"];
            text.push_str(&format!("; {state} ({n} requests pending)"));
        }
    }
    Ok((v, text))
}
