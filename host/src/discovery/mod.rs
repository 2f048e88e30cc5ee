//! Passive discovery of the user's Chromium-family browsers on Linux, and
//! proof of who owns a debugging endpoint.
//!
//! Discovery never touches a browser: no connection, no CDP, no port
//! probing. It reads `/proc` (processes, `net/tcp{,6}`, fd links), the
//! user's home (user-data dirs, `DevToolsActivePort`) and PATH.

pub mod candidate;
pub mod devtools_port;
mod installed;
pub mod ownership;
pub mod procfs;
pub mod products;
mod running;
pub mod sockets;
#[cfg(test)]
mod tests;

pub use candidate::{Authorization, Candidate, Debugging, PortSource};
pub use ownership::{prove_endpoint, Owner};

use procfs::Flags;
use products::Install;
use std::path::{Path, PathBuf};

/// Where discovery looks; tests point it at a fake proc root and home.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Env {
    pub proc_root: PathBuf,
    pub home: PathBuf,
    pub path_dirs: Vec<PathBuf>,
    /// Roots the absolute install paths are looked up under (usually `/`).
    pub install_roots: Vec<PathBuf>,
    /// Only this user's processes and sockets are considered.
    pub uid: u32,
}

impl Env {
    /// The real system: `/proc`, `$HOME`, `$PATH`, `/`, the effective uid.
    pub fn system() -> Env {
        let home = std::env::var_os("HOME")
            .map(PathBuf::from)
            .unwrap_or_else(|| PathBuf::from("/"));
        let path_dirs = std::env::var_os("PATH")
            .map(|p| {
                std::env::split_paths(&p)
                    .filter(|d| d.is_absolute())
                    .collect()
            })
            .unwrap_or_default();
        // SAFETY: geteuid has no preconditions and cannot fail.
        let uid = unsafe { libc::geteuid() };
        Env {
            proc_root: PathBuf::from("/proc"),
            home,
            path_dirs,
            install_roots: vec![PathBuf::from("/")],
            uid,
        }
    }
}

/// Discover browsers on the real system.
pub fn discover() -> Vec<Candidate> {
    discover_in(&Env::system())
}

/// Discover browsers in `env`: one candidate per running browser main
/// process of `env.uid`, then one per installed browser whose default
/// profile is not already listed. Running first, then by product, channel
/// and user-data dir.
pub fn discover_in(env: &Env) -> Vec<Candidate> {
    let mut net = running::Net::new(&env.proc_root);
    let mut out: Vec<Candidate> = Vec::new();
    for proc in procfs::scan(&env.proc_root, env.uid) {
        let flags = procfs::parse_flags(&proc.cmdline);
        if flags.child {
            continue;
        }
        let Some(exe) = proc.exe.as_deref() else {
            continue;
        };
        let Some(m) = products::match_exe(exe) else {
            continue;
        };
        out.push(running::candidate(env, &proc, exe, m, &flags, &mut net));
    }
    for c in installed::candidates(env) {
        if !out.iter().any(|r| r.id == c.id) {
            out.push(c);
        }
    }
    out.sort_by(|a, b| {
        (!a.running, &a.product, &a.channel, &a.user_data_dir, a.pid).cmp(&(
            !b.running,
            &b.product,
            &b.channel,
            &b.user_data_dir,
            b.pid,
        ))
    });
    // Two main processes on one profile only exist for a moment (the
    // second hands over to the first and exits): keep the older.
    out.dedup_by(|later, earlier| later.id == earlier.id);
    out
}

/// The user-data dir a browser main process uses: its `--user-data-dir`
/// (a relative one resolved against the process's cwd), else the
/// product's default. `None` when a relative dir cannot be resolved.
pub(crate) fn user_data_dir_of(
    env: &Env,
    pid: u32,
    flags: &Flags,
    install: &Install,
) -> Option<PathBuf> {
    match flags.user_data_dir.as_deref().map(Path::new) {
        Some(dir) if dir.is_absolute() => Some(dir.to_path_buf()),
        Some(dir) => Some(procfs::cwd(&env.proc_root, pid)?.join(dir)),
        None => Some(install.default_user_data_dir(&env.home)),
    }
}
