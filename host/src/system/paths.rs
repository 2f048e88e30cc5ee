//! Where the broker keeps its state, and the owner-only permissions on it.

use crate::error::{BpError, BpResult};
use std::os::unix::fs::{MetadataExt, PermissionsExt};
use std::path::{Path, PathBuf};

/// Longest Unix socket path we use directly (sun_path is 108 bytes).
const MAX_SOCKET_PATH: usize = 100;

/// The state layout of one installation.
#[derive(Debug, Clone)]
pub struct Paths {
    /// `BROWSER_PILOT_HOME` or `~/.browser-pilot`.
    pub home: PathBuf,
    /// Directory holding the socket (0700).
    pub run_dir: PathBuf,
    pub socket: PathBuf,
    pub locator: PathBuf,
    pub lock: PathBuf,
    pub log: PathBuf,
    pub profiles: PathBuf,
    pub artifacts: PathBuf,
    /// Private staging for downloads of controlled targets.
    pub downloads: PathBuf,
    pub cache: PathBuf,
    /// The one-shot CLI's workspace resume secret (0600), and the lock
    /// that makes concurrent first commands share one workspace.
    pub cli_session: PathBuf,
    pub cli_session_lock: PathBuf,
}

impl Paths {
    /// Resolve from the environment. `BROWSER_PILOT_HOME` must be absolute.
    pub fn from_env() -> BpResult<Self> {
        let home = match std::env::var_os("BROWSER_PILOT_HOME") {
            Some(h) => {
                let p = PathBuf::from(h);
                if !p.is_absolute() {
                    return Err(BpError::invalid(
                        "BROWSER_PILOT_HOME must be an absolute path",
                    ));
                }
                p
            }
            None => {
                let user_home = std::env::var_os("HOME")
                    .map(PathBuf::from)
                    .ok_or_else(|| BpError::internal("HOME is not set; set BROWSER_PILOT_HOME"))?;
                user_home.join(".browser-pilot")
            }
        };
        Ok(Self::at(home))
    }

    /// The layout under `home`.
    pub fn at(home: PathBuf) -> Self {
        let mut run_dir = home.join("run");
        if run_dir.join("broker.sock").as_os_str().len() > MAX_SOCKET_PATH {
            // Deterministic short fallback owned by this user.
            let digest = crate::ids::hex_digest(home.as_os_str().as_encoded_bytes());
            // SAFETY: getuid cannot fail.
            let uid = unsafe { libc::getuid() };
            run_dir = PathBuf::from(format!("/tmp/bp-{uid}-{}", &digest[..16]));
        }
        Self {
            socket: run_dir.join("broker.sock"),
            locator: home.join("broker.json"),
            lock: home.join("broker.lock"),
            log: home.join("broker.log"),
            profiles: home.join("profiles"),
            artifacts: home.join("artifacts"),
            downloads: home.join("downloads"),
            cache: home.join("cache"),
            cli_session: home.join("cli-session.json"),
            cli_session_lock: home.join("cli-session.lock"),
            run_dir,
            home,
        }
    }

    /// Create the home and run directories owner-only.
    pub fn prepare(&self) -> BpResult<()> {
        ensure_private_dir(&self.home)?;
        ensure_private_dir(&self.run_dir)
    }
}

/// This process's executable.
pub fn current_exe() -> BpResult<PathBuf> {
    std::env::current_exe()
        .map_err(|e| BpError::internal(format!("cannot find this executable: {e}")))
}

/// Create `dir` (and parents) and make sure it is a real directory owned by
/// us with mode 0700. Symlinks and foreign owners are refused.
pub fn ensure_private_dir(dir: &Path) -> BpResult<()> {
    std::fs::create_dir_all(dir)
        .map_err(|e| BpError::internal(format!("cannot create {}: {e}", dir.display())))?;
    let meta = std::fs::symlink_metadata(dir)
        .map_err(|e| BpError::internal(format!("{}: {e}", dir.display())))?;
    if !meta.is_dir() {
        return Err(BpError::internal(format!(
            "{} is not a directory (symlinks are refused)",
            dir.display()
        )));
    }
    // SAFETY: geteuid cannot fail.
    if meta.uid() != unsafe { libc::geteuid() } {
        return Err(BpError::internal(format!(
            "{} belongs to another user",
            dir.display()
        )));
    }
    if meta.mode() & 0o777 != 0o700 {
        std::fs::set_permissions(dir, std::fs::Permissions::from_mode(0o700))
            .map_err(|e| BpError::internal(format!("cannot chmod {}: {e}", dir.display())))?;
    }
    Ok(())
}

/// Write `bytes` to `path` atomically with mode 0600.
pub fn write_private(path: &Path, bytes: &[u8]) -> BpResult<()> {
    use std::io::Write;
    let tmp = path.with_extension(format!("tmp-{}", std::process::id()));
    let err =
        |e: std::io::Error| BpError::internal(format!("cannot write {}: {e}", path.display()));
    let mut f = std::fs::OpenOptions::new()
        .write(true)
        .create(true)
        .truncate(true)
        .mode(0o600)
        .open(&tmp)
        .map_err(err)?;
    f.write_all(bytes).map_err(err)?;
    f.sync_all().map_err(err)?;
    std::fs::rename(&tmp, path).map_err(err)
}

use std::os::unix::fs::OpenOptionsExt;
