//! Test support: an isolated BROWSER_PILOT_HOME, a fixture server on
//! 127.0.0.1, and helpers that run the real `bp` executable. Everything
//! started here is stopped in `Drop`, also when a test fails.
#![allow(dead_code)]

pub mod bridge;
pub mod mcp;
pub mod user_browser;

use serde_json::Value;
use std::path::{Path, PathBuf};
use std::process::{Child, Command, Output, Stdio};
use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::OnceLock;
use std::time::{Duration, Instant};

static COUNTER: AtomicUsize = AtomicUsize::new(0);

/// A number unique within this test process.
pub fn unique() -> usize {
    COUNTER.fetch_add(1, Ordering::SeqCst)
}

/// The repository root.
pub fn root() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR"))
        .parent()
        .map(Path::to_path_buf)
        .unwrap_or_default()
}

/// The `bp` executable under test.
pub fn bp_exe() -> PathBuf {
    PathBuf::from(env!("CARGO_BIN_EXE_bp"))
}

/// A loopback port nothing listens on (bound, then closed again).
pub fn free_port() -> u16 {
    let l = std::net::TcpListener::bind("127.0.0.1:0").expect("bind a free port");
    l.local_addr().expect("local addr").port()
}

/// A static file server for `fixtures/pages` on 127.0.0.1.
pub struct FixtureServer {
    child: Child,
    pub port: u16,
}

impl FixtureServer {
    /// Start the server on a port the system picks as it binds (the
    /// server prints it once it listens), so no other process can take
    /// the port between its choice and the bind.
    pub fn start() -> Self {
        Self::start_at(&root().join("fixtures/pages"))
    }

    /// The same server for another directory (a site a test built).
    pub fn start_at(dir: &Path) -> Self {
        use std::io::BufRead;
        let mut child = Command::new("python3")
            .arg(root().join("fixtures/server.py"))
            .arg("0")
            .arg(dir)
            .stdout(Stdio::piped())
            .stderr(Stdio::null())
            .spawn()
            .expect("python3 fixtures/server.py");
        let mut line = String::new();
        if let Some(out) = child.stdout.take() {
            let _ = std::io::BufReader::new(out).read_line(&mut line);
        }
        let Ok(port) = line.trim().parse::<u16>() else {
            let _ = child.kill();
            let _ = child.wait();
            panic!("the fixture server did not start (it printed {line:?})");
        };
        Self { child, port }
    }
}

impl Drop for FixtureServer {
    fn drop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

/// How long a test waits for a condition that should hold "soon": far
/// beyond what a healthy run needs, so only a real failure reaches it.
pub const POLL_LIMIT: Duration = Duration::from_secs(30);

/// Poll `probe` until it yields a value, failing the test (with `what`)
/// if `limit` passes first. Replaces fixed sleeps: a run waits exactly as
/// long as the condition takes, and a condition that never holds turns
/// the test red instead of passing by luck or hanging.
pub fn poll_for<T>(limit: Duration, what: &str, mut probe: impl FnMut() -> Option<T>) -> T {
    let started = Instant::now();
    loop {
        if let Some(v) = probe() {
            return v;
        }
        assert!(
            started.elapsed() < limit,
            "{what}: not within {} s",
            limit.as_secs()
        );
        std::thread::sleep(Duration::from_millis(50));
    }
}

/// [`poll_for`] a condition.
pub fn poll_until(limit: Duration, what: &str, mut cond: impl FnMut() -> bool) {
    poll_for(limit, what, || cond().then_some(()));
}

/// Longest a single `bp` command may take in a test.
pub const RUN_LIMIT: Duration = Duration::from_secs(120);

/// Run `command` to completion with its output captured, killing it (and
/// failing) if it runs longer than `limit`.
pub fn output_within(command: Command, limit: Duration) -> Result<Output, String> {
    io_output_within(command, None, limit).map_err(|e| match e.kind() {
        std::io::ErrorKind::TimedOut => e.to_string(),
        _ => format!("cannot start: {e}"),
    })
}

/// [`output_within`] for a command a test always expects to finish:
/// panics (naming `what`) if it cannot start or runs past `limit`.
pub fn output_bounded(command: Command, what: &str, limit: Duration) -> Output {
    output_within(command, limit).unwrap_or_else(|e| panic!("{what}: {e}"))
}

/// Run `command` with `input` (if any) as its stdin, else no stdin, its
/// output captured, killing it if it runs longer than `limit` (then an
/// error of kind `TimedOut`). A failure to start keeps its own kind (such
/// as `ExecutableFileBusy`), so a caller can retry it.
pub fn io_output_within(
    mut command: Command,
    input: Option<Vec<u8>>,
    limit: Duration,
) -> std::io::Result<Output> {
    use std::io::{Read, Write};
    let stdin = if input.is_some() {
        Stdio::piped()
    } else {
        Stdio::null()
    };
    let mut child = command
        .stdin(stdin)
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()?;
    // Written from a thread of its own: a child that does not read its
    // stdin cannot block the test past its limit.
    if let (Some(mut pipe), Some(bytes)) = (child.stdin.take(), input) {
        std::thread::spawn(move || {
            let _ = pipe.write_all(&bytes);
        });
    }
    let drain = |pipe: Option<Box<dyn Read + Send>>| {
        std::thread::spawn(move || {
            let mut buf = Vec::new();
            if let Some(mut p) = pipe {
                let _ = p.read_to_end(&mut buf);
            }
            buf
        })
    };
    let out = drain(
        child
            .stdout
            .take()
            .map(|p| Box::new(p) as Box<dyn Read + Send>),
    );
    let err = drain(
        child
            .stderr
            .take()
            .map(|p| Box::new(p) as Box<dyn Read + Send>),
    );
    let started = Instant::now();
    let status = loop {
        if let Some(status) = child.try_wait()? {
            break status;
        }
        if started.elapsed() > limit {
            let _ = child.kill();
            let _ = child.wait();
            return Err(std::io::Error::new(
                std::io::ErrorKind::TimedOut,
                format!("did not finish within {} s; killed", limit.as_secs()),
            ));
        }
        std::thread::sleep(Duration::from_millis(5));
    };
    Ok(Output {
        status,
        stdout: out.join().unwrap_or_default(),
        stderr: err.join().unwrap_or_default(),
    })
}

/// Whether `pid` is a `bp broker serve` of this build (so a recorded PID
/// that now belongs to another process is never signalled).
fn is_our_broker(pid: i32) -> bool {
    let exe = std::fs::read_link(format!("/proc/{pid}/exe")).ok();
    let ours = std::fs::canonicalize(bp_exe()).ok();
    let cmdline = std::fs::read(format!("/proc/{pid}/cmdline")).unwrap_or_default();
    let args: Vec<&[u8]> = cmdline.split(|b| *b == 0).collect();
    exe.is_some()
        && exe == ours
        && args.iter().any(|a| *a == b"broker")
        && args.iter().any(|a| *a == b"serve")
}

/// Run `bp ARGS` with `home` as its BROWSER_PILOT_HOME, bounded by
/// [`RUN_LIMIT`].
fn run_in(home: &Path, args: &[&str]) -> Run {
    let mut command = Command::new(bp_exe());
    command.args(args).env("BROWSER_PILOT_HOME", home);
    Run {
        output: output_within(command, RUN_LIMIT).unwrap_or_else(|e| panic!("bp {args:?}: {e}")),
    }
}

/// One isolated installation: its own home, broker and browser.
pub struct Env {
    pub home: PathBuf,
    pub server: FixtureServer,
    extra: Vec<Child>,
}

/// The result of one `bp` run.
pub struct Run {
    pub output: Output,
}

impl Run {
    pub fn ok(&self) -> bool {
        self.output.status.success()
    }
    pub fn stdout(&self) -> String {
        String::from_utf8_lossy(&self.output.stdout).to_string()
    }
    pub fn stderr(&self) -> String {
        String::from_utf8_lossy(&self.output.stderr).to_string()
    }
    /// The stable code of a failed run (`error[code]: ...` on stderr).
    pub fn code(&self) -> String {
        let err = self.stderr();
        err.split("error[")
            .nth(1)
            .and_then(|s| s.split(']').next())
            .unwrap_or("")
            .to_string()
    }
}

impl Env {
    pub fn new() -> Self {
        let n = COUNTER.fetch_add(1, Ordering::SeqCst);
        let home = std::env::temp_dir().join(format!("bp-test-{}-{n}", std::process::id()));
        let _ = std::fs::remove_dir_all(&home);
        std::fs::create_dir_all(&home).expect("create test home");
        Self {
            home,
            server: FixtureServer::start(),
            extra: Vec::new(),
        }
    }

    pub fn url(&self, page: &str) -> String {
        format!("http://127.0.0.1:{}/{page}", self.server.port)
    }

    /// Run `bp ARGS`, bounded: a run that does not finish within
    /// [`RUN_LIMIT`] is killed and fails the test instead of hanging it.
    pub fn run(&self, args: &[&str]) -> Run {
        run_in(&self.home, args)
    }

    /// Run and require success; returns stdout. A failure shows the end
    /// of the broker's log, which the home's removal would otherwise take.
    pub fn ok(&self, args: &[&str]) -> String {
        let r = self.run(args);
        assert!(
            r.ok(),
            "bp {args:?} failed:\nstdout: {}\nstderr: {}\nbroker.log (end):\n{}",
            r.stdout(),
            r.stderr(),
            self.serve_log_tail()
        );
        r.stdout()
    }

    /// `bp tool call NAME --input INPUT`: the tool's result (or, when the
    /// call failed, the whole reply with its error).
    pub fn tool_call(&self, name: &str, input: &Value) -> Value {
        let v = self.json(&["tool", "call", name, "--input", &input.to_string()]);
        v.get("result")
            .cloned()
            .filter(|r| r.is_object())
            .unwrap_or(v)
    }

    /// The names `bp tool list` gives.
    pub fn tool_names(&self) -> Vec<String> {
        let tools = self.json(&["tool", "list"]);
        tools["tools"]
            .as_array()
            .into_iter()
            .flatten()
            .filter_map(|t| t["name"].as_str().map(str::to_string))
            .collect()
    }

    /// Run with `--json` and require success.
    pub fn json(&self, args: &[&str]) -> Value {
        let mut a = args.to_vec();
        a.push("--json");
        let out = self.ok(&a);
        serde_json::from_str(out.trim())
            .unwrap_or_else(|e| panic!("bp {args:?}: not JSON ({e}): {out}"))
    }

    /// Run and require failure; returns the stable code.
    pub fn err(&self, args: &[&str]) -> (String, Run) {
        let r = self.run(args);
        assert!(
            !r.ok(),
            "bp {args:?} unexpectedly succeeded: {}",
            r.stdout()
        );
        (r.code(), r)
    }

    /// Start `bp broker serve EXTRA...` in the background and wait for it.
    pub fn serve(&mut self, extra: &[&str]) {
        let mut args = vec!["broker", "serve"];
        args.extend_from_slice(extra);
        let log = std::fs::File::create(self.home.join("serve.log")).expect("serve log");
        let child = Command::new(bp_exe())
            .args(&args)
            .env("BROWSER_PILOT_HOME", &self.home)
            .stderr(log)
            .spawn()
            .expect("spawn broker");
        self.extra.push(child);
        // Up, or gone (a refused start): either ends the wait at once.
        let (home, extra) = (&self.home, &mut self.extra);
        poll_until(POLL_LIMIT, "broker start", || {
            run_in(home, &["broker", "status"]).ok()
                || extra
                    .last_mut()
                    .is_some_and(|c| c.try_wait().ok().flatten().is_some())
        });
        assert!(
            self.run(&["broker", "status"]).ok(),
            "broker did not start: {}",
            self.serve_log()
        );
    }

    /// The last 40 lines of `broker.log`.
    pub fn serve_log_tail(&self) -> String {
        let log = std::fs::read_to_string(self.home.join("broker.log")).unwrap_or_default();
        let lines: Vec<&str> = log.lines().collect();
        lines[lines.len().saturating_sub(40)..].join("\n")
    }

    pub fn serve_log(&self) -> String {
        std::fs::read_to_string(self.home.join("serve.log")).unwrap_or_default()
    }

    /// Launch a headless browser through the broker.
    pub fn launch(&self) {
        self.ok(&["connect", "--launch", "--headless"]);
    }

    /// `bp open` a fixture page.
    pub fn open(&self, page: &str) -> Value {
        self.json(&["open", &self.url(page)])
    }

    /// Observe and return the JSON observation.
    pub fn snapshot(&self, limit: Option<u32>) -> Value {
        match limit {
            Some(l) => self.json(&["snapshot", "--limit", &l.to_string()]),
            None => self.json(&["snapshot"]),
        }
    }

    pub fn status(&self) -> Value {
        self.json(&["broker", "status"])
    }

    /// The broker's count of CDP commands sent; failing if it is not
    /// reported as a number (never read as a default 0).
    pub fn cdp_commands_sent(&self) -> u64 {
        let status = self.status();
        status["cdpCommandsSent"]
            .as_u64()
            .unwrap_or_else(|| panic!("no numeric cdpCommandsSent: {status}"))
    }

    fn broker_pid(&self) -> Option<i32> {
        let text = std::fs::read_to_string(self.home.join("broker.json")).ok()?;
        let v: Value = serde_json::from_str(&text).ok()?;
        v["pid"].as_i64().and_then(|p| i32::try_from(p).ok())
    }
}

/// The ref of the first element with `role` and `name`.
pub fn find_ref(obs: &Value, role: &str, name: &str) -> String {
    obs["elements"]
        .as_array()
        .into_iter()
        .flatten()
        .find(|e| e["role"] == role && e["name"] == name)
        .map(|e| e["ref"].to_string())
        .unwrap_or_else(|| panic!("no {role} {name:?} in {obs}"))
}

impl Drop for Env {
    fn drop(&mut self) {
        let pid = self.broker_pid();
        let _ = self.run(&["broker", "stop", "--force"]);
        if let Some(pid) = pid {
            // We started this broker; make sure it is gone, but only if
            // the PID is still that broker.
            if is_our_broker(pid) {
                // SAFETY: signalling a process we started (checked above).
                unsafe {
                    libc::kill(pid, libc::SIGKILL);
                }
            }
        }
        for c in &mut self.extra {
            let _ = c.kill();
            let _ = c.wait();
        }
        // A browser killed with its broker may still be flushing its
        // profile: wait until no process runs from this home (bounded; a
        // Drop must not panic), then remove it, retrying briefly.
        let started = Instant::now();
        while started.elapsed() < POLL_LIMIT && runs_from(&self.home) {
            std::thread::sleep(Duration::from_millis(50));
        }
        for _ in 0..50 {
            let _ = std::fs::remove_dir_all(&self.home);
            if !self.home.exists() {
                break;
            }
            std::thread::sleep(Duration::from_millis(100));
        }
    }
}

/// Whether any process's command line names a path inside `dir` (a
/// browser with its profile there, say).
fn runs_from(dir: &Path) -> bool {
    let needle = dir.join("").into_os_string().into_encoded_bytes();
    std::fs::read_dir("/proc")
        .into_iter()
        .flatten()
        .flatten()
        .filter(|e| {
            e.file_name()
                .to_string_lossy()
                .bytes()
                .all(|b| b.is_ascii_digit())
        })
        .any(|e| {
            let cmdline = std::fs::read(e.path().join("cmdline")).unwrap_or_default();
            cmdline
                .windows(needle.len())
                .any(|w| w == needle.as_slice())
        })
}

/// Build the wasm32-wasip2 components of `manifest` (release) into
/// `target`, as a stranger's build would.
pub fn build_components(manifest: &Path, target: &Path) {
    let status = Command::new(std::env::var("CARGO").unwrap_or_else(|_| "cargo".into()))
        .args([
            "build",
            "--release",
            "--target",
            "wasm32-wasip2",
            "--manifest-path",
        ])
        .arg(manifest)
        .env("CARGO_TARGET_DIR", target)
        .env_remove("RUSTFLAGS")
        .env_remove("CARGO_ENCODED_RUSTFLAGS")
        .status()
        .expect("run cargo build for components");
    assert!(status.success(), "{} failed to build", manifest.display());
}

/// Directory with the default components plus the test-only ones, built
/// once per test process.
pub fn components_dir() -> PathBuf {
    static DIR: OnceLock<PathBuf> = OnceLock::new();
    DIR.get_or_init(|| {
        let root = root();
        let target = root.join("target/fixture-components");
        build_components(&root.join("fixtures/components/Cargo.toml"), &target);
        // Inside the target dir, so nothing is left in /tmp; files are
        // written under a temporary name and renamed into place.
        let dir = target.join("test-set");
        std::fs::create_dir_all(&dir).expect("components dir");
        let place = |from: PathBuf, name: String| {
            let tmp = dir.join(format!("{name}.tmp-{}", std::process::id()));
            std::fs::copy(&from, &tmp).unwrap_or_else(|e| panic!("{}: {e}", from.display()));
            std::fs::rename(&tmp, dir.join(name)).expect("rename component");
        };
        for name in ["observe", "input", "navigate", "tabs"] {
            place(
                root.join(format!(
                    "target/tools/wasm32-wasip2/release/bp_tool_{name}.wasm"
                )),
                format!("{name}.wasm"),
            );
        }
        for name in ["loop", "alloc", "denied", "hostile"] {
            place(
                target.join(format!("wasm32-wasip2/release/bp_fixture_{name}.wasm")),
                format!("fixture-{name}.wasm"),
            );
        }
        dir
    })
    .clone()
}

/// Every file and directory under `dir`, recursively.
pub fn walk(dir: &Path) -> Vec<PathBuf> {
    let mut out = Vec::new();
    for e in std::fs::read_dir(dir).into_iter().flatten().flatten() {
        let p = e.path();
        if p.is_dir() {
            out.extend(walk(&p));
        }
        out.push(p);
    }
    out
}

/// One request to the launched browser's DevTools HTTP endpoint, the way
/// a user's tool would (not through the broker); returns the body of a
/// 200 answer.
pub fn devtools_http(env: &Env, method: &str, path: &str) -> String {
    use std::io::{BufRead, BufReader, Read, Write};
    let status = env.json(&["tool", "call", "browser.status"]);
    let endpoint = status["connection"]["endpoint"]
        .as_str()
        .unwrap_or_else(|| panic!("no endpoint in {status}"))
        .to_string();
    let port: u16 = endpoint
        .split("127.0.0.1:")
        .nth(1)
        .and_then(|r| r.split('/').next())
        .and_then(|p| p.parse().ok())
        .unwrap_or_else(|| panic!("no port in {endpoint}"));
    let mut s = std::net::TcpStream::connect(("127.0.0.1", port)).unwrap();
    write!(
        s,
        "{method} {path} HTTP/1.1\r\nHost: 127.0.0.1\r\nConnection: close\r\n\r\n"
    )
    .unwrap();
    // The endpoint may keep the connection open: read by Content-Length.
    s.set_read_timeout(Some(std::time::Duration::from_secs(10)))
        .unwrap();
    let mut r = BufReader::new(s);
    let mut head = String::new();
    r.read_line(&mut head).unwrap();
    assert!(head.starts_with("HTTP/1.1 200"), "{head}");
    let mut length = 0;
    loop {
        let mut line = String::new();
        r.read_line(&mut line).unwrap();
        if line.trim().is_empty() {
            break;
        }
        if let Some((name, value)) = line.split_once(':') {
            if name.eq_ignore_ascii_case("content-length") {
                length = value.trim().parse().unwrap();
            }
        }
    }
    let mut body = vec![0; length];
    r.read_exact(&mut body).unwrap();
    String::from_utf8_lossy(&body).to_string()
}
