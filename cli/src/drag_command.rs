//! `bp drag`: drag an element by ref onto another, or by a distance
//! (`browser.drag`). Returns the protocol result and its line for humans.

use crate::commands::parse_ref;
use crate::hover_command::parse_pair;
use crate::session::Session;
use browser_pilot_host::{BpError, BpResult};
use serde_json::{json, Value};

/// `bp drag FROM TO` or `bp drag FROM --by DX,DY`.
#[derive(Debug, clap::Args)]
#[command(group(clap::ArgGroup::new("where").required(true).args(["to", "by"])))]
pub struct DragArgs {
    /// The element to drag (a ref from `bp snapshot`).
    #[arg(value_name = "FROM")]
    pub from: String,
    /// The element to drop it on.
    #[arg(value_name = "TO")]
    pub to: Option<String>,
    /// Drag by a distance in CSS pixels instead (a slider's thumb).
    #[arg(long, value_name = "DX,DY", allow_hyphen_values = true)]
    pub by: Option<String>,
    /// Moves between the press and the release (1 to 50).
    #[arg(long)]
    pub steps: Option<u32>,
    #[command(flatten)]
    pub pace: crate::pace_args::PaceArgs,
}

fn arguments(a: &DragArgs) -> BpResult<Value> {
    let mut args = json!({"from": parse_ref(&a.from)?});
    match (&a.to, &a.by) {
        (Some(t), None) => args["to"] = json!(parse_ref(t)?),
        (None, Some(by)) => {
            let (dx, dy) = parse_pair(by, "a distance")?;
            args["by"] = json!({"dx": dx, "dy": dy});
        }
        _ => return Err(BpError::invalid("name either TO or --by DX,DY")),
    }
    if let Some(n) = a.steps {
        args["steps"] = json!(n);
    }
    a.pace.apply(&mut args);
    Ok(args)
}

pub(crate) async fn drag(s: &mut Session, a: DragArgs) -> BpResult<(Value, String)> {
    let v = s.tool("browser.drag", arguments(&a)?).await?;
    let signals: Vec<&str> = v["signals"]
        .as_array()
        .into_iter()
        .flatten()
        .filter_map(Value::as_str)
        .collect();
    let mut text = format!(
        "dragged [{}] ({}): {}",
        a.from,
        v["route"].as_str().unwrap_or("?"),
        signals.join(", ")
    );
    if let Some(value) = v["value"].as_str() {
        text.push_str(&format!("; value {value}"));
    }
    text.push_str(&crate::pace_args::note(&v["settle"]));
    Ok((v, text))
}
