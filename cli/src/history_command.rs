//! `bp back`, `bp forward`, `bp reload`: the current tab's history
//! (`browser.navigate` with `action`). Return the protocol result and its
//! line for humans.

use crate::session::Session;
use browser_pilot_host::BpResult;
use serde_json::{json, Value};

/// Go `action` (`back`, `forward` or `reload`) in the current tab, and
/// wait for the page it lands on to load.
pub(crate) async fn history(s: &mut Session, action: &str) -> BpResult<(Value, String)> {
    let v = s
        .tool("browser.navigate", json!({"action": action}))
        .await?;
    let verb = match action {
        "back" => "went back to",
        "forward" => "went forward to",
        _ => "reloaded",
    };
    let text = format!(
        "{verb} {} — {}",
        v["url"].as_str().unwrap_or(""),
        v["title"].as_str().unwrap_or("")
    );
    Ok((v, text))
}
