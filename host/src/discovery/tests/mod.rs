//! Discovery and ownership against a fake proc root and a temp home, plus
//! one check against the real system.

use super::candidate::same_dir;
use super::*;
use std::fs;
use std::os::unix::fs::{symlink, PermissionsExt};
use std::sync::atomic::{AtomicU32, Ordering};

const UID: u32 = 1000;

/// A fake `/proc`, home, install root and PATH dir, removed on drop.
struct Fake {
    root: PathBuf,
    env: Env,
}

impl Fake {
    fn new() -> Fake {
        static N: AtomicU32 = AtomicU32::new(0);
        let root = std::env::temp_dir().join(format!(
            "bp-discovery-{}-{}",
            std::process::id(),
            N.fetch_add(1, Ordering::Relaxed)
        ));
        let _ = fs::remove_dir_all(&root);
        for d in ["proc/net", "home/.config", "inst", "bin"] {
            fs::create_dir_all(root.join(d)).unwrap();
        }
        let env = Env {
            proc_root: root.join("proc"),
            home: root.join("home"),
            path_dirs: vec![root.join("bin")],
            install_roots: vec![root.join("inst")],
            uid: UID,
        };
        let f = Fake { root, env };
        f.tcp("");
        f.tcp6("");
        f
    }

    fn home(&self, rel: &str) -> PathBuf {
        self.env.home.join(rel)
    }

    /// A process of `uid` running `exe` with `args` (argv[0] is `exe`).
    fn proc(&self, pid: u32, uid: u32, ppid: u32, exe: &str, args: &[&str]) {
        let dir = self.env.proc_root.join(pid.to_string());
        fs::create_dir_all(dir.join("fd")).unwrap();
        let name: String = Path::new(exe)
            .file_name()
            .unwrap()
            .to_string_lossy()
            .chars()
            .take(15)
            .collect();
        fs::write(
            dir.join("status"),
            format!("Name:\t{name}\nState:\tS (sleeping)\nTgid:\t{pid}\nPid:\t{pid}\nPPid:\t{ppid}\nUid:\t{uid}\t{uid}\t{uid}\t{uid}\nGid:\t{uid}\t{uid}\t{uid}\t{uid}\n"),
        )
        .unwrap();
        fs::write(
            dir.join("stat"),
            format!("{pid} ({name}) S {ppid} {pid} {pid} 0 -1 4194560"),
        )
        .unwrap();
        let mut cmdline = Vec::new();
        for a in std::iter::once(&exe).chain(args) {
            cmdline.extend_from_slice(a.as_bytes());
            cmdline.push(0);
        }
        fs::write(dir.join("cmdline"), cmdline).unwrap();
        symlink(exe, dir.join("exe")).unwrap();
        symlink(&self.env.home, dir.join("cwd")).unwrap();
    }

    fn socket(&self, pid: u32, fd: u32, inode: u64) {
        let link = self.env.proc_root.join(format!("{pid}/fd/{fd}"));
        symlink(format!("socket:[{inode}]"), link).unwrap();
    }

    fn tcp(&self, rows: &str) {
        let head = "  sl  local_address rem_address   st tx_queue rx_queue tr tm->when retrnsmt   uid  timeout inode\n";
        fs::write(self.env.proc_root.join("net/tcp"), format!("{head}{rows}")).unwrap();
    }

    fn tcp6(&self, rows: &str) {
        let head = "  sl  local_address                         remote_address                        st tx_queue rx_queue tr tm->when retrnsmt   uid  timeout inode\n";
        fs::write(self.env.proc_root.join("net/tcp6"), format!("{head}{rows}")).unwrap();
    }

    /// A user-data dir under home, with a DevToolsActivePort if given.
    fn profile(&self, rel: &str, port_file: Option<&str>) -> PathBuf {
        let dir = self.home(rel);
        fs::create_dir_all(&dir).unwrap();
        if let Some(text) = port_file {
            fs::write(dir.join("DevToolsActivePort"), text).unwrap();
        }
        dir
    }

    fn executable(&self, path: &Path) {
        fs::create_dir_all(path.parent().unwrap()).unwrap();
        fs::write(path, "#!/bin/sh\n").unwrap();
        fs::set_permissions(path, fs::Permissions::from_mode(0o755)).unwrap();
    }
}

impl Drop for Fake {
    fn drop(&mut self) {
        let _ = fs::remove_dir_all(&self.root);
    }
}

/// A LISTEN row of `/proc/net/tcp` for 127.0.0.1:port.
fn v4_row(port: u16, uid: u32, inode: u64) -> String {
    format!("   0: 0100007F:{port:04X} 00000000:0000 0A 00000000:00000000 00:00000000 00000000  {uid:>4}        0 {inode} 1 0000000000000000 100 0 0 10 0\n")
}

/// A LISTEN row of `/proc/net/tcp6` for [::1]:port.
fn v6_row(port: u16, uid: u32, inode: u64) -> String {
    format!("   0: 00000000000000000000000001000000:{port:04X} 00000000000000000000000000000000:0000 0A 00000000:00000000 00:00000000 00000000  {uid:>4}        0 {inode} 1 0000000000000000 100 0 0 10 0\n")
}

const WS: &str = "/devtools/browser/0b6c5e7d-1f0e-4f4a-9d7e-2a1c3b4d5e6f";
const CHROMIUM: &str = "/usr/lib/chromium/chromium";
const CHROME: &str = "/opt/google/chrome/chrome";

fn reason(e: &BpError) -> String {
    assert_eq!(e.code, Code::BrowserNotFound, "{e}");
    e.context.as_ref().unwrap()["reason"]
        .as_str()
        .unwrap()
        .to_string()
}

use crate::error::{BpError, Code};

fn one(f: &Fake) -> Candidate {
    let all = discover_in(&f.env);
    let running: Vec<_> = all.into_iter().filter(|c| c.running).collect();
    assert_eq!(running.len(), 1, "{running:#?}");
    running.into_iter().next().unwrap()
}

#[test]
fn flag_launched_custom_profile_is_viable() {
    let f = Fake::new();
    let p = f.profile("work", Some(&format!("9333\n{WS}\n")));
    let udd = format!("--user-data-dir={}", p.display());
    f.proc(
        100,
        UID,
        1,
        CHROMIUM,
        &[&udd, "--remote-debugging-port=9333"],
    );
    f.proc(101, UID, 100, CHROMIUM, &["--type=zygote"]);
    f.proc(102, UID, 101, CHROMIUM, &["--type=renderer", &udd]);
    f.socket(100, 3, 12345);
    f.tcp(&v4_row(9333, UID, 12345));
    let c = one(&f);
    assert_eq!(
        (c.product.as_str(), c.channel.as_str()),
        ("chromium", "stable")
    );
    assert_eq!(c.pid, Some(100));
    assert!(c.viable() && !c.default_profile && !c.headless);
    assert_eq!(c.authorization, Authorization::NotRequired);
    assert_eq!(
        c.ws_url("127.0.0.1").unwrap(),
        format!("ws://127.0.0.1:9333{WS}")
    );
    assert!(
        c.id.starts_with("chromium-stable-") && c.id.len() == 24,
        "{}",
        c.id
    );
    let j = c.to_json();
    assert_eq!(j["debugging"]["state"], "on");
    assert_eq!(j["debugging"]["source"], "flag");
    assert_eq!(j["authorization"], "not_required");
    assert_eq!(j["viable"], true);
    assert!(j["remediation"].is_null());

    // Ownership: the candidate's own endpoint.
    let o = prove_endpoint(&f.env, 9333, Some(&c)).unwrap();
    assert_eq!((o.pid, o.product.as_str()), (100, "chromium"));
    assert_eq!(o.exe, Path::new(CHROMIUM));
    assert_eq!(o.listen_addr.to_string(), "127.0.0.1");
    // The renderer holding the socket walks up to the browser.
    fs::remove_file(f.env.proc_root.join("100/fd/3")).unwrap();
    f.socket(102, 7, 12345);
    assert_eq!(prove_endpoint(&f.env, 9333, None).unwrap().pid, 100);
}

#[test]
fn port_zero_reads_the_port_file() {
    let f = Fake::new();
    let p = f.profile("p0", Some(&format!("38421\n{WS}\n")));
    f.proc(
        200,
        UID,
        1,
        CHROME,
        &[
            "--remote-debugging-port=0",
            "--user-data-dir",
            p.to_str().unwrap(),
            "--headless=new",
        ],
    );
    f.socket(200, 5, 777);
    f.tcp(&v4_row(38421, UID, 777));
    let c = one(&f);
    assert_eq!(c.product, "chrome");
    assert!(c.viable() && c.headless);
    assert_eq!(c.endpoint_port(), Some(38421));
    assert_eq!(c.authorization, Authorization::NotRequired);
    assert_eq!(c.to_json()["debugging"]["source"], "port_file");
    assert_eq!(c.user_data_dir, p);
}

#[test]
fn port_file_without_flag_may_prompt() {
    let f = Fake::new();
    f.profile(".config/google-chrome", Some(&format!("9222\n{WS}\n")));
    f.proc(300, UID, 1, CHROME, &[]);
    f.socket(300, 9, 900);
    f.tcp(&v4_row(9222, UID, 900));
    let c = one(&f);
    assert!(c.default_profile && c.viable());
    assert_eq!(c.authorization, Authorization::MayPrompt);
    assert_eq!(c.to_json()["authorization"], "may_prompt");
    assert_eq!(
        c.ws_url("127.0.0.1").unwrap(),
        format!("ws://127.0.0.1:9222{WS}")
    );
}

#[test]
fn flag_on_default_profile_is_ignored() {
    let f = Fake::new();
    f.profile(".config/chromium", None);
    f.proc(400, UID, 1, CHROMIUM, &["--remote-debugging-port=9222"]);
    let c = one(&f);
    assert_eq!(c.debugging, Debugging::IgnoredDefaultProfile { port: 9222 });
    assert!(!c.viable() && c.default_profile);
    assert_eq!(c.to_json()["debugging"]["state"], "ignored_default_profile");
    assert!(c
        .remediation
        .unwrap()
        .contains("ignored for the default profile"));
}

#[test]
fn stale_port_file() {
    let f = Fake::new();
    f.profile(
        ".config/google-chrome",
        Some("9555\n/devtools/browser/old\n"),
    );
    f.proc(500, UID, 1, CHROME, &[]);
    // Someone else listens on the old port; the browser holds nothing.
    f.proc(501, UID, 1, "/usr/bin/python3", &["-m", "http.server"]);
    f.socket(501, 3, 5501);
    f.tcp(&v4_row(9555, UID, 5501));
    let c = one(&f);
    assert_eq!(c.debugging, Debugging::StalePortFile);
    assert_eq!(c.authorization, Authorization::Unavailable);
    assert!(c.remediation.unwrap().contains("earlier run"));
}

#[test]
fn children_other_users_and_non_browsers_are_not_listed() {
    let f = Fake::new();
    f.proc(600, UID, 1, CHROME, &["--type=renderer"]);
    f.proc(
        601,
        UID,
        1,
        CHROME,
        &["/opt/google/chrome/chrome --type=gpu-process --foo"],
    );
    f.proc(
        602,
        1001,
        1,
        CHROME,
        &["--user-data-dir=/tmp/x", "--remote-debugging-port=9222"],
    );
    f.proc(603, UID, 1, "/usr/bin/python3", &[]);
    f.proc(
        604,
        UID,
        1,
        "/opt/google/chrome/chrome_crashpad_handler",
        &[],
    );
    assert!(discover_in(&f.env).iter().all(|c| !c.running));
}

#[test]
fn broker_owned_and_pipe() {
    let f = Fake::new();
    let a = f.profile("a", Some(&format!("9400\n{WS}\n")));
    let b = f.profile("b", None);
    f.proc(
        700,
        UID,
        1,
        CHROMIUM,
        &[
            &format!("--user-data-dir={}", a.display()),
            "--remote-debugging-port=9400",
            "--bp-broker-owned",
        ],
    );
    f.proc(
        701,
        UID,
        1,
        CHROMIUM,
        &[
            &format!("--user-data-dir={}", b.display()),
            "--remote-debugging-pipe",
        ],
    );
    let all = discover_in(&f.env);
    assert_eq!(all.len(), 2);
    assert_eq!(all[0].user_data_dir, a);
    assert!(all[0].broker_owned && !all[0].viable());
    // A note, not a fix: there is nothing to do about it.
    assert_eq!(all[0].remediation, None);
    assert_eq!(
        all[0].note(),
        Some("launched by Browser Pilot for another client")
    );
    assert_eq!(
        all[0].to_json()["note"],
        "launched by Browser Pilot for another client"
    );
    assert_eq!(all[0].to_json()["brokerOwned"], true);
    assert_eq!(all[1].debugging, Debugging::Pipe);
    assert_eq!(all[1].to_json()["debugging"]["state"], "pipe");
    assert!(all[1]
        .remediation
        .as_deref()
        .unwrap()
        .contains("--remote-debugging-pipe"));
}

#[test]
fn installed_browsers_and_sort_order() {
    let f = Fake::new();
    f.executable(&f.root.join("inst/opt/google/chrome-beta/chrome"));
    f.executable(&f.root.join("inst/opt/microsoft/msedge/msedge"));
    // Two PATH launchers for the same installation: one candidate.
    let real = f.root.join("inst/opt/brave.com/brave/brave-browser");
    f.executable(&real);
    symlink(&real, f.root.join("bin/brave-browser")).unwrap();
    symlink(&real, f.root.join("bin/brave-browser-stable")).unwrap();
    f.executable(&f.root.join("bin/chromium"));
    // Edge is also running on its default profile with debugging off.
    f.profile(".config/microsoft-edge", None);
    f.proc(800, UID, 1, "/opt/microsoft/msedge/msedge", &[]);
    let all = discover_in(&f.env);
    let keys: Vec<_> = all
        .iter()
        .map(|c| (c.running, c.product.as_str(), c.channel.as_str()))
        .collect();
    assert_eq!(
        keys,
        [
            (true, "edge", "stable"),
            (false, "brave", "stable"),
            (false, "chrome", "beta"),
            (false, "chromium", "stable"),
        ]
    );
    let edge = &all[0];
    assert_eq!(edge.debugging, Debugging::Off);
    assert!(edge
        .remediation
        .as_deref()
        .unwrap()
        .starts_with("quit Microsoft Edge and start it with --remote-debugging-port=0"));
    let beta = &all[2];
    assert_eq!(beta.pid, None);
    assert_eq!(beta.user_data_dir, f.home(".config/google-chrome-beta"));
    assert_eq!(
        beta.executable,
        f.root.join("inst/opt/google/chrome-beta/chrome")
    );
    assert_eq!(beta.to_json()["debugging"]["state"], "off");
    assert_eq!(beta.authorization, Authorization::Unavailable);
    assert!(beta.remediation.as_deref().unwrap().starts_with("start "));
    assert_eq!(all[1].executable, f.root.join("bin/brave-browser"));
    assert_eq!(discover_in(&f.env), all, "deterministic");
}

mod ownership;
