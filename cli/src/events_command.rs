//! `bp events`: the event journal of this CLI's workspace (navigations,
//! downloads, dialogs, command status...), once or followed. Following
//! polls from where the last read ended, bounded by `--timeout` or
//! Ctrl-C; each poll is a session of its own, so other `bp` commands of
//! the same workspace run between polls.

use crate::commands::emit;
use crate::session::Session;
use browser_pilot_host::BpResult;
use serde_json::{json, Value};
use std::time::{Duration, Instant};

/// How often a follow reads the journal again.
const FOLLOW_POLL: Duration = Duration::from_millis(250);

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

async fn poll(a: &EventsArgs, cursor: &str) -> BpResult<Value> {
    let mut s = Session::open().await?;
    let ws = s.workspace_id().await?;
    let limit = a.limit.unwrap_or(100);
    s.request(
        "events/poll",
        json!({"workspaceId": ws, "cursor": cursor, "limit": limit}),
    )
    .await
}

/// Print each event of a page (one JSON object a line with `--json`);
/// returns the cursor to read on from.
fn print_events(v: &Value, json: bool, cursor: String) -> String {
    for e in v["events"].as_array().into_iter().flatten() {
        emit(json, e, line);
    }
    v["nextCursor"]
        .as_str()
        .map(str::to_string)
        .unwrap_or(cursor)
}

pub(crate) async fn events(a: EventsArgs, json: bool) -> BpResult<()> {
    let mut cursor = a.since.unwrap_or(0).to_string();
    let deadline = a
        .timeout
        .map(|ms| Instant::now() + Duration::from_millis(ms));
    loop {
        // Everything there is now, page by page.
        loop {
            let v = poll(&a, &cursor).await?;
            cursor = print_events(&v, json, cursor);
            if v["hasMore"] != true {
                break;
            }
        }
        if !a.follow {
            return Ok(());
        }
        let wait = match deadline {
            Some(d) if Instant::now() >= d => return Ok(()),
            Some(d) => FOLLOW_POLL.min(d.saturating_duration_since(Instant::now())),
            None => FOLLOW_POLL,
        };
        tokio::select! {
            _ = tokio::signal::ctrl_c() => return Ok(()),
            () = tokio::time::sleep(wait) => {}
        }
    }
}
