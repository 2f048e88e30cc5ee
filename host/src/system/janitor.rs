//! The janitor: a small child process that closes the tabs the broker
//! opened in a user's browser once the broker is gone, even after
//! `SIGKILL`. Its only signal is its stdin pipe: the broker holds the write
//! end, and the kernel closes it however the broker ends.
//!
//! Lines on the pipe (never part of the CLI or the bridge protocol):
//! - `connect <ws-url>`: the browser to clean up in (first line);
//! - `track <target>`: a tab the broker created or adopted as a popup;
//! - `quit`: the broker let go of the browser itself; exit, close nothing.
//!
//! On end-of-file the janitor closes what it tracked, newest first (popups
//! before their openers), within a bound, and exits. It never learns of
//! user tabs, so it can never close one. Nothing is written to disk.

use crate::cdp::Cdp;
use crate::error::{BpError, BpResult};
use chromiumoxide::cdp::browser_protocol::target::{CloseTargetParams, TargetId};
use std::process::Stdio;
use std::sync::Arc;
use std::time::Duration;
use tokio::io::{AsyncBufReadExt, AsyncWriteExt};
use tokio::sync::mpsc;

/// Longest the whole cleanup may take.
const CLEANUP_BOUND: Duration = Duration::from_secs(5);

/// The broker's end of the pipe.
pub struct Janitor {
    tx: mpsc::UnboundedSender<String>,
}

impl Janitor {
    /// Start `<this executable> janitor` for the browser at `ws_url`.
    pub fn spawn(ws_url: &str) -> BpResult<Self> {
        let exe = crate::system::paths::current_exe()?;
        let mut cmd = tokio::process::Command::new(exe);
        cmd.arg("janitor")
            .stdin(Stdio::piped())
            .stdout(Stdio::null())
            .stderr(Stdio::null())
            .kill_on_drop(false);
        // SAFETY: setsid is async-signal-safe. A session of its own keeps
        // the janitor alive through a terminal's Ctrl-C to the broker, so
        // it still sees the pipe close.
        unsafe {
            cmd.pre_exec(|| {
                libc::setsid();
                Ok(())
            });
        }
        let mut child = cmd
            .spawn()
            .map_err(|e| BpError::internal(format!("cannot start the janitor: {e}")))?;
        let mut stdin = child
            .stdin
            .take()
            .ok_or_else(|| BpError::internal("the janitor has no stdin"))?;
        let (tx, mut rx) = mpsc::unbounded_channel::<String>();
        tokio::spawn(async move {
            while let Some(line) = rx.recv().await {
                if let Err(e) = stdin.write_all(line.as_bytes()).await {
                    tracing::warn!("the janitor is gone ({e}); tabs opened from now on are not cleaned up if the broker dies");
                    break;
                }
            }
            // Dropping stdin here (all senders gone) is the EOF.
        });
        // Reaped in the background by tokio when it exits.
        drop(child);
        let janitor = Self { tx };
        janitor.send(format!("connect {ws_url}"));
        Ok(janitor)
    }

    fn send(&self, line: String) {
        let _ = self.tx.send(format!("{line}\n"));
    }

    /// A tab the broker owns in this browser.
    pub fn track(&self, raw_target: &str) {
        self.send(format!("track {raw_target}"));
    }

    /// The broker let go of the browser (disconnect, reconnect): the
    /// janitor exits without closing anything.
    pub fn forget(&self) {
        self.send("quit".to_string());
    }
}

/// The janitor process: read the pipe until EOF, then clean up. It also
/// exits, closing nothing, once its own connection to the browser ends:
/// the browser is gone, and a later browser on that port is not its own.
pub async fn run() -> BpResult<()> {
    let mut lines = tokio::io::BufReader::new(tokio::io::stdin()).lines();
    let mut ws_url: Option<String> = None;
    let mut cdp: Option<Cdp> = None;
    let mut tracked: Vec<String> = Vec::new();
    let mut tick = tokio::time::interval(Duration::from_millis(500));
    loop {
        let line = tokio::select! {
            line = lines.next_line() => line,
            _ = tick.tick() => {
                if cdp.as_ref().is_some_and(Cdp::is_closed) {
                    return Ok(());
                }
                continue;
            }
        };
        let line = match line {
            Ok(Some(line)) => line,
            // EOF or a broken pipe: the broker is gone.
            Ok(None) | Err(_) => break,
        };
        match line.split_once(' ').unwrap_or((line.as_str(), "")) {
            ("connect", url) => ws_url = Some(url.to_string()),
            ("track", target) if !target.is_empty() => {
                tracked.push(target.to_string());
                // Connect while the broker is alive, so cleanup is quick.
                if cdp.is_none() {
                    cdp = open(ws_url.as_deref()).await;
                }
            }
            ("quit", _) => return Ok(()),
            _ => {}
        }
    }
    // Only the connection made while the broker was alive is trusted.
    let Some(cdp) = cdp.filter(|c| !c.is_closed()) else {
        return Ok(());
    };
    let cleanup = async {
        for target in tracked.iter().rev() {
            let close = CloseTargetParams::new(TargetId::new(target.as_str()));
            let _ = cdp.send_timeout(&close, None, Duration::from_secs(2)).await;
        }
    };
    let _ = tokio::time::timeout(CLEANUP_BOUND, cleanup).await;
    Ok(())
}

async fn open(ws_url: Option<&str>) -> Option<Cdp> {
    Cdp::connect(ws_url?, Arc::new(|_| {})).await.ok()
}
