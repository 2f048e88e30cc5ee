//! The broker's log: `broker.log` in the state directory, owner-only,
//! rotated at a size bound so it never grows past a few megabytes.
//!
//! A broker a client started has its stderr on this same file (see
//! `client::spawn_broker`), so a panic or a start-up failure lands in it
//! too; on rotation that stderr moves to the new file with the log.

use browser_pilot_host::system::paths::Paths;
use std::fs::File;
use std::io::{self, Write};
use std::os::unix::fs::{MetadataExt, OpenOptionsExt, PermissionsExt};
use std::os::unix::io::AsRawFd;
use std::path::{Path, PathBuf};

/// A log file reaching this size is rotated.
pub const MAX_BYTES: u64 = 1024 * 1024;
/// Rotated files kept beside the current one (`broker.log.1` is the newest).
pub const KEEP: usize = 3;

/// The `n`th rotated file of `path` (`broker.log.n`).
pub fn rotated(path: &Path, n: usize) -> PathBuf {
    let mut name = path.as_os_str().to_owned();
    name.push(format!(".{n}"));
    PathBuf::from(name)
}

/// Open `path` for appending, mode 0600, never through a symlink.
fn open_private(path: &Path) -> io::Result<File> {
    let file = std::fs::OpenOptions::new()
        .create(true)
        .append(true)
        .mode(0o600)
        .custom_flags(libc::O_NOFOLLOW)
        .open(path)?;
    if file.metadata()?.mode() & 0o777 != 0o600 {
        file.set_permissions(std::fs::Permissions::from_mode(0o600))?;
    }
    Ok(file)
}

/// Whether this process's stderr is `file` (the same inode).
fn stderr_is(file: &File) -> bool {
    // SAFETY: a zeroed `stat` is a valid value; fstat writes into the
    // one we own and only reads descriptor 2.
    let st = unsafe {
        let mut st: libc::stat = std::mem::zeroed();
        if libc::fstat(2, &mut st) != 0 {
            return false;
        }
        st
    };
    file.metadata()
        .is_ok_and(|m| m.dev() == st.st_dev && m.ino() == st.st_ino)
}

/// A size-bounded log file: at `max_bytes` the file becomes
/// `path.1` (older ones shift up, the oldest past `keep` is dropped) and a
/// new one starts.
pub struct RotatingLog {
    path: PathBuf,
    max_bytes: u64,
    keep: usize,
    file: File,
    size: u64,
    /// Descriptor 2 is this log; it follows the log to each new file.
    stderr_follows: bool,
}

impl RotatingLog {
    pub fn open(path: &Path, max_bytes: u64, keep: usize) -> io::Result<Self> {
        let file = open_private(path)?;
        let size = file.metadata()?.len();
        let stderr_follows = stderr_is(&file);
        Ok(Self {
            path: path.to_path_buf(),
            max_bytes,
            keep: keep.max(1),
            file,
            size,
            stderr_follows,
        })
    }

    /// Whether descriptor 2 writes into this log.
    pub fn has_stderr(&self) -> bool {
        self.stderr_follows
    }

    fn rotate(&mut self) -> io::Result<()> {
        for n in (1..self.keep).rev() {
            let from = rotated(&self.path, n);
            if from.exists() {
                std::fs::rename(&from, rotated(&self.path, n + 1))?;
            }
        }
        std::fs::rename(&self.path, rotated(&self.path, 1))?;
        self.file = open_private(&self.path)?;
        self.size = 0;
        if self.stderr_follows {
            // SAFETY: both descriptors are open; dup2 replaces 2 atomically.
            unsafe { libc::dup2(self.file.as_raw_fd(), 2) };
        }
        Ok(())
    }
}

impl Write for RotatingLog {
    fn write(&mut self, buf: &[u8]) -> io::Result<usize> {
        // Writes from stderr (a panic) are not counted; `len` catches up.
        if self.size + buf.len() as u64 > self.max_bytes {
            self.size = self.file.metadata().map_or(self.size, |m| m.len());
        }
        if self.size > 0 && self.size + buf.len() as u64 > self.max_bytes && self.rotate().is_err()
        {
            // Could not rotate: start the file over rather than grow it.
            self.file.set_len(0)?;
            self.size = 0;
        }
        let n = self.file.write(buf)?;
        self.size += n as u64;
        Ok(n)
    }

    fn flush(&mut self) -> io::Result<()> {
        self.file.flush()
    }
}

/// The log filter: `BROWSER_PILOT_LOG` (an `EnvFilter` string), default
/// `info`.
fn filter() -> tracing_subscriber::EnvFilter {
    tracing_subscriber::EnvFilter::try_from_env("BROWSER_PILOT_LOG")
        .unwrap_or_else(|_| tracing_subscriber::EnvFilter::new("info"))
        // The CDP library logs message payloads (typed text) at
        // debug/trace: never let them reach the log.
        .add_directive("chromiumoxide=warn".parse().unwrap_or_default())
}

/// Log to `broker.log` (rotated), and to stderr unless stderr is that
/// file already (a broker a client started).
pub fn init(paths: &Paths) {
    use tracing_subscriber::layer::SubscriberExt;
    use tracing_subscriber::util::SubscriberInitExt;
    use tracing_subscriber::Layer;
    let file = RotatingLog::open(&paths.log, MAX_BYTES, KEEP);
    if let Err(e) = &file {
        eprintln!(
            "cannot open {}: {e}; logging to stderr only",
            paths.log.display()
        );
    }
    let file = file.ok();
    let to_stderr = !file.as_ref().is_some_and(RotatingLog::has_stderr);
    let file_layer = file.map(|f| {
        tracing_subscriber::fmt::layer()
            .with_ansi(false)
            .with_writer(std::sync::Mutex::new(f))
            .with_filter(filter())
    });
    let stderr_layer = to_stderr.then(|| {
        tracing_subscriber::fmt::layer()
            .with_ansi(std::io::IsTerminal::is_terminal(&std::io::stderr()))
            .with_writer(std::io::stderr)
            .with_filter(filter())
    });
    let _ = tracing_subscriber::registry()
        .with(file_layer)
        .with(stderr_layer)
        .try_init();
}

#[cfg(test)]
mod tests {
    use super::*;

    fn dir() -> PathBuf {
        let d = std::env::temp_dir().join(format!(
            "bp-log-test-{}-{}",
            std::process::id(),
            browser_pilot_host::ids::random_hex(4)
        ));
        std::fs::create_dir_all(&d).expect("test dir");
        d
    }

    #[test]
    fn rotation_bounds_the_size_and_keeps_the_newest_lines() {
        let d = dir();
        let path = d.join("broker.log");
        let mut log = RotatingLog::open(&path, 1000, 2).expect("open");
        for i in 0..500 {
            writeln!(log, "line {i:04} of the broker log").expect("write");
        }
        let size = |p: &Path| std::fs::metadata(p).map(|m| m.len()).unwrap_or(0);
        assert!(size(&path) <= 1000, "{}", size(&path));
        assert!(size(&rotated(&path, 1)) <= 1000);
        assert!(size(&rotated(&path, 2)) <= 1000);
        assert!(!rotated(&path, 3).exists(), "more files kept than asked");
        let current = std::fs::read_to_string(&path).expect("read");
        assert!(
            current.ends_with("line 0499 of the broker log\n"),
            "{current}"
        );
        let older = std::fs::read_to_string(rotated(&path, 1)).expect("read .1");
        let first_current = current.lines().next().expect("a line");
        let last_older = older.lines().last().expect("a line");
        assert!(last_older < first_current, "{last_older} / {first_current}");
        for p in [path.clone(), rotated(&path, 1), rotated(&path, 2)] {
            let mode = std::fs::metadata(&p).expect("meta").mode() & 0o777;
            assert_eq!(mode, 0o600, "{}", p.display());
        }
        let _ = std::fs::remove_dir_all(&d);
    }

    #[test]
    fn an_existing_log_is_made_owner_only_and_appended_to() {
        let d = dir();
        let path = d.join("broker.log");
        std::fs::write(&path, "before\n").expect("seed");
        std::fs::set_permissions(&path, std::fs::Permissions::from_mode(0o644)).expect("chmod");
        let mut log = RotatingLog::open(&path, MAX_BYTES, KEEP).expect("open");
        writeln!(log, "after").expect("write");
        assert_eq!(
            std::fs::read_to_string(&path).expect("read"),
            "before\nafter\n"
        );
        let mode = std::fs::metadata(&path).expect("meta").mode() & 0o777;
        assert_eq!(mode, 0o600);
        let _ = std::fs::remove_dir_all(&d);
    }
}
