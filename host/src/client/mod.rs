//! A JSON-RPC client of the broker socket, and the startup protocol that
//! makes concurrent invocations start exactly one broker.

mod trust;

pub use trust::{connect as connect_stream, Untrusted};

use crate::broker::connect::locator::{pid_alive, Locator};
use crate::error::{BpError, BpResult};
use crate::system::paths::Paths;
use serde_json::{json, Value};
use std::os::unix::fs::OpenOptionsExt;
use std::os::unix::io::AsRawFd;
use std::path::Path;
use std::time::{Duration, Instant};
use tokio::io::{AsyncBufReadExt, AsyncWriteExt, BufReader};
use tokio::net::UnixStream as Stream;

/// How long a client waits for a new broker to become ready.
const START_TIMEOUT: Duration = Duration::from_secs(20);
/// How long a client waits for a stopping broker's process to end.
const STOP_WAIT: Duration = Duration::from_secs(5);
/// The context reason of a connection the broker closed before answering.
const CONNECTION_CLOSED: &str = "connection_closed";

/// Whether `e` says the broker closed the connection before answering (a
/// broker that was stopping when the connection was made does that).
pub fn closed_before_answer(e: &BpError) -> bool {
    e.context
        .as_ref()
        .is_some_and(|c| c["reason"] == CONNECTION_CLOSED)
}

/// Wait (bounded) for the locator's broker process to end, when it is a
/// broker that no longer answers: one that is stopping. Returns whether
/// no such process is left.
pub async fn wait_for_stopping_broker(paths: &Paths) -> bool {
    let Some(loc) = Locator::read(paths) else {
        return true;
    };
    if loc.pid == std::process::id() {
        return false;
    }
    let started = Instant::now();
    while is_broker_process(loc.pid) {
        if started.elapsed() > STOP_WAIT {
            return false;
        }
        tokio::time::sleep(Duration::from_millis(20)).await;
    }
    true
}

/// A connection to the broker.
pub struct Client {
    reader: BufReader<Stream>,
    next_id: u64,
}

impl Client {
    /// Connect and health-check an existing broker.
    pub async fn connect(paths: &Paths) -> BpResult<Self> {
        let mut client = Self::open(paths).await?;
        tokio::time::timeout(
            Duration::from_secs(5),
            client.request("broker/status", json!({})),
        )
        .await
        .map_err(|_| BpError::internal("the broker did not answer its health check"))??;
        Ok(client)
    }

    /// Connect without a health check: the caller's first request is the
    /// check (see [`Client::response_within`]).
    pub async fn open(paths: &Paths) -> BpResult<Self> {
        Self::open_checked(paths).map_err(Untrusted::into_error)
    }

    /// [`Client::open`], telling why there is no connection.
    fn open_checked(paths: &Paths) -> Result<Self, Untrusted> {
        let stream = connect_stream(paths)?;
        let stream = stream
            .set_nonblocking(true)
            .and_then(|()| Stream::from_std(stream))
            .map_err(|e| Untrusted::Absent(format!("{}: {e}", paths.socket.display())))?;
        Ok(Self {
            reader: BufReader::new(stream),
            next_id: 1,
        })
    }

    /// [`Client::connect`], telling why there is no connection.
    async fn connect_checked(paths: &Paths) -> Result<Self, Untrusted> {
        let mut client = Self::open_checked(paths)?;
        let checked = tokio::time::timeout(
            Duration::from_secs(5),
            client.request("broker/status", json!({})),
        )
        .await;
        match checked {
            Ok(Ok(_)) => Ok(client),
            Ok(Err(e)) => Err(Untrusted::Absent(e.message)),
            Err(_) => Err(Untrusted::Absent(
                "the broker did not answer its health check".into(),
            )),
        }
    }

    /// Send a request and wait for its response (skipping notifications).
    pub async fn request(&mut self, method: &str, params: Value) -> BpResult<Value> {
        let id = self.send(method, params).await?;
        self.response(id).await
    }

    /// Send a request without waiting: requests sent back to back travel
    /// together, and the broker answers them in order.
    pub async fn send(&mut self, method: &str, params: Value) -> BpResult<u64> {
        let id = self.next_id;
        self.next_id += 1;
        let mut line =
            json!({"jsonrpc": "2.0", "id": id, "method": method, "params": params}).to_string();
        line.push('\n');
        self.reader
            .get_mut()
            .write_all(line.as_bytes())
            .await
            .map_err(io_error)?;
        Ok(id)
    }

    /// The response to request `id` (responses to earlier requests and
    /// notifications are skipped).
    pub async fn response(&mut self, id: u64) -> BpResult<Value> {
        loop {
            let mut buf = String::new();
            if self.reader.read_line(&mut buf).await.map_err(io_error)? == 0 {
                return Err(BpError::internal("the broker closed the connection")
                    .with_context(json!({"reason": CONNECTION_CLOSED})));
            }
            let msg: Value = serde_json::from_str(&buf)
                .map_err(|e| BpError::internal(format!("bad reply: {e}")))?;
            if msg.get("id") != Some(&json!(id)) {
                continue;
            }
            if let Some(err) = msg.get("error") {
                return Err(BpError::from_json(err.get("data").unwrap_or(err)));
            }
            return Ok(msg.get("result").cloned().unwrap_or(Value::Null));
        }
    }

    /// [`Client::response`], failing like a health check when a broker
    /// that accepted the connection does not answer within `limit`.
    pub async fn response_within(&mut self, id: u64, limit: Duration) -> BpResult<Value> {
        tokio::time::timeout(limit, self.response(id))
            .await
            .map_err(|_| BpError::internal("the broker did not answer its health check"))?
    }
}

fn io_error(e: std::io::Error) -> BpError {
    use std::io::ErrorKind::{BrokenPipe, ConnectionReset, UnexpectedEof};
    let err = BpError::internal(format!("broker connection: {e}"));
    if matches!(e.kind(), BrokenPipe | ConnectionReset | UnexpectedEof) {
        err.with_context(json!({"reason": CONNECTION_CLOSED}))
    } else {
        err
    }
}

/// An exclusive advisory lock on a file, released on drop (and by the
/// kernel if the holder dies, so a dead owner never blocks startup).
pub struct FileLock(std::fs::File);

impl FileLock {
    /// Take the lock now or fail.
    pub fn try_acquire(path: &std::path::Path) -> Option<Self> {
        let file = std::fs::OpenOptions::new()
            .create(true)
            .truncate(false)
            .write(true)
            .mode(0o600)
            .open(path)
            .ok()?;
        // SAFETY: flock on a valid descriptor we own.
        let locked = unsafe { libc::flock(file.as_raw_fd(), libc::LOCK_EX | libc::LOCK_NB) } == 0;
        locked.then_some(Self(file))
    }

    /// Wait up to `timeout` for the lock.
    pub async fn acquire(path: &std::path::Path, timeout: Duration) -> BpResult<Self> {
        let started = Instant::now();
        loop {
            if let Some(lock) = Self::try_acquire(path) {
                return Ok(lock);
            }
            if started.elapsed() > timeout {
                return Err(BpError::internal(format!(
                    "timed out waiting for the lock {}",
                    path.display()
                )));
            }
            tokio::time::sleep(Duration::from_millis(20)).await;
        }
    }
}

impl Drop for FileLock {
    fn drop(&mut self) {
        // SAFETY: unlocking our own descriptor.
        unsafe { libc::flock(self.0.as_raw_fd(), libc::LOCK_UN) };
    }
}

/// Connect to the broker, starting one (exactly one, even when many
/// clients race) if none answers. `serve_args` are the arguments that make
/// the current executable serve.
pub async fn ensure_broker(paths: &Paths, serve_args: &[&str]) -> BpResult<Client> {
    match Client::connect_checked(paths).await {
        Ok(c) => return Ok(c),
        Err(Untrusted::Refused(e)) => return Err(e),
        Err(_) => {}
    }
    start_broker(paths, serve_args).await
}

/// [`ensure_broker`] without the health check of a running broker: the
/// caller checks with its first request ([`Client::response_within`]).
/// A broker it starts is the executable `exe` names (asked only then),
/// run with `serve_args`.
pub async fn ensure_broker_unchecked(
    paths: &Paths,
    exe: fn() -> BpResult<std::path::PathBuf>,
    serve_args: &[&str],
) -> BpResult<Client> {
    match Client::open_checked(paths) {
        Ok(c) => return Ok(c),
        Err(Untrusted::Refused(e)) => return Err(e),
        Err(_) => {}
    }
    start_broker_with(paths, &exe()?, serve_args).await
}

async fn start_broker(paths: &Paths, serve_args: &[&str]) -> BpResult<Client> {
    start_broker_with(paths, &crate::system::paths::current_exe()?, serve_args).await
}

async fn start_broker_with(paths: &Paths, exe: &Path, serve_args: &[&str]) -> BpResult<Client> {
    paths.prepare()?;
    let _lock = FileLock::acquire(&paths.lock, START_TIMEOUT).await?;
    // Someone may have started it while we waited for the lock.
    if let Some(c) = settled_broker(paths).await? {
        return Ok(c);
    }
    if let Some(loc) = Locator::read(paths) {
        // A broker that is stopping (its listener closed, its tabs and
        // browser being let go) ends within moments: wait for it first.
        let stopping =
            std::path::Path::new(&loc.socket).exists() && !wait_for_stopping_broker(paths).await;
        if stopping && loc.pid != std::process::id() && is_broker_process(loc.pid) {
            return Err(BpError::internal(format!(
                "a broker process (pid {}) exists but does not answer; stop it (`bp broker stop` or kill {}) and retry",
                loc.pid, loc.pid
            ))
            .with_context(serde_json::json!({"reason": "broker_unresponsive", "pid": loc.pid})));
        }
        // Dead locator, or its PID now belongs to some other program:
        // clean up without signalling anyone.
        let _ = std::fs::remove_file(&paths.locator);
        let _ = std::fs::remove_file(&paths.socket);
    }
    spawn_broker(paths, exe, serve_args)?;
    let started = Instant::now();
    loop {
        match Client::connect_checked(paths).await {
            Ok(c) => return Ok(c),
            Err(Untrusted::Refused(e)) => return Err(e),
            Err(_) => {}
        }
        if started.elapsed() > START_TIMEOUT {
            return Err(BpError::internal(format!(
                "the broker did not start within {} s; see {}",
                START_TIMEOUT.as_secs(),
                paths.log.display()
            )));
        }
        tokio::time::sleep(Duration::from_millis(2)).await;
    }
}

/// The broker that answers now, if any. A listener that is not the
/// locator's broker is refused, except a `broker serve` process, which may
/// have bound its socket and not yet written its locator: it gets until
/// [`START_TIMEOUT`] to do so.
async fn settled_broker(paths: &Paths) -> BpResult<Option<Client>> {
    let started = Instant::now();
    loop {
        match Client::connect_checked(paths).await {
            Ok(c) => return Ok(Some(c)),
            Err(Untrusted::Absent(_)) => return Ok(None),
            Err(Untrusted::Refused(e)) => return Err(e),
            Err(Untrusted::Stranger { pid, error }) => {
                if !is_broker_process(pid) || started.elapsed() > START_TIMEOUT {
                    return Err(error);
                }
            }
        }
        tokio::time::sleep(Duration::from_millis(10)).await;
    }
}

/// Whether `pid` is alive and is a `broker serve` process (a locator's
/// PID reused by another program is not a broker that hangs).
fn is_broker_process(pid: u32) -> bool {
    if !pid_alive(pid) {
        return false;
    }
    let Ok(cmdline) = std::fs::read(format!("/proc/{pid}/cmdline")) else {
        // Nothing to tell it by (not Linux): assume it is the broker.
        return true;
    };
    let args: Vec<&[u8]> = cmdline.split(|b| *b == 0).collect();
    args.windows(2)
        .any(|w| w[0] == b"broker" && w[1] == b"serve")
}

fn spawn_broker(paths: &Paths, exe: &Path, serve_args: &[&str]) -> BpResult<()> {
    use std::os::unix::process::CommandExt;
    // The broker's log (rotated by the broker, see `broker_log.rs` in the
    // CLI): its stderr, so a panic or a failed start is kept there too.
    let log = std::fs::OpenOptions::new()
        .create(true)
        .append(true)
        .mode(0o600)
        .custom_flags(libc::O_NOFOLLOW)
        .open(&paths.log)
        .map_err(|e| BpError::internal(format!("cannot open {}: {e}", paths.log.display())))?;
    let mut cmd = std::process::Command::new(exe);
    cmd.args(serve_args)
        .stdin(std::process::Stdio::null())
        .stdout(std::process::Stdio::null())
        .stderr(log)
        .process_group(0);
    cmd.spawn().map_err(|e| {
        exec_failed(
            format!("cannot start the broker ({}): {e}", exe.display()),
            exe,
            &e,
        )
    })?;
    Ok(())
}

/// Running `exe` failed with `e`: `message`, with the path in the context
/// and, when there is no such file, reason `executable_missing`.
pub fn exec_failed(message: String, exe: &Path, e: &std::io::Error) -> BpError {
    let mut context = json!({"path": exe});
    if e.kind() == std::io::ErrorKind::NotFound {
        context["reason"] = json!("executable_missing");
    }
    BpError::internal(message).with_context(context)
}
