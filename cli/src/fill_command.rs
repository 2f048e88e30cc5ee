//! `bp fill REF=VALUE...`: fill several fields of the latest observation
//! in one call (`browser.fill_form`), in order, stopping at the first
//! that fails. Returns the protocol result and its line for humans; a
//! fill that stopped is an error with the failed field's code.

use crate::commands::parse_ref;
use crate::session::Session;
use browser_pilot_host::{BpError, BpResult, Code};
use serde_json::{json, Value};

/// `bp fill REF=VALUE...`.
#[derive(Debug, clap::Args)]
pub struct FillArgs {
    /// `REF=VALUE` pairs, filled in order: text for a text field, an
    /// option label for a select, true/false for a checkbox or radio, a
    /// number for a range input.
    #[arg(value_name = "REF=VALUE", required = true)]
    pub fields: Vec<String>,
    #[command(flatten)]
    pub pace: crate::pace_args::PaceArgs,
}

/// The `fields` of `browser.fill_form` from the command line's pairs.
fn fields(pairs: &[String]) -> BpResult<Value> {
    let mut out = Vec::new();
    for pair in pairs {
        let (r, value) = pair.split_once('=').ok_or_else(|| {
            BpError::invalid(format!(
                "`{pair}` is not REF=VALUE (a ref from `bp snapshot`, then =, then the value)"
            ))
        })?;
        out.push(json!({"ref": parse_ref(r.trim())?, "value": value}));
    }
    Ok(Value::Array(out))
}

/// A stopped fill as the failed field's error: its code, and the whole
/// result (each field's evidence) in the context.
fn stopped(v: &Value) -> BpError {
    let failed = &v["failed"];
    let code = failed["code"]
        .as_str()
        .and_then(Code::parse)
        .unwrap_or(Code::ActionNotVerified);
    let message = format!(
        "filling stopped at field {} (ref {}) after {} filled: {}",
        failed["index"].as_u64().unwrap_or(0) + 1,
        failed["ref"],
        v["filled"].as_u64().unwrap_or(0),
        failed["message"].as_str().unwrap_or("it failed")
    );
    let mut context = json!({"fields": v["fields"], "failed": failed});
    if let Some(reason) = failed.get("reason") {
        context["reason"] = reason.clone();
    }
    BpError::new(code, message).with_context(context)
}

pub(crate) async fn fill(s: &mut Session, a: FillArgs) -> BpResult<(Value, String)> {
    let mut args = json!({"fields": fields(&a.fields)?});
    a.pace.apply(&mut args);
    let v = s.tool("browser.fill_form", args).await?;
    if v["completed"] != true {
        return Err(stopped(&v));
    }
    let text = format!(
        "filled {} field{} (value_matches){}",
        v["filled"],
        if v["filled"] == 1 { "" } else { "s" },
        crate::pace_args::note(&v["evidence"]["settle"])
    );
    Ok((v, text))
}
