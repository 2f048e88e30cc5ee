//! `bp takeover` and `bp window`: hand the current tab to a person
//! (`browser.takeover`) and end that (`bp takeover done`, the
//! `takeover/done` method), and read or set the state of its window
//! (`browser.window`). Return the protocol result and its line for humans.

use crate::session::Session;
use browser_pilot_host::{BpError, BpResult, Code};
use serde_json::{json, Value};

/// `bp takeover REASON [--until-url GLOB | --until-text TEXT] [--timeout MS]`,
/// or `bp takeover done [--id N]`.
#[derive(Debug, clap::Args)]
pub struct TakeoverArgs {
    /// What the person should do (shown in the takeover.requested event),
    /// or `done` to hand the browser back.
    #[arg(value_name = "REASON|done")]
    pub reason: String,
    /// End once the tab's URL matches this glob (* matches any run).
    #[arg(long, value_name = "GLOB", conflicts_with = "until_text")]
    pub until_url: Option<String>,
    /// End once the page shows this text.
    #[arg(long, value_name = "TEXT")]
    pub until_text: Option<String>,
    /// Give up after MS milliseconds (1 to 600000; default 300000).
    #[arg(long, value_name = "MS")]
    pub timeout: Option<u64>,
    /// With `done`: end only this takeover (its takeoverId).
    #[arg(long, value_name = "N")]
    pub id: Option<u64>,
}

/// `bp window [minimized|normal|maximized]`.
#[derive(Debug, clap::Args)]
pub struct WindowArgs {
    /// The state to ask for; without it the window is only read.
    #[arg(value_parser = ["minimized", "normal", "maximized"])]
    pub state: Option<String>,
}

/// Whether the command is `bp takeover done`.
pub(crate) fn is_done(a: &TakeoverArgs) -> bool {
    a.reason == "done" && a.until_url.is_none() && a.until_text.is_none() && a.timeout.is_none()
}

/// `bp takeover done`: end the pending takeover(s).
pub(crate) async fn done(s: &mut Session, a: &TakeoverArgs) -> BpResult<(Value, String)> {
    let params = match a.id {
        Some(id) => json!({"takeoverId": id}),
        None => json!({}),
    };
    let v = s.request("takeover/done", params).await?;
    if let Some(err) = v.get("error") {
        return Err(BpError::from_json(err));
    }
    let v = v.get("result").cloned().unwrap_or(v);
    let n = v["ended"].as_u64().unwrap_or(0);
    let text = match n {
        0 => "no takeover was waiting".to_string(),
        1 => "handed back: 1 takeover ended".to_string(),
        n => format!("handed back: {n} takeovers ended"),
    };
    Ok((v, text))
}

/// `bp takeover REASON ...`: wait for the person. A deadline that passes
/// is the error `timeout` (the result, with `ended: "timeout"`, is in its
/// context).
pub(crate) async fn takeover(s: &mut Session, a: TakeoverArgs) -> BpResult<(Value, String)> {
    if a.id.is_some() {
        return Err(BpError::invalid("--id goes with `bp takeover done`"));
    }
    let mut args = json!({"reason": a.reason});
    if let Some(url) = a.until_url {
        args["until"] = json!({"url": url});
    }
    if let Some(text) = a.until_text {
        args["until"] = json!({"text": text});
    }
    if let Some(ms) = a.timeout {
        args["timeoutMs"] = json!(ms);
    }
    let v = s.tool("browser.takeover", args).await?;
    let waited = v["waitedMs"].as_u64().unwrap_or(0);
    let text = match v["ended"].as_str().unwrap_or("") {
        "done" => format!("the person handed the browser back after {waited} ms"),
        "until" => format!(
            "the page reached the goal after {waited} ms ({})",
            v["url"].as_str().unwrap_or("")
        ),
        "abandoned" => {
            return Err(BpError::new(
                Code::CommandCancelled,
                "the takeover was abandoned: its connection closed",
            )
            .with_context(v))
        }
        _ => {
            return Err(BpError::new(
                Code::Timeout,
                format!("nobody handed the browser back within {waited} ms"),
            )
            .with_context(v))
        }
    };
    Ok((v, text))
}

pub(crate) async fn window(s: &mut Session, a: WindowArgs) -> BpResult<(Value, String)> {
    let args = match &a.state {
        Some(state) => json!({"state": state}),
        None => json!({}),
    };
    let v = s.tool("browser.window", args).await?;
    let w = &v["window"];
    let mut text = format!(
        "window {} is {} ({}x{} at {},{})",
        w["windowId"],
        w["state"].as_str().unwrap_or("?"),
        w["width"],
        w["height"],
        w["left"],
        w["top"]
    );
    if v["applied"] == false {
        text.push_str(&format!(
            "; it did not take the state asked ({})",
            v["asked"].as_str().unwrap_or("?")
        ));
    }
    Ok((v, text))
}
