//! The client never talks to a socket that is not its broker's (issue 41):
//! each test starts from the hostile state itself, with no broker running
//! and no locator written, and a listener of the test's own that records
//! every byte it is sent.
#![allow(clippy::unwrap_used, clippy::expect_used)] // tests may panic

mod support;

use std::io::Read;
use std::os::unix::fs::{MetadataExt, PermissionsExt};
use std::os::unix::net::UnixListener;
use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicBool, AtomicUsize, Ordering};
use std::sync::Arc;
use std::time::Duration;
use support::Env;

/// A Unix listener that is not a broker: it accepts, reads and never
/// answers, counting what reaches it.
struct Spy {
    path: PathBuf,
    bytes: Arc<AtomicUsize>,
    stop: Arc<AtomicBool>,
    thread: Option<std::thread::JoinHandle<()>>,
}

impl Spy {
    fn listen(path: &Path) -> Self {
        let listener = UnixListener::bind(path).unwrap();
        listener.set_nonblocking(true).unwrap();
        let bytes = Arc::new(AtomicUsize::new(0));
        let stop = Arc::new(AtomicBool::new(false));
        let (b, s) = (bytes.clone(), stop.clone());
        let thread = std::thread::spawn(move || {
            let mut conns = Vec::new();
            while !s.load(Ordering::SeqCst) {
                if let Ok((c, _)) = listener.accept() {
                    c.set_nonblocking(true).unwrap();
                    conns.push(c);
                }
                for c in &mut conns {
                    let mut buf = [0u8; 4096];
                    if let Ok(n) = c.read(&mut buf) {
                        b.fetch_add(n, Ordering::SeqCst);
                    }
                }
                std::thread::sleep(Duration::from_millis(5));
            }
        });
        Self {
            path: path.to_path_buf(),
            bytes,
            stop,
            thread: Some(thread),
        }
    }

    fn bytes(&self) -> usize {
        // Give a write already made a fair time to arrive.
        std::thread::sleep(FAIR_WINDOW);
        self.bytes.load(Ordering::SeqCst)
    }
}

impl Drop for Spy {
    fn drop(&mut self) {
        self.stop.store(true, Ordering::SeqCst);
        if let Some(t) = self.thread.take() {
            let _ = t.join();
        }
        let _ = std::fs::remove_file(&self.path);
    }
}

/// How long a listener is given to receive a write the client made.
const FAIR_WINDOW: Duration = Duration::from_secs(1);

fn mode(p: &Path, m: u32) {
    std::fs::set_permissions(p, std::fs::Permissions::from_mode(m)).unwrap();
}

/// The home at `home_mode` with its `run/` at `run_mode`, and nothing
/// else: no broker, no locator. Returns `run/`.
fn bare_state(env: &Env, home_mode: u32, run_mode: u32) -> PathBuf {
    let run = env.home.join("run");
    std::fs::create_dir_all(&run).unwrap();
    mode(&env.home, home_mode);
    mode(&run, run_mode);
    assert!(!env.home.join("broker.json").exists());
    run
}

/// A spy listening at `run/broker.sock` with mode `m`.
fn spy_socket(run: &Path, m: u32) -> (Spy, PathBuf) {
    let sock = run.join("broker.sock");
    let spy = Spy::listen(&sock);
    mode(&sock, m);
    (spy, sock)
}

/// A locator that names this test process (the spy's listener), as a
/// broker's would name the broker, for `run/broker.sock`.
fn locator_naming_this_process(env: &Env, run: &Path) {
    let locator = serde_json::json!({
        "locatorVersion": 1, "pid": std::process::id(), "socket": run.join("broker.sock"),
        "startedAtMs": 0, "serviceVersion": "0", "executable": "/bin/true",
        "protocolMin": "1.0", "protocolMax": "1.0",
    });
    std::fs::write(env.home.join("broker.json"), locator.to_string()).unwrap();
    mode(&env.home.join("broker.json"), 0o600);
}

/// `run/broker.sock` is a symlink to another process's listener outside
/// the home: the client does not connect through it, replaces the link
/// with its own broker's socket and leaves the listener's socket alone.
/// Only the symlink check refuses it: the target is a socket of ours with
/// the broker's mode (0600), and the locator names the listening process,
/// so a client that followed the link would pass every other check and
/// write to the listener.
#[test]
fn a_symlinked_socket_is_never_followed() {
    let env = Env::new();
    let run = bare_state(&env, 0o700, 0o700);
    let elsewhere = std::env::temp_dir().join(format!("bp-spy-{}.sock", std::process::id()));
    let _ = std::fs::remove_file(&elsewhere);
    let spy = Spy::listen(&elsewhere);
    mode(&elsewhere, 0o600);
    std::os::unix::fs::symlink(&elsewhere, run.join("broker.sock")).unwrap();
    locator_naming_this_process(&env, &run);

    let out = env.json(&["tool", "list"]);
    assert!(out.to_string().contains("browser.status"), "{out}");
    assert_eq!(spy.bytes(), 0, "the client wrote to the symlink's listener");
    use std::os::unix::fs::FileTypeExt;
    let link = std::fs::symlink_metadata(run.join("broker.sock")).unwrap();
    assert!(link.file_type().is_socket(), "the link was not replaced");
    let target = std::fs::symlink_metadata(&elsewhere).unwrap();
    assert!(
        target.file_type().is_socket(),
        "the link's target was touched"
    );
}

/// A group-writable home whose `run/` is 0777 and holds a socket owned by
/// another uid: refused with a remediation, nothing sent, nothing removed.
#[test]
fn a_socket_planted_by_another_user_is_refused() {
    let env = Env::new();
    let run = bare_state(&env, 0o770, 0o777);
    let (spy, sock) = spy_socket(&run, 0o777);
    let nobody = 65534;
    std::os::unix::fs::chown(&sock, Some(nobody), Some(nobody)).unwrap();

    let (code, r) = env.err(&["tool", "list"]);
    assert_eq!(code, "internal_error", "{}", r.stderr());
    let err = r.stderr();
    assert!(err.contains("belongs to uid 65534"), "{err}");
    assert!(err.contains("rm "), "no remediation: {err}");
    assert_eq!(spy.bytes(), 0, "the client wrote to the planted socket");
    assert_eq!(std::fs::symlink_metadata(&sock).unwrap().uid(), nobody);
    assert!(!env.home.join("broker.json").exists());
}

/// A listener of the same user at the socket path, with no locator naming
/// it: its peer pid is not a broker's, so the client refuses before
/// writing anything.
#[test]
fn a_listener_the_locator_does_not_name_gets_no_byte() {
    let env = Env::new();
    let run = bare_state(&env, 0o700, 0o700);
    let (spy, sock) = spy_socket(&run, 0o600);

    let (code, r) = env.err(&["tool", "list"]);
    assert_eq!(code, "internal_error", "{}", r.stderr());
    let err = r.stderr();
    let me = std::process::id().to_string();
    assert!(err.contains(&format!("pid {me}")), "{err}");
    assert!(err.contains("nothing was sent"), "{err}");
    assert_eq!(spy.bytes(), 0, "the client wrote to a stranger");
    assert!(sock.exists(), "the stranger's socket was removed");
}

/// The same stranger, with a locator that names some other process: the
/// locator's pid decides, not the socket's path.
#[test]
fn a_listener_with_another_pid_than_the_locator_gets_no_byte() {
    let env = Env::new();
    let run = bare_state(&env, 0o700, 0o700);
    let (spy, sock) = spy_socket(&run, 0o600);
    let locator = serde_json::json!({
        "locatorVersion": 1, "pid": 1, "socket": sock, "startedAtMs": 0,
        "serviceVersion": "0", "executable": "/bin/true",
        "protocolMin": "1.0", "protocolMax": "1.0",
    });
    std::fs::write(env.home.join("broker.json"), locator.to_string()).unwrap();
    mode(&env.home.join("broker.json"), 0o600);

    let (code, r) = env.err(&["tool", "list"]);
    assert_eq!(code, "internal_error", "{}", r.stderr());
    assert!(
        r.stderr().contains("locator names (pid 1)"),
        "{}",
        r.stderr()
    );
    assert_eq!(spy.bytes(), 0, "the client wrote to a stranger");
}

/// A listener at `path` run by uid/gid 65534 (nobody): a child process
/// binds the socket as this user (so the file is ours, mode 0600), drops to
/// nobody, and only then listens, so the peer credentials a client reads
/// are nobody's. It prints `ready`, then one line per connection and per
/// read (`bytes N`). Needs root, as the tests here do (`chown`).
struct ForeignListener {
    child: std::process::Child,
    lines: std::sync::mpsc::Receiver<String>,
}

const FOREIGN_LISTENER: &str = r#"
import os, socket, sys
path = sys.argv[1]
s = socket.socket(socket.AF_UNIX)
s.bind(path)
os.chmod(path, 0o600)
os.setgroups([])
os.setgid(65534)
os.setuid(65534)
s.listen(8)
print("ready", flush=True)
while True:
    c, _ = s.accept()
    print("connection", flush=True)
    c.settimeout(5)
    try:
        while True:
            data = c.recv(4096)
            if not data:
                break
            print("bytes", len(data), flush=True)
    except OSError:
        pass
"#;

impl ForeignListener {
    fn start(path: &Path) -> Self {
        use std::io::BufRead;
        let mut child = std::process::Command::new("python3")
            .args(["-c", FOREIGN_LISTENER])
            .arg(path)
            .stdout(std::process::Stdio::piped())
            .spawn()
            .expect("python3 for the foreign listener");
        let out = child.stdout.take().expect("its stdout");
        let (tx, lines) = std::sync::mpsc::channel();
        std::thread::spawn(move || {
            for line in std::io::BufReader::new(out).lines().map_while(Result::ok) {
                if tx.send(line).is_err() {
                    break;
                }
            }
        });
        let first = lines.recv_timeout(Duration::from_secs(30));
        assert_eq!(
            first.as_deref(),
            Ok("ready"),
            "the foreign listener did not start"
        );
        Self { child, lines }
    }

    /// Bytes it received within a fair window.
    fn bytes(&self) -> usize {
        std::thread::sleep(FAIR_WINDOW);
        self.lines
            .try_iter()
            .filter_map(|l| {
                l.strip_prefix("bytes ")
                    .and_then(|n| n.parse::<usize>().ok())
            })
            .sum()
    }
}

impl Drop for ForeignListener {
    fn drop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

/// A socket file of ours with the broker's mode, whose listening process
/// runs as another uid: the peer-credential check refuses it before the
/// first byte, with a remediation, and removes nothing.
#[test]
fn a_listener_of_another_uid_gets_no_byte() {
    // SAFETY: geteuid cannot fail.
    assert_eq!(
        unsafe { libc::geteuid() },
        0,
        "this test needs root (as chown above does)"
    );
    let env = Env::new();
    let run = bare_state(&env, 0o700, 0o700);
    let sock = run.join("broker.sock");
    let listener = ForeignListener::start(&sock);
    let meta = std::fs::symlink_metadata(&sock).unwrap();
    assert_eq!((meta.uid(), meta.mode() & 0o777), (0, 0o600));

    let (code, r) = env.err(&["tool", "list"]);
    assert_eq!(code, "internal_error", "{}", r.stderr());
    let err = r.stderr();
    assert!(err.contains("runs as uid 65534, not as you"), "{err}");
    assert!(err.contains("rm "), "no remediation: {err}");
    assert_eq!(
        listener.bytes(),
        0,
        "the client wrote to another user's listener"
    );
    assert!(sock.exists(), "the listener's socket was removed");
    assert!(!env.home.join("broker.json").exists());
}
