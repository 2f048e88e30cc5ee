//! The one-shot CLI's workspace resume secret. Each `bp` process is a new
//! connection, so a new principal; the secret, kept owner-only in the
//! state directory, is what lets it take the CLI's workspace back.

use browser_pilot_host::client::FileLock;
use browser_pilot_host::system::paths::{write_private, Paths};
use browser_pilot_host::BpResult;
use serde_json::{json, Value};
use std::io::Read;
use std::os::unix::fs::{MetadataExt, OpenOptionsExt};
use std::time::Duration;

/// How long a first command waits for another one that is opening the
/// CLI's workspace at the same moment.
const LOCK_WAIT: Duration = Duration::from_secs(15);

/// The stored secret, if a readable one is there. The file must be a
/// regular file of this user with no group or other access; anything
/// else is ignored (and replaced after the next initialize).
pub fn load(paths: &Paths) -> Option<String> {
    let mut file = std::fs::OpenOptions::new()
        .read(true)
        .custom_flags(libc::O_NOFOLLOW)
        .open(&paths.cli_session)
        .ok()?;
    let meta = file.metadata().ok()?;
    // SAFETY: getuid cannot fail.
    let uid = unsafe { libc::getuid() };
    if !meta.is_file() || meta.uid() != uid || meta.mode() & 0o077 != 0 || meta.len() > 4096 {
        return None;
    }
    let mut text = String::new();
    file.read_to_string(&mut text).ok()?;
    let v: Value = serde_json::from_str(&text).ok()?;
    v["resumeSecret"].as_str().map(str::to_string)
}

/// Keep the secret the broker gave (mode 0600, written atomically).
pub fn store(paths: &Paths, secret: &str) -> BpResult<()> {
    let body = json!({"resumeSecret": secret}).to_string();
    write_private(&paths.cli_session, body.as_bytes())
}

/// With no stored secret, hold the lock while the first workspace is
/// opened, so CLI commands started together end up in one workspace.
/// Returns the secret (maybe stored meanwhile by the lock's holder) and
/// the lock, if taken.
pub async fn load_or_lock(paths: &Paths) -> BpResult<(Option<String>, Option<FileLock>)> {
    if let Some(s) = load(paths) {
        return Ok((Some(s), None));
    }
    let lock = FileLock::acquire(&paths.cli_session_lock, LOCK_WAIT).await?;
    Ok((load(paths), Some(lock)))
}
