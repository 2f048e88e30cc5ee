//! Endpoint ownership proof: before connecting to a loopback debugging
//! port, show from `/proc` alone that a Chromium-family browser of this
//! user holds it (and, when a candidate is given, that it is that one).

use super::candidate::{same_dir, Candidate};
use super::procfs::{self, ProcInfo};
use super::products::{match_exe, ExeMatch};
use super::{sockets, user_data_dir_of, Env};
use crate::error::{BpError, BpResult, Code};
use serde_json::json;
use std::net::IpAddr;
use std::path::PathBuf;

/// The browser main process proven to hold a debugging endpoint.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Owner {
    pub pid: u32,
    pub exe: PathBuf,
    pub product: String,
    pub channel: String,
    pub user_data_dir: Option<PathBuf>,
    /// The address the socket listens on (loopback, or all interfaces).
    pub listen_addr: IpAddr,
}

/// How many `--type=` children may be walked up to the browser process.
const MAX_PARENT_STEPS: usize = 4;

fn refuse(reason: &str, port: u16, message: String) -> BpError {
    BpError::new(Code::BrowserNotFound, message)
        .with_context(json!({ "reason": reason, "port": port }))
}

fn not_browser(port: u16, p: &ProcInfo) -> BpError {
    refuse(
        "endpoint_not_browser",
        port,
        format!(
            "port {port} is held by {} (pid {}), not a Chromium-family browser; \
             refusing to connect",
            p.display_name(),
            p.pid
        ),
    )
}

fn other_user(port: u16, uid: u32) -> BpError {
    refuse(
        "endpoint_other_user",
        port,
        format!("port {port} is held by another user (uid {uid}); refusing to connect"),
    )
}

fn unknown(port: u16, why: &str) -> BpError {
    refuse(
        "endpoint_owner_unknown",
        port,
        format!("port {port} is listening but {why}; refusing to connect"),
    )
}

/// Prove that the loopback listener on `port` belongs to a Chromium-family
/// browser main process of `env.uid` (and to `expected`, when given: same
/// pid when it has one, same user-data dir). Reads only `/proc`.
pub fn prove_endpoint(env: &Env, port: u16, expected: Option<&Candidate>) -> BpResult<Owner> {
    let root = &env.proc_root;
    let Some(listener) = sockets::endpoint_listener(root, port) else {
        return Err(refuse(
            "endpoint_not_listening",
            port,
            format!("nothing listens on loopback port {port}; the browser may have exited or its debugging is off"),
        ));
    };
    if listener.uid != env.uid {
        return Err(other_user(port, listener.uid));
    }
    let preferred: Vec<u32> = expected.and_then(|c| c.pid).into_iter().collect();
    let holder = sockets::find_holder(root, listener.inode, &preferred, env.uid)
        .ok_or_else(|| unknown(port, "no process of this user holds its socket"))?;
    let (main, m) = browser_main(env, port, holder)?;
    let flags = procfs::parse_flags(&main.cmdline);
    let user_data_dir = user_data_dir_of(env, main.pid, &flags, m.install);
    if listener.all_interfaces() {
        tracing::warn!(
            port,
            pid = main.pid,
            "debugging endpoint listens on all interfaces"
        );
    }
    let owner = Owner {
        pid: main.pid,
        exe: main.exe.clone().unwrap_or_default(),
        product: m.install.product.to_string(),
        channel: m.install.channel.to_string(),
        user_data_dir,
        listen_addr: listener.addr,
    };
    if let Some(c) = expected {
        check_expected(port, &owner, c)?;
    }
    Ok(owner)
}

/// The browser main process for the socket holder: the holder itself, or
/// the parent of a `--type=` child (a few steps at most).
fn browser_main(env: &Env, port: u16, holder: u32) -> BpResult<(ProcInfo, ExeMatch)> {
    let gone = || unknown(port, "its holder exited");
    let mut p = procfs::read(&env.proc_root, holder).ok_or_else(gone)?;
    for _ in 0..=MAX_PARENT_STEPS {
        if !p.owned_by(env.uid) {
            return Err(other_user(port, p.euid));
        }
        let m = p
            .exe
            .as_deref()
            .and_then(match_exe)
            .ok_or_else(|| not_browser(port, &p))?;
        if !procfs::parse_flags(&p.cmdline).child {
            return Ok((p, m));
        }
        p = procfs::read(&env.proc_root, p.ppid).ok_or_else(gone)?;
    }
    Err(unknown(port, "its holder has no browser main process"))
}

fn check_expected(port: u16, owner: &Owner, c: &Candidate) -> BpResult<()> {
    let mismatch = |what: String| {
        refuse(
            "endpoint_profile_mismatch",
            port,
            format!(
                "port {port} is held by {} pid {}, {what}; refusing to connect",
                owner.product, owner.pid
            ),
        )
    };
    if let Some(pid) = c.pid.filter(|p| *p != owner.pid) {
        return Err(mismatch(format!("but candidate {} is pid {pid}", c.id)));
    }
    let same = owner
        .user_data_dir
        .as_deref()
        .is_some_and(|d| same_dir(d, &c.user_data_dir));
    if !same {
        let theirs = owner.user_data_dir.as_deref().map_or_else(
            || "an unknown profile".to_string(),
            |d| d.display().to_string(),
        );
        return Err(mismatch(format!(
            "using {theirs}, not candidate {}'s {}",
            c.id,
            c.user_data_dir.display()
        )));
    }
    Ok(())
}
