//! Candidates for running browser main processes.

use super::candidate::{candidate_id, same_dir, Authorization, Candidate, Debugging, PortSource};
use super::devtools_port::{self, PortFile};
use super::procfs::{Flags, ProcInfo};
use super::products::ExeMatch;
use super::sockets::{self, Listener};
use super::{user_data_dir_of, Env};
use std::path::{Path, PathBuf};

/// The kernel's TCP tables, each read at most once and only when a port
/// file needs confirming.
pub(super) struct Net<'a> {
    proc_root: &'a Path,
    tables: [Option<Vec<Listener>>; 2],
}

impl<'a> Net<'a> {
    pub(super) fn new(proc_root: &'a Path) -> Self {
        Self {
            proc_root,
            tables: [None, None],
        }
    }

    /// Whether `pid` holds a loopback-reachable LISTEN socket on `port`
    /// (IPv4 first: the IPv6 table is read only if needed).
    fn held_by(&mut self, port: u16, pid: u32) -> bool {
        let root = self.proc_root;
        let mut held: Option<Vec<u64>> = None;
        for (slot, name) in self.tables.iter_mut().zip(sockets::TABLES) {
            let inodes: Vec<u64> = slot
                .get_or_insert_with(|| sockets::read_table(root, name))
                .iter()
                .filter(|l| l.port == port && l.reachable_on_loopback())
                .map(|l| l.inode)
                .collect();
            if inodes.is_empty() {
                continue;
            }
            let held = held.get_or_insert_with(|| sockets::socket_inodes(root, pid));
            if held.iter().any(|i| inodes.contains(i)) {
                return true;
            }
        }
        false
    }
}

/// The candidate for one browser main process.
pub(super) fn candidate(
    env: &Env,
    proc: &ProcInfo,
    exe: &Path,
    m: ExeMatch,
    flags: &Flags,
    net: &mut Net,
) -> Candidate {
    let install = m.install;
    let default_dir = install.default_user_data_dir(&env.home);
    let user_data_dir = user_data_dir_of(env, proc.pid, flags, install)
        .or_else(|| flags.user_data_dir.as_ref().map(PathBuf::from))
        .unwrap_or_else(|| default_dir.clone());
    let default_profile = same_dir(&user_data_dir, &default_dir);
    let port_file = devtools_port::read(&user_data_dir);
    let has_port_file = port_file.is_some();
    let live = port_file.filter(|pf| net.held_by(pf.port, proc.pid));
    let (debugging, authorization) = debugging_state(flags, default_profile, has_port_file, live);
    let mut c = Candidate {
        id: candidate_id(install.product, install.channel, &user_data_dir),
        product: install.product.to_string(),
        channel: install.channel.to_string(),
        executable: exe.to_path_buf(),
        user_data_dir,
        default_profile,
        pid: Some(proc.pid),
        running: true,
        headless: flags.headless || m.headless_shell,
        debugging,
        authorization,
        broker_owned: flags.broker_owned,
        remediation: None,
    };
    c.remediation = remediation(&c, install.display, flags);
    c
}

fn from_file(pf: PortFile, source: PortSource) -> Debugging {
    Debugging::Port {
        port: pf.port,
        ws_path: pf.ws_path,
        source,
    }
}

/// Debugging state from the flags and the profile's port file (`live`
/// when its port is held by this very process).
fn debugging_state(
    flags: &Flags,
    default_profile: bool,
    has_port_file: bool,
    live: Option<PortFile>,
) -> (Debugging, Authorization) {
    use Authorization::*;
    let stale_or = |other: Debugging| {
        if has_port_file {
            Debugging::StalePortFile
        } else {
            other
        }
    };
    match (flags.remote_debugging_port, live) {
        // Ignored for the default profile, but the runtime switch may be on.
        (Some(_), Some(pf)) if default_profile => (from_file(pf, PortSource::PortFile), MayPrompt),
        (Some(port), None) if default_profile => {
            (Debugging::IgnoredDefaultProfile { port }, Unavailable)
        }
        (Some(0), Some(pf)) => (from_file(pf, PortSource::PortFile), NotRequired),
        (Some(0), None) => (stale_or(Debugging::Off), Unavailable),
        (Some(port), live) => {
            let ws_path = live.filter(|pf| pf.port == port).and_then(|pf| pf.ws_path);
            let source = PortSource::Flag;
            (
                Debugging::Port {
                    port,
                    ws_path,
                    source,
                },
                NotRequired,
            )
        }
        (None, Some(pf)) => (from_file(pf, PortSource::PortFile), MayPrompt),
        (None, None) if flags.remote_debugging_pipe => (Debugging::Pipe, Unavailable),
        (None, None) => (stale_or(Debugging::Off), Unavailable),
    }
}

const INSPECT: &str = "on Chrome 144+ turn on chrome://inspect/#remote-debugging";

/// What to do to make `c` attachable: an instruction, or `None` when it
/// is viable or launched by Browser Pilot (which has a note instead, see
/// [`Candidate::note`]).
fn remediation(c: &Candidate, display: &str, flags: &Flags) -> Option<String> {
    if c.broker_owned || c.viable() {
        return None;
    }
    Some(match &c.debugging {
        Debugging::Off if c.default_profile => format!(
            "quit {display} and start it with --remote-debugging-port=0 \
             --user-data-dir=<a separate dir> (since Chrome 136 the flag is ignored \
             for the default profile), or {INSPECT}"
        ),
        Debugging::Off if flags.remote_debugging_port == Some(0) => {
            "retry in a moment: it was started with --remote-debugging-port=0 but \
             has not written DevToolsActivePort yet"
                .into()
        }
        Debugging::Off => format!(
            "quit {display} and start it again with --remote-debugging-port=0 \
             --user-data-dir={}, or {INSPECT}",
            c.user_data_dir.display()
        ),
        Debugging::IgnoredDefaultProfile { .. } => format!(
            "quit {display} and restart it with --user-data-dir=<a separate dir> \
             (--remote-debugging-port is ignored for the default profile since Chrome \
             136), or {INSPECT}"
        ),
        Debugging::Pipe => format!(
            "start {display} with --remote-debugging-port=0 --user-data-dir=<a separate \
             dir> instead of --remote-debugging-pipe (only the pipe's launcher can drive it)"
        ),
        Debugging::StalePortFile => format!(
            "restart {display} with debugging on (its DevToolsActivePort is left from \
             an earlier run)"
        ),
        Debugging::Port { .. } => return None,
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::discovery::candidate::PortSource;

    /// Words a fix may start with: each says what to do.
    const DO: [&str; 6] = ["quit", "start", "restart", "retry", "install", "use"];

    fn candidate(debugging: Debugging, default_profile: bool, broker_owned: bool) -> Candidate {
        Candidate {
            id: "chromium-stable-00000000".into(),
            product: "chromium".into(),
            channel: "stable".into(),
            executable: "/usr/bin/chromium".into(),
            user_data_dir: "/tmp/p".into(),
            default_profile,
            pid: Some(7),
            running: true,
            headless: false,
            debugging,
            authorization: Authorization::Unavailable,
            broker_owned,
            remediation: None,
        }
    }

    /// Every browser that cannot be attached gets a fix that says what to
    /// do; one Browser Pilot launched gets a note and no fix.
    #[test]
    fn every_remediation_is_an_instruction() {
        let states = [
            Debugging::Off,
            Debugging::Pipe,
            Debugging::IgnoredDefaultProfile { port: 9222 },
            Debugging::StalePortFile,
        ];
        let port0 = Flags {
            remote_debugging_port: Some(0),
            ..Flags::default()
        };
        for state in states {
            for default_profile in [false, true] {
                for flags in [&Flags::default(), &port0] {
                    let c = candidate(state.clone(), default_profile, false);
                    let fix = remediation(&c, "Chromium", flags)
                        .unwrap_or_else(|| panic!("no fix for {state:?}"));
                    let first = fix.split_whitespace().next().unwrap_or("");
                    assert!(DO.contains(&first), "not an instruction: {fix}");
                }
            }
        }
        let viable = Debugging::Port {
            port: 9222,
            ws_path: None,
            source: PortSource::Flag,
        };
        let c = candidate(viable.clone(), false, false);
        assert_eq!(remediation(&c, "Chromium", &Flags::default()), None);
        let owned = candidate(viable, false, true);
        assert_eq!(remediation(&owned, "Chromium", &Flags::default()), None);
        assert!(owned.note().is_some());
    }
}
