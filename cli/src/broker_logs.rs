//! `bp broker logs [--lines N] [--follow]`: the end of the broker's log
//! (across its rotated files), then, with `--follow`, what is appended,
//! until interrupted. It needs no broker.

use crate::broker_log::{rotated, KEEP};
use browser_pilot_host::system::paths::Paths;
use browser_pilot_host::{BpError, BpResult};
use serde_json::json;
use std::io::{Read, Seek, SeekFrom, Write};
use std::os::unix::fs::MetadataExt;
use std::path::Path;
use std::time::Duration;

/// How often `--follow` looks for new lines.
const FOLLOW_EVERY: Duration = Duration::from_millis(200);

/// The last `n` lines of the log, oldest first, reading the rotated
/// files only as far back as needed.
fn last_lines(path: &Path, n: usize) -> Vec<String> {
    let mut lines: Vec<String> = Vec::new();
    for file in std::iter::once(path.to_path_buf()).chain((1..=KEEP).map(|i| rotated(path, i))) {
        if lines.len() >= n {
            break;
        }
        let Ok(bytes) = std::fs::read(&file) else {
            continue;
        };
        let text = String::from_utf8_lossy(&bytes);
        let mut older: Vec<String> = text.lines().map(str::to_string).collect();
        older.append(&mut lines);
        lines = older;
    }
    let skip = lines.len().saturating_sub(n);
    lines.split_off(skip)
}

fn print_line(json: bool, line: &str) -> std::io::Result<()> {
    let mut out = std::io::stdout().lock();
    if json {
        writeln!(out, "{}", json!({ "line": line }))?;
    } else {
        writeln!(out, "{line}")?;
    }
    out.flush()
}

pub async fn show(paths: &Paths, lines: usize, follow: bool, json: bool) -> BpResult<()> {
    let path = &paths.log;
    let tail = last_lines(path, lines);
    if json && !follow {
        println!("{}", json!({"path": path, "lines": tail}));
        return Ok(());
    }
    if !path.exists() && !json {
        eprintln!(
            "no broker log yet at {} (a broker writes it when it starts)",
            path.display()
        );
    }
    for line in &tail {
        if print_line(json, line).is_err() {
            // The reader went away (`| head`).
            return Ok(());
        }
    }
    if follow {
        follow_log(path, json).await?;
    }
    Ok(())
}

/// Print what is appended to `path` from its current end, following it to
/// a new file when it is rotated, until interrupted or stdout closes.
async fn follow_log(path: &Path, json: bool) -> BpResult<()> {
    let io = |e: std::io::Error| BpError::internal(format!("{}: {e}", path.display()));
    let mut file = loop {
        // Wait for a log that does not exist yet.
        if let Ok(mut f) = std::fs::File::open(path) {
            f.seek(SeekFrom::End(0)).map_err(io)?;
            break f;
        }
        tokio::time::sleep(FOLLOW_EVERY).await;
    };
    let mut pending = Vec::new();
    loop {
        // Everything written to the file we hold (even once rotated away).
        let mut chunk = Vec::new();
        file.read_to_end(&mut chunk).map_err(io)?;
        pending.extend_from_slice(&chunk);
        while let Some(end) = pending.iter().position(|b| *b == b'\n') {
            let line: Vec<u8> = pending.drain(..=end).collect();
            let text = String::from_utf8_lossy(&line[..end]);
            if print_line(json, &text).is_err() {
                return Ok(());
            }
        }
        let held = file.metadata().map_err(io)?;
        match std::fs::metadata(path) {
            // Rotated: the new file, from its start.
            Ok(now) if now.ino() != held.ino() || now.dev() != held.dev() => {
                if let Ok(f) = std::fs::File::open(path) {
                    // What reached the old file since the read above.
                    let mut rest = Vec::new();
                    file.read_to_end(&mut rest).map_err(io)?;
                    pending.extend_from_slice(&rest);
                    file = f;
                    continue;
                }
            }
            // Cut short (truncated): from its new end.
            Ok(now) if now.len() < file.stream_position().map_err(io)? => {
                file.seek(SeekFrom::End(0)).map_err(io)?;
            }
            _ => {}
        }
        tokio::time::sleep(FOLLOW_EVERY).await;
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_last_lines_reach_into_rotated_files_oldest_first() {
        let d = std::env::temp_dir().join(format!(
            "bp-logs-test-{}-{}",
            std::process::id(),
            browser_pilot_host::ids::random_hex(4)
        ));
        std::fs::create_dir_all(&d).expect("dir");
        let path = d.join("broker.log");
        std::fs::write(rotated(&path, 2), "a\nb\n").expect("write");
        std::fs::write(rotated(&path, 1), "c\nd\n").expect("write");
        std::fs::write(&path, "e\nf\n").expect("write");
        assert_eq!(last_lines(&path, 3), ["d", "e", "f"]);
        assert_eq!(last_lines(&path, 100), ["a", "b", "c", "d", "e", "f"]);
        assert!(last_lines(&path, 0).is_empty());
        assert!(last_lines(&d.join("none.log"), 5).is_empty());
        let _ = std::fs::remove_dir_all(&d);
    }
}
