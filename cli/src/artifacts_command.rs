//! `bp artifacts`: the artifacts of this CLI's workspace (screenshots,
//! PDFs, downloads, imported files), oldest first (`artifacts/list`).

use crate::commands::emit;
use crate::session::Session;
use browser_pilot_host::BpResult;
use serde_json::{json, Value};

/// One artifact as a line for people: `ID kind name size source time`.
fn line(a: &Value) -> String {
    let name = a["filename"]
        .as_str()
        .or_else(|| a["path"].as_str().and_then(|p| p.rsplit('/').next()))
        .unwrap_or("");
    let now = std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)
        .map(|d| d.as_millis() as u64)
        .unwrap_or(0);
    let age = now.saturating_sub(a["createdAt"].as_u64().unwrap_or(now)) / 1000;
    let mut out = format!(
        "{}  {}  {}  {} bytes  {age} s ago",
        a["artifactId"].as_str().unwrap_or(""),
        a["kind"].as_str().unwrap_or(""),
        name,
        a["bytes"].as_u64().unwrap_or(0),
    );
    if let Some(url) = a["sourceUrl"].as_str() {
        out.push_str(&format!("  from {url}"));
    }
    out
}

fn human(v: &Value) -> String {
    let list = v["artifacts"].as_array().cloned().unwrap_or_default();
    if list.is_empty() {
        return "no artifacts".to_string();
    }
    list.iter().map(line).collect::<Vec<_>>().join("\n")
}

pub(crate) async fn artifacts(s: &mut Session, json: bool) -> BpResult<()> {
    let ws = s.workspace_id().await?;
    let v = s
        .request("artifacts/list", json!({"workspaceId": ws}))
        .await?;
    emit(json, &v, human);
    Ok(())
}
