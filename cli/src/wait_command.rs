//! `bp wait`: a bounded wait for one condition (`browser.wait`). Returns
//! the protocol result and its line for humans.

use crate::args::WaitArgs;
use crate::commands::parse_ref;
use crate::session::Session;
use browser_pilot_host::BpResult;
use serde_json::{json, Value};

/// The `browser.wait` arguments of the command line's condition.
fn arguments(w: WaitArgs) -> BpResult<Value> {
    let mut args = json!({});
    if let Some(t) = w.text {
        args["text"] = json!(t);
    }
    if let Some(t) = w.gone {
        args["textGone"] = json!(t);
    }
    if let (Some(r), Some(state)) = (w.reference, w.state) {
        args["ref"] = json!(parse_ref(&r)?);
        args["state"] = json!(state);
    }
    if let Some(u) = w.url {
        args["url"] = json!(u);
    }
    if let Some(r) = w.stable {
        args["ref"] = json!(parse_ref(&r)?);
        args["stable"] = json!(true);
    }
    if let Some(q) = w.quiet {
        args["quietMs"] = json!(q);
    }
    if let Some(t) = w.timeout {
        args["timeoutMs"] = json!(t);
    }
    Ok(args)
}

pub(crate) async fn wait(s: &mut Session, w: WaitArgs) -> BpResult<(Value, String)> {
    let v = s.tool("browser.wait", arguments(w)?).await?;
    let what = match v["condition"].as_str() {
        Some("text") => "the text appeared",
        Some("textGone") => "the text is gone",
        Some("state") => "the element reached its state",
        Some("url") => "the URL matches",
        Some("stable") => "the text is stable",
        _ => "done",
    };
    let text = format!("{what} (waited {} ms)", v["waitedMs"].as_u64().unwrap_or(0));
    Ok((v, text))
}
