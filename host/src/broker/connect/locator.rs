//! The versioned locator file that tells clients where the broker is.

use crate::error::BpResult;
use crate::system::paths::{write_private, Paths};
use serde::{Deserialize, Serialize};

/// Locator format version.
pub const LOCATOR_VERSION: u32 = 1;

/// What a running broker records about itself.
#[derive(Debug, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct Locator {
    pub locator_version: u32,
    pub pid: u32,
    pub socket: String,
    pub started_at_ms: u64,
    pub service_version: String,
    pub executable: String,
    pub protocol_min: String,
    pub protocol_max: String,
}

impl Locator {
    /// The locator of the broker running in this process, serving `paths`.
    pub fn for_this_process(paths: &Paths) -> Self {
        Locator {
            locator_version: LOCATOR_VERSION,
            pid: std::process::id(),
            socket: paths.socket.display().to_string(),
            started_at_ms: std::time::SystemTime::now()
                .duration_since(std::time::UNIX_EPOCH)
                .map(|d| d.as_millis() as u64)
                .unwrap_or(0),
            service_version: crate::broker::VERSION.to_string(),
            executable: own_executable(),
            protocol_min: crate::broker::PROTOCOL_MIN.to_string(),
            protocol_max: crate::broker::PROTOCOL_MAX.to_string(),
        }
    }

    pub fn write(&self, paths: &Paths) -> BpResult<()> {
        let text = serde_json::to_vec_pretty(self)
            .map_err(|e| crate::error::BpError::internal(e.to_string()))?;
        write_private(&paths.locator, &text)
    }

    pub fn read(paths: &Paths) -> Option<Self> {
        // Never through a symlink: the locator decides which process a
        // client trusts with its first byte.
        use std::io::Read;
        use std::os::unix::fs::OpenOptionsExt;
        let mut file = std::fs::OpenOptions::new()
            .read(true)
            .custom_flags(libc::O_NOFOLLOW)
            .open(&paths.locator)
            .ok()?;
        let mut text = Vec::new();
        file.read_to_end(&mut text).ok()?;
        serde_json::from_slice(&text).ok()
    }
}

/// This process's executable as it was when the process started: the
/// installation identity the locator records. (Asked later, Linux reports
/// a replaced binary as "PATH (deleted)", which would no longer match.)
pub fn own_executable() -> String {
    static EXE: std::sync::OnceLock<String> = std::sync::OnceLock::new();
    EXE.get_or_init(|| {
        std::env::current_exe()
            .map(|p| p.display().to_string())
            .unwrap_or_default()
    })
    .clone()
}

/// Whether a process with `pid` exists.
pub fn pid_alive(pid: u32) -> bool {
    let Ok(pid) = i32::try_from(pid) else {
        return false;
    };
    // SAFETY: kill with signal 0 only checks for existence.
    let exists = unsafe { libc::kill(pid, 0) == 0 || *libc::__errno_location() == libc::EPERM };
    // A zombie (killed, not yet reaped: a container's init may never reap
    // it) is dead for every purpose here.
    exists && !zombie(pid)
}

/// Whether `pid` is a zombie, from `/proc/PID/stat` (state after the
/// command name in parentheses).
fn zombie(pid: i32) -> bool {
    let Ok(stat) = std::fs::read_to_string(format!("/proc/{pid}/stat")) else {
        return false;
    };
    stat.rsplit_once(')')
        .and_then(|(_, rest)| rest.split_whitespace().next())
        .is_some_and(|state| state == "Z")
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn an_unreaped_exited_process_is_not_alive() {
        let child = std::process::Command::new("true").spawn().unwrap();
        let pid = child.id();
        // Not waited for: once it exits it stays a zombie.
        let deadline = std::time::Instant::now() + std::time::Duration::from_secs(5);
        while pid_alive(pid) {
            assert!(
                std::time::Instant::now() < deadline,
                "a zombie counted as alive"
            );
            std::thread::sleep(std::time::Duration::from_millis(10));
        }
        assert!(pid_alive(std::process::id()));
        drop(child);
    }
}
