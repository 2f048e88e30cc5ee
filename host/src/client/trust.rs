//! What a client checks before it talks to a broker socket: the state
//! directories and the socket as they are on disk (never followed through
//! a symlink), and the process at the other end of the connection, whose
//! uid and pid must be the locator's broker before the first byte is sent.

use crate::broker::connect::locator::Locator;
use crate::error::BpError;
use crate::system::paths::Paths;
use serde_json::json;
use std::fs::Metadata;
use std::os::unix::fs::{FileTypeExt, MetadataExt};
use std::os::unix::io::AsRawFd;
use std::os::unix::net::UnixStream;
use std::path::Path;

/// Why a client did not get a connection it may use.
#[derive(Debug)]
pub enum Untrusted {
    /// No broker to talk to: nothing at the socket path, or something that
    /// is not a live socket (a stale file, a symlink). Starting a broker
    /// replaces it; a symlink's target is never touched.
    Absent(String),
    /// A listener answered, but it is not the broker the locator names
    /// (yet: a broker that has bound its socket may not have written its
    /// locator). Nothing was sent to it.
    Stranger { pid: u32, error: BpError },
    /// The state must not be used as it is; the error says how to fix it.
    Refused(BpError),
}

impl Untrusted {
    /// The error to show when this is final.
    pub fn into_error(self) -> BpError {
        match self {
            Untrusted::Absent(why) => BpError::new(
                crate::error::Code::BrokerNotRunning,
                format!("no broker is running: {why}"),
            ),
            Untrusted::Stranger { error, .. } | Untrusted::Refused(error) => error,
        }
    }
}

/// Connect to the broker socket of `paths`, after checking the state
/// directories and the socket with `lstat`, and the peer's credentials
/// against the locator. The returned stream has carried no bytes.
pub fn connect(paths: &Paths) -> Result<UnixStream, Untrusted> {
    for dir in [&paths.home, &paths.run_dir] {
        check_dir(dir)?;
    }
    check_socket(&paths.socket)?;
    let stream = UnixStream::connect(&paths.socket)
        .map_err(|e| Untrusted::Absent(format!("{}: {e}", paths.socket.display())))?;
    check_peer(&stream, paths)?;
    Ok(stream)
}

fn me() -> u32 {
    // SAFETY: geteuid cannot fail.
    unsafe { libc::geteuid() }
}

fn refused(reason: &str, path: &Path, message: String, remediation: String) -> Untrusted {
    Untrusted::Refused(
        BpError::internal(format!("{message}; nothing was sent to it. {remediation}"))
            .with_context(json!({
                "reason": reason,
                "path": path,
                "remediation": remediation,
            })),
    )
}

fn lstat(path: &Path) -> Result<Option<Metadata>, Untrusted> {
    match std::fs::symlink_metadata(path) {
        Ok(m) => Ok(Some(m)),
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => Ok(None),
        Err(e) => Err(refused(
            "state_unreadable",
            path,
            format!("cannot inspect {}: {e}", path.display()),
            "check the permissions of the state directory".into(),
        )),
    }
}

/// A state directory must be a real directory of ours. A loose mode is
/// left for [`Paths::prepare`] to tighten (what it holds is checked on
/// its own below).
fn check_dir(dir: &Path) -> Result<(), Untrusted> {
    let Some(meta) = lstat(dir)? else {
        return Err(Untrusted::Absent(format!(
            "{} does not exist",
            dir.display()
        )));
    };
    if meta.file_type().is_symlink() {
        return Err(refused(
            "state_symlink",
            dir,
            format!("{} is a symlink (symlinks are refused)", dir.display()),
            format!(
                "remove the link ({}) and run again; a private directory is created in its place",
                dir.display()
            ),
        ));
    }
    if !meta.is_dir() {
        return Err(refused(
            "state_not_directory",
            dir,
            format!("{} is not a directory", dir.display()),
            format!("move {} aside and run again", dir.display()),
        ));
    }
    if meta.uid() != me() {
        return Err(refused(
            "state_foreign_owner",
            dir,
            format!(
                "{} belongs to uid {}, not to you",
                dir.display(),
                meta.uid()
            ),
            "use a BROWSER_PILOT_HOME of your own".into(),
        ));
    }
    Ok(())
}

/// The socket path must hold a socket of ours with mode 0600. Anything
/// else of ours there is replaced when a broker starts; another user's
/// socket is refused.
fn check_socket(socket: &Path) -> Result<(), Untrusted> {
    let Some(meta) = lstat(socket)? else {
        return Err(Untrusted::Absent(format!(
            "{} does not exist",
            socket.display()
        )));
    };
    let kind = meta.file_type();
    if kind.is_symlink() {
        return Err(Untrusted::Absent(format!(
            "{} is a symlink, not followed",
            socket.display()
        )));
    }
    if !kind.is_socket() {
        return Err(Untrusted::Absent(format!(
            "{} is not a socket",
            socket.display()
        )));
    }
    if meta.uid() != me() {
        return Err(refused(
            "socket_foreign_owner",
            socket,
            format!(
                "the broker socket {} belongs to uid {}, not to you",
                socket.display(),
                meta.uid()
            ),
            format!(
                "remove it (rm {}) and make its directory private (chmod 700 {})",
                socket.display(),
                socket.parent().unwrap_or(socket).display()
            ),
        ));
    }
    if meta.mode() & 0o077 != 0 {
        // Ours, but not as a broker makes it (0600): never connected to;
        // starting a broker replaces it.
        return Err(Untrusted::Absent(format!(
            "{} has mode {:o}, not 600, not connected to",
            socket.display(),
            meta.mode() & 0o777
        )));
    }
    Ok(())
}

/// The connected peer's uid and pid (`SO_PEERCRED`).
fn peer_credentials(stream: &UnixStream) -> std::io::Result<(u32, u32)> {
    let mut cred = libc::ucred {
        pid: 0,
        uid: 0,
        gid: 0,
    };
    let mut len = std::mem::size_of::<libc::ucred>() as libc::socklen_t;
    // SAFETY: getsockopt writes at most `len` bytes into `cred`, a valid
    // ucred, on a descriptor we own.
    let rc = unsafe {
        libc::getsockopt(
            stream.as_raw_fd(),
            libc::SOL_SOCKET,
            libc::SO_PEERCRED,
            (&mut cred as *mut libc::ucred).cast(),
            &mut len,
        )
    };
    if rc != 0 {
        return Err(std::io::Error::last_os_error());
    }
    Ok((cred.uid, u32::try_from(cred.pid).unwrap_or(0)))
}

/// The peer must be this user's process, and the one the locator names.
fn check_peer(stream: &UnixStream, paths: &Paths) -> Result<(), Untrusted> {
    let (uid, pid) = peer_credentials(stream).map_err(|e| {
        refused(
            "peer_unknown",
            &paths.socket,
            format!("cannot tell who listens on {}: {e}", paths.socket.display()),
            "stop the broker (kill its process) and run again".into(),
        )
    })?;
    if uid != me() {
        return Err(refused(
            "peer_foreign_owner",
            &paths.socket,
            format!(
                "the process listening on {} (pid {pid}) runs as uid {uid}, not as you",
                paths.socket.display()
            ),
            format!("remove the socket (rm {})", paths.socket.display()),
        ));
    }
    let named = Locator::read(paths).map(|l| l.pid);
    if named == Some(pid) {
        return Ok(());
    }
    let message = match named {
        Some(n) => format!(
            "the process listening on {} (pid {pid}) is not the broker the locator names (pid {n})",
            paths.socket.display()
        ),
        None => format!(
            "the process listening on {} (pid {pid}) is not a broker this home records",
            paths.socket.display()
        ),
    };
    let remediation = format!(
        "stop that process (kill {pid}) or remove the socket (rm {}), then run again",
        paths.socket.display()
    );
    Err(Untrusted::Stranger {
        pid,
        error: BpError::internal(format!("{message}; nothing was sent to it. {remediation}"))
            .with_context(json!({
                "reason": "peer_not_broker",
                "path": paths.socket,
                "pid": pid,
                "remediation": remediation,
            })),
    })
}
