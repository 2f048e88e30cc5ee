//! `bp events`: the event journal of this CLI's workspace (navigations,
//! downloads, dialogs, command status...), once or followed. Following
//! polls from where the last read ended, bounded by `--timeout` or
//! Ctrl-C; each poll is a session of its own, so other `bp` commands of
//! the same workspace run between polls.

use crate::follow::{self, Journal};
use crate::session::Session;
use browser_pilot_host::BpResult;
use serde_json::{json, Value};

/// `bp events [--since SEQ] [--follow [--timeout MS]] [--limit N]`.
#[derive(Debug, clap::Args)]
pub struct EventsArgs {
    /// Only events after this sequence number (default: all kept).
    #[arg(long, value_name = "SEQ")]
    pub since: Option<u64>,
    /// Keep printing new events until Ctrl-C (or --timeout).
    #[arg(long)]
    pub follow: bool,
    /// With --follow: stop after MS milliseconds.
    #[arg(long, value_name = "MS", requires = "follow")]
    pub timeout: Option<u64>,
    /// At most N events per read (1 to 500, default 100).
    #[arg(long, value_name = "N")]
    pub limit: Option<u32>,
}

/// One event as a line for people: `[seq] type target payload`.
fn line(e: &Value) -> String {
    let mut out = format!(
        "[{}] {}",
        e["seq"].as_u64().unwrap_or(0),
        e["type"].as_str().unwrap_or("")
    );
    if let Some(t) = e["targetId"].as_str() {
        out.push_str(&format!(" {t}"));
    }
    if e["payload"].as_object().is_some_and(|p| !p.is_empty()) {
        out.push_str(&format!(" {}", e["payload"]));
    }
    out
}

/// One page of the journal from `cursor`, and the cursor to read on from.
async fn poll(a: &EventsArgs, cursor: String) -> BpResult<(Value, String)> {
    let mut s = Session::open().await?;
    let ws = s.workspace_id().await?;
    let limit = a.limit.unwrap_or(100);
    let v = s
        .request(
            "events/poll",
            json!({"workspaceId": ws, "cursor": cursor, "limit": limit}),
        )
        .await?;
    let next = v["nextCursor"]
        .as_str()
        .map(str::to_string)
        .unwrap_or(cursor);
    Ok((v, next))
}

pub(crate) async fn events(a: EventsArgs, json: bool) -> BpResult<()> {
    let deadline = follow::deadline(a.timeout);
    let journal = Journal {
        items: "events",
        line,
        json,
    };
    let mut fetch = |cursor| poll(&a, cursor);
    let cursor = a.since.unwrap_or(0).to_string();
    // Everything there is now, page by page.
    let cursor = journal.drain(cursor, &mut fetch).await?;
    if !a.follow {
        return Ok(());
    }
    journal.follow(deadline, cursor, fetch).await
}
