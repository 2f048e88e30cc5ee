//! `bp console`: the workspace's console messages and page errors
//! (`browser.console`), once or followed. Following polls the journal
//! from where the last read ended, bounded by `--timeout` or Ctrl-C. Each
//! poll is a session of its own, held only for its one call, so other
//! `bp` commands of the same workspace can run between polls.

use crate::commands::emit;
use crate::session::Session;
use browser_pilot_host::BpResult;
use serde_json::{json, Value};
use std::time::{Duration, Instant};

/// How often a follow reads the journal again.
const FOLLOW_POLL: Duration = Duration::from_millis(250);

/// `bp console [--errors] [--follow [--timeout MS]] [--limit N]`.
#[derive(Debug, clap::Args)]
pub struct ConsoleArgs {
    /// Only errors: console.error calls, uncaught exceptions, failed loads.
    #[arg(long)]
    pub errors: bool,
    /// Keep printing new messages until Ctrl-C (or --timeout).
    #[arg(long)]
    pub follow: bool,
    /// With --follow: stop after MS milliseconds.
    #[arg(long, value_name = "MS", requires = "follow")]
    pub timeout: Option<u64>,
    /// At most N messages per read (1 to 1000, default 100).
    #[arg(long, value_name = "N")]
    pub limit: Option<u32>,
}

/// One message as a line for people: `[seq] level (source): text  url:line`.
fn line(m: &Value) -> String {
    let mut out = format!(
        "[{}] {}{}: {}",
        m["seq"].as_u64().unwrap_or(0),
        m["level"].as_str().unwrap_or("log"),
        match m["source"].as_str() {
            Some("exception") => " (uncaught)",
            Some("browser") => " (browser)",
            _ => "",
        },
        m["text"].as_str().unwrap_or("")
    );
    if let Some(url) = m["url"].as_str() {
        out.push_str(&format!("  {url}"));
        if let Some(l) = m["line"].as_u64() {
            out.push_str(&format!(":{l}"));
        }
    }
    out
}

fn human(v: &Value) -> String {
    let messages = v["messages"].as_array().cloned().unwrap_or_default();
    let mut out: Vec<String> = messages.iter().map(line).collect();
    if messages.is_empty() {
        out.push("no console messages".to_string());
    }
    if let Some(d) = v["dropped"].as_u64().filter(|d| *d > 0) {
        out.push(format!("({d} older messages were dropped)"));
    }
    out.join("\n")
}

fn arguments(a: &ConsoleArgs, since: u64) -> Value {
    let mut args = json!({"sinceSeq": since});
    if a.errors {
        args["levels"] = json!(["error"]);
    }
    if let Some(n) = a.limit {
        args["limit"] = json!(n);
    }
    args
}

pub(crate) async fn console(mut s: Session, a: ConsoleArgs, json: bool) -> BpResult<()> {
    let v = s.tool("browser.console", arguments(&a, 0)).await?;
    drop(s);
    if !a.follow {
        emit(json, &v, human);
        return Ok(());
    }
    let deadline = a
        .timeout
        .map(|ms| Instant::now() + Duration::from_millis(ms));
    let mut next = print_messages(&v, json);
    loop {
        let wait = match deadline {
            Some(d) if Instant::now() >= d => return Ok(()),
            Some(d) => FOLLOW_POLL.min(d.saturating_duration_since(Instant::now())),
            None => FOLLOW_POLL,
        };
        tokio::select! {
            _ = tokio::signal::ctrl_c() => return Ok(()),
            () = tokio::time::sleep(wait) => {}
        }
        let v = Session::open()
            .await?
            .tool("browser.console", arguments(&a, next))
            .await?;
        next = next.max(print_messages(&v, json));
    }
}

/// Print each message of a read (one JSON object a line with `--json`);
/// returns where the next read starts.
fn print_messages(v: &Value, json: bool) -> u64 {
    for m in v["messages"].as_array().into_iter().flatten() {
        emit(json, m, line);
    }
    v["nextSeq"].as_u64().unwrap_or(0)
}
