//! A Chromium started the way a user starts one: not by the broker, with
//! its own profile and `--remote-debugging-port=0`, so its port is known
//! only from `DevToolsActivePort`. Its whole process group is killed in
//! `Drop`, also when a test fails.

use super::{poll_for, POLL_LIMIT};
use serde_json::Value;
use std::io::{Read, Write};
use std::path::PathBuf;
use std::process::Child;
use std::time::Duration;

pub struct UserBrowser {
    child: Option<Child>,
    pub profile: PathBuf,
    pub port: u16,
}

impl UserBrowser {
    /// Start a user browser with a fresh profile, showing `url`.
    pub fn start(tag: &str, url: &str) -> Self {
        let profile = std::env::temp_dir().join(format!(
            "bp-user-{tag}-{}-{}",
            std::process::id(),
            crate::support::unique()
        ));
        let _ = std::fs::remove_dir_all(&profile);
        std::fs::create_dir_all(&profile).expect("profile dir");
        let mut b = Self {
            child: None,
            profile,
            port: 0,
        };
        b.relaunch(url);
        b
    }

    /// Start (again) on the same profile.
    pub fn relaunch(&mut self, url: &str) {
        let _ = std::fs::remove_file(self.profile.join("DevToolsActivePort"));
        let exe = browser_pilot_host::cdp::launch::find_executable().expect("no Chromium on PATH");
        let child = browser_pilot_host::cdp::launch::spawn_user_like(&exe, &self.profile, url)
            .expect("start chromium");
        self.child = Some(child);
        let ports = self.profile.join("DevToolsActivePort");
        self.port = poll_for(POLL_LIMIT, "chromium writing DevToolsActivePort", || {
            let text = std::fs::read_to_string(&ports).ok()?;
            text.lines().next().and_then(|l| l.trim().parse().ok())
        });
    }

    /// The `http://` endpoint a user would type.
    pub fn endpoint(&self) -> String {
        format!("http://127.0.0.1:{}", self.port)
    }

    /// The browser's main process ID.
    pub fn pid(&self) -> i32 {
        self.child.as_ref().map_or(0, |c| c.id() as i32)
    }

    /// Kill the whole browser (SIGKILL to its process group).
    pub fn kill(&mut self) {
        if let Some(mut c) = self.child.take() {
            // SAFETY: signalling the process group we started.
            unsafe {
                libc::kill(-(c.id() as i32), libc::SIGKILL);
            }
            let _ = c.wait();
        }
    }

    /// A plain HTTP request to the DevTools endpoint, as the user's own
    /// tooling would make (this is the test acting as the user).
    fn http(&self, method: &str, path: &str) -> String {
        let mut s = std::net::TcpStream::connect(("127.0.0.1", self.port)).expect("devtools http");
        s.set_read_timeout(Some(Duration::from_secs(5))).ok();
        write!(
            s,
            "{method} {path} HTTP/1.1\r\nHost: 127.0.0.1:{}\r\nConnection: close\r\n\r\n",
            self.port
        )
        .expect("write");
        // Chromium keeps the connection open after the response, so the
        // body is read by its length rather than to the end of the stream.
        let mut raw = Vec::new();
        let mut buf = [0u8; 16 * 1024];
        loop {
            let head_end = raw.windows(4).position(|w| w == b"\r\n\r\n");
            if let Some(end) = head_end {
                let head = String::from_utf8_lossy(&raw[..end]).to_ascii_lowercase();
                let length = head
                    .lines()
                    .find_map(|l| l.strip_prefix("content-length:"))
                    .and_then(|v| v.trim().parse::<usize>().ok());
                if length.is_some_and(|n| raw.len() >= end + 4 + n) {
                    let n = length.unwrap_or(0);
                    return String::from_utf8_lossy(&raw[end + 4..end + 4 + n]).to_string();
                }
            }
            match s.read(&mut buf) {
                Ok(0) | Err(_) => break,
                Ok(n) => raw.extend_from_slice(&buf[..n]),
            }
        }
        let out = String::from_utf8_lossy(&raw).to_string();
        out.split_once("\r\n\r\n")
            .map(|(_, b)| b.to_string())
            .unwrap_or_default()
    }

    /// The user opens a new tab at `url`.
    pub fn user_opens(&self, url: &str) {
        let body = self.http("PUT", &format!("/json/new?{url}"));
        assert!(body.contains("\"id\""), "could not open a user tab: {body}");
    }

    /// URLs of the browser's page targets.
    pub fn page_urls(&self) -> Vec<String> {
        let body = self.http("GET", "/json/list");
        let list: Value = serde_json::from_str(body.trim()).unwrap_or(Value::Null);
        list.as_array()
            .into_iter()
            .flatten()
            .filter(|t| t["type"] == "page")
            .filter_map(|t| t["url"].as_str().map(str::to_string))
            .collect()
    }
}

impl Drop for UserBrowser {
    fn drop(&mut self) {
        self.kill();
        let _ = std::fs::remove_dir_all(&self.profile);
    }
}
