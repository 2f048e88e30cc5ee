//! Starting a broker-owned Chromium with an isolated temporary profile, and
//! resolving an explicit loopback endpoint to its WebSocket URL.

use crate::error::{BpError, BpResult, Code};
use std::path::{Path, PathBuf};
use std::process::Stdio;
use std::time::{Duration, Instant};
use tokio::io::{AsyncReadExt, AsyncWriteExt};
use tokio::process::{Child, Command};

/// Flags every broker-owned Chromium gets: quiet, isolated, no traffic of
/// its own.
const FLAGS: &[&str] = &[
    "--no-first-run",
    "--no-default-browser-check",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
    "--disable-quic",
    "--disable-gpu",
    "--disable-features=Translate,MediaRouter,OptimizationHints",
    "--metrics-recording-only",
    "--disable-back-forward-cache",
    "--password-store=basic",
    "--use-mock-keychain",
    "--remote-debugging-port=0",
    "--remote-allow-origins=http://127.0.0.1",
];

const EXECUTABLES: &[&str] = &[
    "chromium",
    "chromium-browser",
    "google-chrome",
    "google-chrome-stable",
];

/// A running broker-owned browser. Dropping it kills the process and removes
/// the temporary profile.
pub struct LaunchedBrowser {
    child: Child,
    profile: PathBuf,
    pub ws_url: String,
    pub executable: PathBuf,
}

impl LaunchedBrowser {
    /// The browser's process ID.
    pub fn pid(&self) -> Option<u32> {
        self.child.id()
    }
}

impl Drop for LaunchedBrowser {
    fn drop(&mut self) {
        let _ = self.child.start_kill();
        let _ = std::fs::remove_dir_all(&self.profile);
    }
}

/// Find a Chromium-family executable on PATH.
pub fn find_executable() -> BpResult<PathBuf> {
    let path = std::env::var_os("PATH").unwrap_or_default();
    for dir in std::env::split_paths(&path) {
        for name in EXECUTABLES {
            let candidate = dir.join(name);
            if candidate.is_file() {
                return Ok(candidate);
            }
        }
    }
    Err(BpError::new(
        Code::BrowserNotFound,
        "no Chromium found on PATH (looked for chromium, chromium-browser, google-chrome); install one or pass `executable`",
    ))
}

fn is_root() -> bool {
    // SAFETY: geteuid has no preconditions and cannot fail.
    unsafe { libc::geteuid() == 0 }
}

/// Launch Chromium with a fresh profile under `profiles_dir`.
pub async fn launch(
    executable: Option<PathBuf>,
    headless: bool,
    profiles_dir: &Path,
) -> BpResult<LaunchedBrowser> {
    let executable = match executable {
        Some(p) if p.is_file() => p,
        Some(p) => {
            return Err(BpError::new(
                Code::BrowserNotFound,
                format!("{} is not a file", p.display()),
            ))
        }
        None => find_executable()?,
    };
    crate::paths::ensure_private_dir(profiles_dir)?;
    let profile = profiles_dir.join(format!(
        "profile-{}-{}",
        std::process::id(),
        crate::ids::random_hex(6)
    ));
    crate::paths::ensure_private_dir(&profile)?;

    let mut cmd = Command::new(&executable);
    cmd.args(FLAGS)
        .arg(format!("--user-data-dir={}", profile.display()));
    if headless {
        cmd.arg("--headless");
    }
    if is_root() {
        cmd.arg("--no-sandbox");
    }
    cmd.arg("about:blank")
        .stdin(Stdio::null())
        .stdout(Stdio::null())
        .stderr(Stdio::null())
        .kill_on_drop(true);
    // SAFETY: prctl(PR_SET_PDEATHSIG) is async-signal-safe; the browser dies
    // with the broker instead of outliving it.
    unsafe {
        cmd.pre_exec(|| {
            libc::prctl(libc::PR_SET_PDEATHSIG, libc::SIGKILL);
            Ok(())
        });
    }
    let mut child = cmd.spawn().map_err(|e| {
        BpError::new(
            Code::BrowserNotFound,
            format!("cannot start {}: {e}", executable.display()),
        )
    })?;

    let port_file = profile.join("DevToolsActivePort");
    let started = Instant::now();
    let ws_url = loop {
        if let Ok(text) = tokio::fs::read_to_string(&port_file).await {
            let mut lines = text.lines();
            if let (Some(port), Some(path)) = (lines.next(), lines.next()) {
                if let Ok(port) = port.trim().parse::<u16>() {
                    break format!("ws://127.0.0.1:{port}{}", path.trim());
                }
            }
        }
        if let Ok(Some(status)) = child.try_wait() {
            let _ = std::fs::remove_dir_all(&profile);
            return Err(BpError::new(
                Code::BrowserNotFound,
                format!("the browser exited during start-up ({status})"),
            ));
        }
        if started.elapsed() > Duration::from_secs(20) {
            let _ = child.start_kill();
            let _ = std::fs::remove_dir_all(&profile);
            return Err(BpError::new(
                Code::BrowserNotFound,
                "the browser did not open its DevTools port within 20 s",
            ));
        }
        tokio::time::sleep(Duration::from_millis(10)).await;
    };
    Ok(LaunchedBrowser {
        child,
        profile,
        ws_url,
        executable,
    })
}

/// Resolve an explicit endpoint (`ws://` used as is, `http://` asked for
/// `/json/version`). Only loopback hosts are accepted.
pub async fn resolve_endpoint(endpoint: &str) -> BpResult<String> {
    let url = check_endpoint(endpoint)?;
    let host = url.host_str().unwrap_or("");
    match url.scheme() {
        "ws" => Ok(endpoint.to_string()),
        "http" => {
            let port = url.port().unwrap_or(80);
            let body = http_get(host, port, "/json/version").await?;
            let v: serde_json::Value = serde_json::from_str(&body).map_err(|_| {
                BpError::new(
                    Code::BrowserNotFound,
                    "the endpoint did not answer /json/version with JSON",
                )
            })?;
            let ws = v
                .get("webSocketDebuggerUrl")
                .and_then(serde_json::Value::as_str)
                .ok_or_else(|| {
                    BpError::new(
                        Code::BrowserNotFound,
                        "the endpoint gave no webSocketDebuggerUrl",
                    )
                })?;
            check_endpoint(ws)?;
            Ok(ws.to_string())
        }
        other => Err(BpError::invalid(format!(
            "endpoint scheme must be http or ws, not {other}"
        ))),
    }
}

/// Parse an endpoint URL and require a loopback host and http/ws scheme.
pub fn check_endpoint(endpoint: &str) -> BpResult<url::Url> {
    let url = url::Url::parse(endpoint)
        .map_err(|e| BpError::invalid(format!("bad endpoint URL: {e}")))?;
    let host = url.host_str().unwrap_or("");
    if !matches!(host, "127.0.0.1" | "localhost" | "[::1]" | "::1") {
        return Err(BpError::invalid(
            "only loopback endpoints (127.0.0.1, localhost, ::1) are accepted",
        ));
    }
    if !matches!(url.scheme(), "http" | "ws") {
        return Err(BpError::invalid(format!(
            "endpoint scheme must be http or ws, not {}",
            url.scheme()
        )));
    }
    Ok(url)
}

async fn http_get(host: &str, port: u16, path: &str) -> BpResult<String> {
    let unreachable = |e: std::io::Error| {
        BpError::new(
            Code::BrowserNotFound,
            format!("cannot reach {host}:{port}: {e}"),
        )
    };
    let mut stream = tokio::time::timeout(
        Duration::from_secs(5),
        tokio::net::TcpStream::connect((host, port)),
    )
    .await
    .map_err(|_| {
        BpError::new(
            Code::BrowserNotFound,
            "the endpoint did not answer within 5 s",
        )
    })?
    .map_err(unreachable)?;
    let req = format!("GET {path} HTTP/1.0\r\nHost: {host}:{port}\r\n\r\n");
    stream
        .write_all(req.as_bytes())
        .await
        .map_err(unreachable)?;
    let mut buf = Vec::new();
    let mut chunk = [0u8; 8192];
    // DevTools keeps the connection open: read until the body is complete.
    loop {
        let n = tokio::time::timeout(Duration::from_secs(5), stream.read(&mut chunk))
            .await
            .map_err(|_| BpError::new(Code::BrowserNotFound, "the endpoint stalled"))?
            .map_err(unreachable)?;
        if n == 0 {
            break;
        }
        buf.extend_from_slice(&chunk[..n]);
        if buf.len() > 1 << 20 {
            return Err(BpError::new(
                Code::BrowserNotFound,
                "the endpoint answer is too large",
            ));
        }
        let text = String::from_utf8_lossy(&buf);
        if let Some((head, body)) = text.split_once("\r\n\r\n") {
            let len = head
                .lines()
                .find_map(|l| {
                    l.to_ascii_lowercase()
                        .strip_prefix("content-length:")
                        .map(|v| v.trim().to_string())
                })
                .and_then(|v| v.parse::<usize>().ok());
            if len.is_some_and(|len| body.len() >= len) {
                return Ok(body.to_string());
            }
        }
    }
    let text = String::from_utf8_lossy(&buf).to_string();
    Ok(text
        .split_once("\r\n\r\n")
        .map(|(_, b)| b.to_string())
        .unwrap_or_default())
}
