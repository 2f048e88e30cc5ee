//! `bp state save FILE` and `bp state load FILE`: a signed-in state
//! (cookies and local storage) kept in a file between launched browsers.
//! The file is a secret: created 0600, never over an existing file
//! without `--force`, and its contents are never printed. The broker's
//! copy (an artifact) is released once the command is done with it.

use crate::file_commands::absolute;
use crate::session::Session;
use browser_pilot_host::{BpError, BpResult, Code};
use serde_json::{json, Value};
use std::path::{Path, PathBuf};

/// `bp state`.
#[derive(Debug, clap::Subcommand)]
pub enum StateCommand {
    /// Save this CLI's signed-in state (the browser's cookies and the
    /// localStorage of its tabs' origins) to FILE, created 0600.
    Save {
        file: PathBuf,
        /// Replace FILE if it exists.
        #[arg(long)]
        force: bool,
    },
    /// Load the state in FILE into the connected browser (before opening
    /// the pages that need it).
    Load {
        file: PathBuf,
        /// Allow loading into the user's own browser (asks for the
        /// state.load-user grant); a browser from `bp connect --launch`
        /// needs no grant.
        #[arg(long)]
        into_own_browser: bool,
    },
}

impl StateCommand {
    /// Whether the command needs the `state.load-user` grant asked for.
    pub fn wants_user_grant(&self) -> bool {
        matches!(
            self,
            StateCommand::Load {
                into_own_browser: true,
                ..
            }
        )
    }
}

async fn release(s: &mut Session, id: &Value) {
    let _ = s
        .request("artifacts/release", json!({"artifactId": id}))
        .await;
}

fn origins(v: &Value) -> String {
    let list: Vec<&str> = v["origins"]
        .as_array()
        .into_iter()
        .flatten()
        .filter_map(Value::as_str)
        .collect();
    if list.is_empty() {
        "no origin".to_string()
    } else {
        list.join(", ")
    }
}

async fn save(s: &mut Session, file: &Path, force: bool) -> BpResult<(Value, String)> {
    if !force && std::fs::symlink_metadata(file).is_ok() {
        return Err(BpError::new(
            Code::InvalidArgument,
            format!("{} exists; give --force to replace it", file.display()),
        ));
    }
    let v = s.tool("browser.state.save", json!({})).await?;
    let id = v["artifactId"].clone();
    let exported = s
        .request("artifacts/export", json!({"artifactId": id, "path": file}))
        .await;
    release(s, &id).await;
    exported?;
    let text = format!(
        "saved {} cookie(s) and the local storage of {} to {} (a secret: keep it private)",
        v["cookies"],
        origins(&v),
        file.display()
    );
    Ok((v, text))
}

async fn load(s: &mut Session, file: &Path) -> BpResult<(Value, String)> {
    let ids = s.ids().await?;
    let imported = s
        .request(
            "artifacts/import",
            json!({"workspaceId": ids.0, "leaseId": ids.1, "path": file}),
        )
        .await?;
    let id = imported["artifactId"].clone();
    let loaded = s
        .tool("browser.state.load", json!({"artifactId": id}))
        .await;
    release(s, &id).await;
    let v = loaded?;
    let text = format!(
        "loaded {} cookie(s) and {} local storage item(s) of {}",
        v["cookies"],
        v["items"],
        origins(&v)
    );
    Ok((v, text))
}

pub(crate) async fn state(s: &mut Session, c: StateCommand) -> BpResult<(Value, String)> {
    match c {
        StateCommand::Save { file, force } => save(s, &absolute(file)?, force).await,
        StateCommand::Load { file, .. } => load(s, &absolute(file)?).await,
    }
}
