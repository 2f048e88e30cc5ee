//! A `bp mcp` child spoken to over its pipes, answering the server's own
//! `roots/list` with the roots it was given.

use super::Env;
use serde_json::{json, Value};
use std::io::{BufRead, Write};
use std::path::PathBuf;
use std::process::{Child, ChildStdin, Command, Stdio};
use std::sync::mpsc::Receiver;
use std::time::{Duration, Instant};

/// How long one MCP request may take (a launch included).
const REPLY_LIMIT: Duration = Duration::from_secs(60);

/// A `bp mcp` child and its lines; answers `roots/list` with `roots`.
pub struct Mcp {
    child: Child,
    stdin: Option<ChildStdin>,
    lines: Receiver<String>,
    roots: Vec<PathBuf>,
    next: u64,
}

impl Mcp {
    pub fn start(env: &Env, args: &[&str], roots: Vec<PathBuf>) -> Self {
        let mut child = Command::new(super::bp_exe())
            .arg("mcp")
            .args(args)
            .env("BROWSER_PILOT_HOME", &env.home)
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .stderr(Stdio::null())
            .spawn()
            .expect("spawn bp mcp");
        let stdout = child.stdout.take().unwrap();
        let (tx, lines) = std::sync::mpsc::channel();
        std::thread::spawn(move || {
            for line in std::io::BufReader::new(stdout)
                .lines()
                .map_while(Result::ok)
            {
                if tx.send(line).is_err() {
                    break;
                }
            }
        });
        let stdin = child.stdin.take();
        let mut mcp = Self {
            child,
            stdin,
            lines,
            roots,
            next: 1,
        };
        let caps = if mcp.roots.is_empty() {
            json!({})
        } else {
            json!({"roots": {"listChanged": false}})
        };
        mcp.request(
            "initialize",
            json!({"protocolVersion": "2025-06-18", "capabilities": caps,
                   "clientInfo": {"name": "t", "version": "1"}}),
        );
        mcp.send(&json!({"jsonrpc": "2.0", "method": "notifications/initialized"}));
        mcp
    }

    pub fn send(&mut self, v: &Value) {
        let stdin = self.stdin.as_mut().unwrap();
        writeln!(stdin, "{v}").unwrap();
        stdin.flush().unwrap();
    }

    /// Send a request and wait for its reply, answering the server's own
    /// `roots/list` meanwhile.
    pub fn request(&mut self, method: &str, params: Value) -> Value {
        let id = self.next;
        self.next += 1;
        self.send(&json!({"jsonrpc": "2.0", "id": id, "method": method, "params": params}));
        let deadline = Instant::now() + REPLY_LIMIT;
        loop {
            let left = deadline.saturating_duration_since(Instant::now());
            let line = self
                .lines
                .recv_timeout(left)
                .unwrap_or_else(|_| panic!("bp mcp answered {method} in time"));
            let v: Value = serde_json::from_str(&line).unwrap_or_default();
            if v["method"] == "roots/list" {
                let roots: Vec<Value> = self
                    .roots
                    .iter()
                    .map(|r| json!({"uri": format!("file://{}", r.display())}))
                    .collect();
                let reply = json!({"jsonrpc": "2.0", "id": v["id"], "result": {"roots": roots}});
                self.send(&reply);
            } else if v["id"] == id {
                return v;
            }
        }
    }

    /// `tools/call`; the result's structured content.
    pub fn call(&mut self, tool: &str, args: Value) -> Value {
        let v = self.request("tools/call", json!({"name": tool, "arguments": args}));
        v["result"]["structuredContent"].clone()
    }
}

impl Drop for Mcp {
    fn drop(&mut self) {
        // Closing stdin ends the session in order (its workspace goes).
        drop(self.stdin.take());
        let started = Instant::now();
        while started.elapsed() < Duration::from_secs(20) {
            if let Ok(Some(_)) = self.child.try_wait() {
                return;
            }
            std::thread::sleep(Duration::from_millis(50));
        }
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}
