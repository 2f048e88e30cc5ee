//! A progress line on stderr for waits over a second (navigation,
//! downloads, browser launch, first-run component preparation), only in
//! human mode and only when stderr is a terminal: `--json` and pipes stay
//! clean.

use std::io::{IsTerminal, Write};
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::Arc;
use std::time::{Duration, Instant};

/// How long a wait stays silent.
const QUIET: Duration = Duration::from_secs(1);

/// A running progress line; dropping it clears the line.
pub struct Progress {
    task: tokio::task::JoinHandle<()>,
    shown: Arc<AtomicBool>,
}

/// Whether progress lines may be shown at all.
pub fn wanted(json: bool) -> bool {
    !json && std::io::stderr().is_terminal()
}

impl Progress {
    /// Start counting; the line appears after [`QUIET`].
    pub fn start(label: &str, enabled: bool) -> Option<Self> {
        if !enabled {
            return None;
        }
        let shown = Arc::new(AtomicBool::new(false));
        let flag = shown.clone();
        let label = label.to_string();
        let task = tokio::spawn(async move {
            let started = Instant::now();
            tokio::time::sleep(QUIET).await;
            loop {
                flag.store(true, Ordering::SeqCst);
                let mut err = std::io::stderr();
                let _ = write!(
                    err,
                    "\r\x1b[K{label}... {:.0}s",
                    started.elapsed().as_secs_f64()
                );
                let _ = err.flush();
                tokio::time::sleep(Duration::from_millis(500)).await;
            }
        });
        Some(Self { task, shown })
    }
}

impl Drop for Progress {
    fn drop(&mut self) {
        self.task.abort();
        if self.shown.load(Ordering::SeqCst) {
            let mut err = std::io::stderr();
            let _ = write!(err, "\r\x1b[K");
            let _ = err.flush();
        }
    }
}

/// What a tool is waiting for, in words.
pub fn label(tool: &str) -> String {
    match tool {
        "browser.connect" => "connecting to the browser".into(),
        "browser.navigate" | "browser.tabs.open" => "waiting for the page".into(),
        other => format!("waiting for {other}"),
    }
}
