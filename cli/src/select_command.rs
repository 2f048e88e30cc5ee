//! `bp select`: choose options in a select, combobox or listbox by ref
//! (`browser.select`), by visible label (default) or by value. Returns
//! the protocol result and its line for humans.

use crate::commands::parse_ref;
use crate::session::Session;
use browser_pilot_host::BpResult;
use serde_json::{json, Value};

/// `bp select REF VALUE... [--by label|value]`.
#[derive(Debug, clap::Args)]
pub struct SelectArgs {
    /// The select, combobox or listbox (a ref from `bp snapshot`).
    #[arg(value_name = "REF")]
    pub reference: String,
    /// The options to choose: one for a single select, several for a
    /// multiple one (its selection becomes exactly these).
    #[arg(value_name = "VALUE", required = true)]
    pub values: Vec<String>,
    /// Name the options by their visible label (default) or their value.
    #[arg(long, value_parser = ["label", "value"], default_value = "label")]
    pub by: String,
    #[command(flatten)]
    pub pace: crate::pace_args::PaceArgs,
}

/// The `browser.select` arguments of the command line.
fn arguments(a: &SelectArgs) -> BpResult<Value> {
    let key = if a.by == "value" { "values" } else { "labels" };
    let mut args = json!({"ref": parse_ref(&a.reference)?});
    args[key] = json!(a.values);
    a.pace.apply(&mut args);
    Ok(args)
}

/// The line for humans: what is selected now, and the verdict.
fn line(reference: &str, v: &Value) -> String {
    let labels: Vec<String> = v["selected"]
        .as_array()
        .into_iter()
        .flatten()
        .map(|c| format!("\"{}\"", c["label"].as_str().unwrap_or_default()))
        .collect();
    let shown = if labels.is_empty() {
        "nothing".to_string()
    } else {
        labels.join(", ")
    };
    format!(
        "selected in [{reference}]: {shown} ({})",
        v["evidence"]["verdict"].as_str().unwrap_or("unverified")
    )
}

pub(crate) async fn select(s: &mut Session, a: SelectArgs) -> BpResult<(Value, String)> {
    let v = s.tool("browser.select", arguments(&a)?).await?;
    let text = line(&a.reference, &v) + &crate::pace_args::note(&v["evidence"]["settle"]);
    Ok((v, text))
}
