//! `bp storage get|set|clear`: the web storage of the current tab's origin
//! (`browser.storage.*`), local by default, `--session` for
//! sessionStorage. Returns the protocol result and its lines for humans.

use crate::session::Session;
use browser_pilot_host::BpResult;
use serde_json::{json, Value};

/// `bp storage`: one operation on the current tab's storage.
#[derive(Debug, clap::Subcommand)]
pub enum StorageCommand {
    /// Print one KEY, or every key (at most 500), of the tab's origin.
    Get {
        key: Option<String>,
        /// sessionStorage instead of localStorage.
        #[arg(long)]
        session: bool,
    },
    /// Set KEY to VALUE, and print it read back.
    Set {
        key: String,
        value: String,
        /// sessionStorage instead of localStorage.
        #[arg(long)]
        session: bool,
    },
    /// Remove KEY, or without one every key.
    Clear {
        key: Option<String>,
        /// sessionStorage instead of localStorage.
        #[arg(long)]
        session: bool,
    },
}

fn area(session: bool) -> &'static str {
    if session {
        "session"
    } else {
        "local"
    }
}

/// The lines for humans: the origin and area, then `key=value` per item.
fn lines(v: &Value, verb: &str) -> String {
    let mut out = format!(
        "{verb} {}Storage of {} ({} key(s))",
        v["area"].as_str().unwrap_or("local"),
        v["origin"].as_str().unwrap_or("?"),
        v["total"]
    );
    for item in v["items"].as_array().into_iter().flatten() {
        out.push_str(&format!(
            "\n{}={}{}",
            item["key"].as_str().unwrap_or_default(),
            item["value"].as_str().unwrap_or_default(),
            if item["valueCut"] == true {
                " [cut]"
            } else {
                ""
            }
        ));
    }
    if v["truncated"] == true {
        out.push_str("\n(more keys not shown)");
    }
    out
}

pub(crate) async fn storage(s: &mut Session, c: StorageCommand) -> BpResult<(Value, String)> {
    let (tool, args, verb) = match c {
        StorageCommand::Get { key, session } => {
            let mut a = json!({"area": area(session)});
            if let Some(k) = key {
                a["key"] = json!(k);
            }
            ("browser.storage.get", a, "read")
        }
        StorageCommand::Set {
            key,
            value,
            session,
        } => (
            "browser.storage.set",
            json!({"area": area(session), "key": key, "value": value}),
            "set in",
        ),
        StorageCommand::Clear { key, session } => {
            let mut a = json!({"area": area(session)});
            if let Some(k) = key {
                a["key"] = json!(k);
            }
            ("browser.storage.clear", a, "cleared in")
        }
    };
    let v = s.tool(tool, args).await?;
    let text = lines(&v, verb);
    Ok((v, text))
}
