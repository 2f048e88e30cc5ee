//! `bp console`: the workspace's console messages and page errors
//! (`browser.console`), once or followed. Following polls the journal
//! from where the last read ended, bounded by `--timeout` or Ctrl-C. Each
//! poll is a session of its own, held only for its one call, so other
//! `bp` commands of the same workspace can run between polls.

use crate::commands::emit;
use crate::follow::{self, Journal};
use crate::session::Session;
use browser_pilot_host::BpResult;
use serde_json::{json, Value};

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

/// Where the read `v` says the next read starts (`nextSeq`).
fn next_seq(v: &Value) -> u64 {
    v["nextSeq"].as_u64().unwrap_or(0)
}

/// One read of the journal from `since`, and where the next starts.
async fn read(a: &ConsoleArgs, since: u64) -> BpResult<(Value, u64)> {
    let v = Session::open()
        .await?
        .tool("browser.console", arguments(a, since))
        .await?;
    let next = since.max(next_seq(&v));
    Ok((v, next))
}

pub(crate) async fn console(mut s: Session, a: ConsoleArgs, json: bool) -> BpResult<()> {
    let v = s.tool("browser.console", arguments(&a, 0)).await?;
    drop(s);
    if !a.follow {
        emit(json, &v, human);
        return Ok(());
    }
    let deadline = follow::deadline(a.timeout);
    let journal = Journal {
        items: "messages",
        line,
        json,
    };
    journal.print(&v);
    journal
        .follow(deadline, next_seq(&v), |since| read(&a, since))
        .await
}
