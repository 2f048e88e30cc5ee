//! A persistent profile of the agent's own (`--profile DIR`): a directory
//! that outlives the browser, so a person signs in once and later
//! launches are signed in. Owner-only (0700), and held by one broker at a
//! time through a lock file inside it that the kernel releases when the
//! holder dies.

use crate::error::{BpError, BpResult, Code};
use serde_json::json;
use std::fs::File;
use std::os::unix::fs::OpenOptionsExt;
use std::os::unix::io::AsRawFd;
use std::path::{Path, PathBuf};

/// The lock file inside a persistent profile.
pub const LOCK_FILE: &str = "bp-broker.lock";

/// The name of the default persistent profile under the home's profiles
/// directory (stale-profile removal only takes `profile-*` entries).
pub const DEFAULT_NAME: &str = "default";

/// Files a browser leaves in its profile that describe the *last* run: a
/// stale `DevToolsActivePort` would name a port that is gone.
const STALE_FILES: &[&str] = &["DevToolsActivePort"];

/// A persistent profile held by this process: the directory and its lock.
#[derive(Debug)]
pub struct HeldProfile {
    pub dir: PathBuf,
    _lock: File,
}

/// Where a `profile` argument points: `default` (or nothing) is
/// `profiles_dir/default`; anything else must be an absolute path.
pub fn resolve(profiles_dir: &Path, arg: Option<&str>) -> BpResult<PathBuf> {
    match arg.map(str::trim) {
        None | Some("") | Some(DEFAULT_NAME) => Ok(profiles_dir.join(DEFAULT_NAME)),
        Some(text) => {
            let path = PathBuf::from(text);
            if !path.is_absolute() {
                return Err(BpError::invalid(format!(
                    "the profile directory must be an absolute path (or `default`), not `{text}`"
                )));
            }
            Ok(path)
        }
    }
}

/// Make `dir` a private directory (created 0700; a symlink or another
/// user's directory is refused), take its lock, and clear what the last
/// run left that would mislead this one. `profile_in_use` while another
/// broker (or launch) holds it.
pub fn hold(dir: &Path) -> BpResult<HeldProfile> {
    crate::system::paths::ensure_private_dir(dir)?;
    let path = dir.join(LOCK_FILE);
    let file = std::fs::OpenOptions::new()
        .create(true)
        .truncate(false)
        .write(true)
        .mode(0o600)
        .custom_flags(libc::O_NOFOLLOW)
        .open(&path)
        .map_err(|e| BpError::internal(format!("cannot open {}: {e}", path.display())))?;
    // SAFETY: flock on a valid descriptor we own.
    let locked = unsafe { libc::flock(file.as_raw_fd(), libc::LOCK_EX | libc::LOCK_NB) } == 0;
    if !locked {
        return Err(BpError::new(
            Code::BrokerInUse,
            format!(
                "the profile {} is in use by another broker or launch",
                dir.display()
            ),
        )
        .with_context(json!({"reason": "profile_in_use", "profile": dir})));
    }
    for name in STALE_FILES {
        let _ = std::fs::remove_file(dir.join(name));
    }
    Ok(HeldProfile {
        dir: dir.to_path_buf(),
        _lock: file,
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::os::unix::fs::PermissionsExt;

    fn scratch(name: &str) -> PathBuf {
        let dir = std::env::temp_dir().join(format!("bp-profile-{name}-{}", std::process::id()));
        let _ = std::fs::remove_dir_all(&dir);
        dir
    }

    #[test]
    fn default_and_absolute_paths_resolve_and_relative_ones_are_refused() {
        let base = Path::new("/h/profiles");
        assert_eq!(resolve(base, None).unwrap(), base.join("default"));
        assert_eq!(
            resolve(base, Some("default")).unwrap(),
            base.join("default")
        );
        assert_eq!(resolve(base, Some("/x/p")).unwrap(), PathBuf::from("/x/p"));
        assert_eq!(
            resolve(base, Some("rel/p")).unwrap_err().code.as_str(),
            "invalid_argument"
        );
    }

    #[test]
    fn a_held_profile_is_private_exclusive_and_free_again_once_dropped() {
        let dir = scratch("hold");
        std::fs::create_dir_all(&dir).unwrap();
        std::fs::set_permissions(&dir, std::fs::Permissions::from_mode(0o755)).unwrap();
        std::fs::write(dir.join("DevToolsActivePort"), "1\n/x\n").unwrap();
        let held = hold(&dir).unwrap();
        let mode = std::fs::metadata(&dir).unwrap().permissions().mode() & 0o777;
        assert_eq!(mode, 0o700);
        assert!(!dir.join("DevToolsActivePort").exists());
        let second = hold(&dir).unwrap_err();
        assert_eq!(second.code.as_str(), "broker_in_use");
        drop(held);
        assert!(hold(&dir).is_ok());
        std::fs::remove_dir_all(&dir).unwrap();
    }

    #[test]
    fn a_symlink_in_place_of_the_profile_is_refused() {
        let dir = scratch("link");
        std::fs::create_dir_all(dir.join("real")).unwrap();
        std::os::unix::fs::symlink(dir.join("real"), dir.join("link")).unwrap();
        assert!(hold(&dir.join("link")).is_err());
        std::fs::remove_dir_all(&dir).unwrap();
    }
}
