//! Reading processes from a proc root: uid, ppid, executable, command line,
//! and the browser flags in it. Read-only; never signals a process.

use super::products::strip_deleted;
use std::fs;
use std::path::{Path, PathBuf};

/// One process, as far as discovery needs it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ProcInfo {
    pub pid: u32,
    pub ppid: u32,
    /// Real uid.
    pub ruid: u32,
    /// Effective uid.
    pub euid: u32,
    /// `Name:` from status (the kernel's comm).
    pub name: String,
    /// `/proc/PID/exe`, without a ` (deleted)` suffix.
    pub exe: Option<PathBuf>,
    pub cmdline: Vec<String>,
}

impl ProcInfo {
    /// Real and effective uid are both `uid`.
    pub fn owned_by(&self, uid: u32) -> bool {
        self.ruid == uid && self.euid == uid
    }

    /// The executable's file name, else the comm name.
    pub fn display_name(&self) -> String {
        self.exe
            .as_deref()
            .and_then(Path::file_name)
            .map(|n| n.to_string_lossy().into_owned())
            .unwrap_or_else(|| self.name.clone())
    }
}

/// What `/proc/PID/status` says.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Status {
    pub name: String,
    pub ppid: Option<u32>,
    pub ruid: u32,
    pub euid: u32,
}

impl Status {
    pub fn owned_by(&self, uid: u32) -> bool {
        self.ruid == uid && self.euid == uid
    }
}

/// Every numeric entry of the proc root, ascending.
pub fn pids(proc_root: &Path) -> Vec<u32> {
    let Ok(rd) = fs::read_dir(proc_root) else {
        return Vec::new();
    };
    let mut out: Vec<u32> = rd
        .flatten()
        .filter_map(|e| e.file_name().to_str()?.parse().ok())
        .collect();
    out.sort_unstable();
    out
}

pub fn parse_status(text: &str) -> Option<Status> {
    let mut name = String::new();
    let mut ppid = None;
    let mut uids = None;
    for line in text.lines() {
        let Some((key, value)) = line.split_once(':') else {
            continue;
        };
        match key {
            "Name" => name = value.trim().to_string(),
            "PPid" => ppid = value.trim().parse().ok(),
            "Uid" => {
                let mut it = value.split_whitespace().map(str::parse::<u32>);
                if let (Some(Ok(r)), Some(Ok(e))) = (it.next(), it.next()) {
                    uids = Some((r, e));
                }
            }
            _ => {}
        }
    }
    let (ruid, euid) = uids?;
    Some(Status {
        name,
        ppid,
        ruid,
        euid,
    })
}

/// The ppid from `/proc/PID/stat` (the field after the state, which follows
/// the last `)` since the comm may contain spaces and parentheses).
pub fn parse_stat_ppid(text: &str) -> Option<u32> {
    let rest = &text[text.rfind(')')? + 1..];
    rest.split_whitespace().nth(1)?.parse().ok()
}

/// User plus system CPU time, in clock ticks, from `/proc/PID/stat` (the
/// 12th and 13th fields after the command name, the state being the
/// first).
pub fn parse_stat_cpu_ticks(text: &str) -> Option<u64> {
    let mut fields = text[text.rfind(')')? + 1..].split_whitespace().skip(11);
    let utime: u64 = fields.next()?.parse().ok()?;
    let stime: u64 = fields.next()?.parse().ok()?;
    Some(utime + stime)
}

/// The number a `KEY:` line of `/proc/PID/status` starts with (`VmRSS`
/// in KiB, `voluntary_ctxt_switches` as a count, ...).
pub fn parse_status_number(text: &str, key: &str) -> Option<u64> {
    text.lines()
        .find_map(|l| l.strip_prefix(key)?.strip_prefix(':'))?
        .split_whitespace()
        .next()?
        .parse()
        .ok()
}

pub fn read_status(proc_root: &Path, pid: u32) -> Option<Status> {
    parse_status(&fs::read_to_string(proc_root.join(pid.to_string()).join("status")).ok()?)
}

/// NUL-separated arguments (lossy UTF-8; a trailing NUL ends the last one).
pub fn parse_cmdline(bytes: &[u8]) -> Vec<String> {
    let bytes = bytes.strip_suffix(&[0]).unwrap_or(bytes);
    if bytes.is_empty() {
        return Vec::new();
    }
    bytes
        .split(|b| *b == 0)
        .map(|a| String::from_utf8_lossy(a).into_owned())
        .collect()
}

/// Read one process; `None` when it is gone or unreadable.
pub fn read(proc_root: &Path, pid: u32) -> Option<ProcInfo> {
    let status = read_status(proc_root, pid)?;
    Some(complete(proc_root, pid, status))
}

fn complete(proc_root: &Path, pid: u32, status: Status) -> ProcInfo {
    let dir = proc_root.join(pid.to_string());
    let ppid = status
        .ppid
        .or_else(|| parse_stat_ppid(&fs::read_to_string(dir.join("stat")).ok()?))
        .unwrap_or(0);
    let exe = fs::read_link(dir.join("exe"))
        .ok()
        .map(|p| strip_deleted(&p));
    let cmdline = fs::read(dir.join("cmdline"))
        .map(|b| parse_cmdline(&b))
        .unwrap_or_default();
    ProcInfo {
        pid,
        ppid,
        ruid: status.ruid,
        euid: status.euid,
        name: status.name,
        exe,
        cmdline,
    }
}

/// Every process owned by `uid` (real and effective). Other users'
/// processes are skipped after reading their status only.
pub fn scan(proc_root: &Path, uid: u32) -> Vec<ProcInfo> {
    pids(proc_root)
        .into_iter()
        .filter_map(|pid| {
            let status = read_status(proc_root, pid)?;
            status
                .owned_by(uid)
                .then(|| complete(proc_root, pid, status))
        })
        .collect()
}

/// A process's working directory (to resolve a relative `--user-data-dir`).
pub fn cwd(proc_root: &Path, pid: u32) -> Option<PathBuf> {
    fs::read_link(proc_root.join(pid.to_string()).join("cwd")).ok()
}

/// The browser switches discovery cares about.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Flags {
    /// `--type=...`: a renderer/GPU/utility/zygote child, not the browser.
    pub child: bool,
    pub user_data_dir: Option<String>,
    pub remote_debugging_port: Option<u16>,
    pub remote_debugging_pipe: bool,
    pub headless: bool,
    /// `--bp-broker-owned`: launched by Browser Pilot.
    pub broker_owned: bool,
}

/// The marker argument Browser Pilot adds to browsers it launches.
pub const BROKER_OWNED_FLAG: &str = "--bp-broker-owned";

/// Parse switches the way Chromium does on POSIX (`--` or `-` prefix, a
/// lone `--` ends switches, the last value wins); also accepts
/// `--user-data-dir DIR`.
pub fn parse_flags(args: &[String]) -> Flags {
    let mut f = Flags::default();
    // Chromium rewrites the cmdline of zygote children into one
    // space-joined string.
    if args.iter().any(|a| a.contains(" --type=")) {
        f.child = true;
    }
    let mut i = 1;
    while i < args.len() {
        let arg = args[i].as_str();
        i += 1;
        if arg == "--" {
            break;
        }
        let Some(sw) = arg.strip_prefix("--").or_else(|| arg.strip_prefix('-')) else {
            continue;
        };
        let (name, value) = match sw.split_once('=') {
            Some((n, v)) => (n, Some(v)),
            None => (sw, None),
        };
        match (name, value) {
            ("type", _) => f.child = true,
            ("user-data-dir", Some(v)) => f.user_data_dir = Some(v.to_string()),
            ("user-data-dir", None) => {
                if let Some(next) = args.get(i).filter(|n| !n.starts_with('-')) {
                    f.user_data_dir = Some(next.clone());
                    i += 1;
                }
            }
            ("remote-debugging-port", Some(v)) => f.remote_debugging_port = v.trim().parse().ok(),
            ("remote-debugging-pipe", _) => f.remote_debugging_pipe = true,
            ("headless", _) => f.headless = true,
            ("bp-broker-owned", _) => f.broker_owned = true,
            _ => {}
        }
    }
    f
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn status_numbers_are_read_by_key_and_unit_left_off() {
        let text = "Name:\tbp\nVmRSS:\t   61234 kB\nvoluntary_ctxt_switches:\t17\n";
        assert_eq!(parse_status_number(text, "VmRSS"), Some(61234));
        assert_eq!(
            parse_status_number(text, "voluntary_ctxt_switches"),
            Some(17)
        );
        assert_eq!(parse_status_number(text, "VmHWM"), None);
        assert_eq!(parse_status_number("Vm:\t1\n", "V"), None);
    }

    fn args(s: &[&str]) -> Vec<String> {
        s.iter().map(|a| a.to_string()).collect()
    }

    #[test]
    fn status_and_stat() {
        let s =
            parse_status("Name:\tpython3\nState:\tS\nPPid:\t42\nUid:\t1000\t1001\t1000\t1000\n");
        assert_eq!(
            s,
            Some(Status {
                name: "python3".into(),
                ppid: Some(42),
                ruid: 1000,
                euid: 1001
            })
        );
        assert_eq!(
            parse_stat_ppid("77 (we(ird) name) S 12 77 77 0 -1"),
            Some(12)
        );
        let stat = "77 (we(ird) name) S 12 77 77 0 -1 4194560 100 0 0 0 250 31 0 0 20 0";
        assert_eq!(parse_stat_cpu_ticks(stat), Some(281));
        assert_eq!(parse_stat_cpu_ticks("77 (short) S 12 77"), None);
        assert_eq!(
            parse_cmdline(b"a\0b c\0\0d\0"),
            args(&["a", "b c", "", "d"])
        );
        assert!(parse_cmdline(b"").is_empty());
    }

    #[test]
    fn flags() {
        let f = parse_flags(&args(&[
            "/usr/lib/chromium/chromium",
            "--user-data-dir",
            "/p",
            "--remote-debugging-port=9333",
            "--headless=new",
            "--bp-broker-owned",
        ]));
        assert_eq!(f.user_data_dir.as_deref(), Some("/p"));
        assert_eq!(f.remote_debugging_port, Some(9333));
        assert!(f.headless && f.broker_owned && !f.child && !f.remote_debugging_pipe);
        let f = parse_flags(&args(&[
            "chrome",
            "-user-data-dir=/q",
            "--remote-debugging-pipe",
        ]));
        assert_eq!(f.user_data_dir.as_deref(), Some("/q"));
        assert!(f.remote_debugging_pipe);
        assert!(parse_flags(&args(&["chrome", "--type=renderer"])).child);
        assert!(parse_flags(&args(&["/opt/google/chrome/chrome --type=renderer --x"])).child);
        let f = parse_flags(&args(&[
            "chrome",
            "--",
            "--type=renderer",
            "--remote-debugging-port=x",
        ]));
        assert!(!f.child);
        assert_eq!(
            parse_flags(&args(&["c", "--remote-debugging-port=junk"])).remote_debugging_port,
            None
        );
    }
}
