//! `bp dialogs` and `bp dialog accept|dismiss`: the JavaScript dialogs
//! pending in the workspace's tabs. Each returns the protocol result and
//! its line for humans.

use crate::args::DialogCommand;
use crate::session::Session;
use browser_pilot_host::{BpError, BpResult};
use serde_json::{json, Value};

pub(crate) async fn list(s: &mut Session) -> BpResult<(Value, String)> {
    let v = s.tool("browser.dialogs.list", json!({})).await?;
    let lines: Vec<String> = pending(&v)
        .map(|d| {
            format!(
                "{} {} on {}: {}",
                d["dialogId"].as_str().unwrap_or(""),
                d["type"].as_str().unwrap_or(""),
                d["targetId"].as_str().unwrap_or(""),
                serde_json::to_string(&d["message"]).unwrap_or_default()
            )
        })
        .collect();
    let text = if lines.is_empty() {
        "no pending dialogs".to_string()
    } else {
        lines.join("\n")
    };
    Ok((v, text))
}

/// Accept or dismiss a dialog: the one named, or the only one pending.
pub(crate) async fn respond(s: &mut Session, command: DialogCommand) -> BpResult<(Value, String)> {
    let (id, accept, text) = match command {
        DialogCommand::Accept { id, text } => (id, true, text),
        DialogCommand::Dismiss { id } => (id, false, None),
    };
    let id = match id {
        Some(id) => id,
        None => the_only_one(s).await?,
    };
    let mut args = json!({"dialogId": id, "accept": accept});
    if let Some(t) = text {
        args["promptText"] = json!(t);
    }
    let v = s.tool("browser.dialogs.respond", args).await?;
    let line = if accept { "accepted" } else { "dismissed" };
    Ok((v, line.to_string()))
}

async fn the_only_one(s: &mut Session) -> BpResult<String> {
    let v = s.tool("browser.dialogs.list", json!({})).await?;
    let ids: Vec<String> = pending(&v)
        .filter_map(|d| d["dialogId"].as_str().map(str::to_string))
        .collect();
    match ids.as_slice() {
        [one] => Ok(one.clone()),
        [] => Err(BpError::invalid("no pending dialog")),
        _ => Err(BpError::invalid(
            "several dialogs are pending; pass the dialog ID",
        )),
    }
}

fn pending(v: &Value) -> impl Iterator<Item = &Value> {
    v["dialogs"].as_array().into_iter().flatten()
}
