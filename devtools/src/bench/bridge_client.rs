//! The bench's persistent `bp bridge --stdio` client: one bridge process,
//! initialised, with a workspace and a lease, for calls in a loop.

use super::exe;
use browser_pilot_host::{BpError, BpResult};
use serde_json::{json, Value};
use std::path::Path;
use std::process::{Child, Command, Stdio};

/// A persistent `bp bridge --stdio` client for the benchmark.
pub(crate) struct BridgeClient {
    child: Child,
    stdin: std::process::ChildStdin,
    stdout: std::io::BufReader<std::process::ChildStdout>,
    next: u64,
    /// The broker's process, as `initialize` named it.
    pub(crate) broker_pid: Option<u32>,
}

impl BridgeClient {
    /// A started bridge, initialised, with a workspace and a lease.
    pub(crate) fn session(home: &Path, name: &str) -> BpResult<(Self, String, String)> {
        Self::session_with(home, name, &[])
    }

    /// The same, asking at `initialize` for `capabilities` beyond the
    /// defaults.
    pub(crate) fn session_with(
        home: &Path,
        name: &str,
        capabilities: &[&str],
    ) -> BpResult<(Self, String, String)> {
        let mut b = Self::start(home)?;
        let init = b.call(
            "initialize",
            json!({"client": {"name": name}, "protocol": {"min": "1.0", "max": "1.1"},
                   "capabilities": capabilities}),
        )?;
        b.broker_pid = init["broker"]["processId"]
            .as_u64()
            .and_then(|p| u32::try_from(p).ok());
        let ws = b.call("workspaces/create", json!({}))?["workspaceId"]
            .as_str()
            .unwrap_or_default()
            .to_string();
        let lease = b.call("leases/create", json!({"workspaceId": ws}))?["leaseId"]
            .as_str()
            .unwrap_or_default()
            .to_string();
        Ok((b, ws, lease))
    }

    fn start(home: &Path) -> BpResult<Self> {
        let mut child = Command::new(exe())
            .args(["bridge", "--stdio"])
            .env("BROWSER_PILOT_HOME", home)
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .spawn()
            .map_err(|e| BpError::internal(e.to_string()))?;
        let stdin = child
            .stdin
            .take()
            .ok_or_else(|| BpError::internal("bridge stdin"))?;
        let stdout = child
            .stdout
            .take()
            .ok_or_else(|| BpError::internal("bridge stdout"))?;
        Ok(Self {
            child,
            stdin,
            stdout: std::io::BufReader::new(stdout),
            next: 1,
            broker_pid: None,
        })
    }

    /// The `bp bridge` relay's process.
    pub(crate) fn relay_pid(&self) -> u32 {
        self.child.id()
    }

    /// One request, waiting for its response; returns `result`.
    pub(crate) fn call(&mut self, method: &str, params: Value) -> BpResult<Value> {
        use std::io::{BufRead, Write};
        let id = self.next;
        self.next += 1;
        let mut line =
            json!({"jsonrpc": "2.0", "id": id, "method": method, "params": params}).to_string();
        line.push('\n');
        let io = |e: std::io::Error| BpError::internal(e.to_string());
        // One write (the pipe is unbuffered: `writeln!` would make two).
        self.stdin.write_all(line.as_bytes()).map_err(io)?;
        loop {
            let mut reply = String::new();
            if self.stdout.read_line(&mut reply).map_err(io)? == 0 {
                return Err(BpError::internal("the bridge closed"));
            }
            let v: Value =
                serde_json::from_str(&reply).map_err(|e| BpError::internal(e.to_string()))?;
            if v["id"] == json!(id) {
                if let Some(e) = v.get("error") {
                    return Err(BpError::internal(format!("{method}: {e}")));
                }
                return Ok(v["result"].clone());
            }
        }
    }

    pub(crate) fn tool(
        &mut self,
        ws: &str,
        lease: &str,
        name: &str,
        args: Value,
    ) -> BpResult<Value> {
        let r = self.call(
            "tools/call",
            json!({"name": name, "arguments": args, "workspaceId": ws, "leaseId": lease}),
        )?;
        match r.get("error") {
            Some(e) => Err(BpError::internal(format!("{name}: {e}"))),
            None => Ok(r["result"].clone()),
        }
    }
}

impl Drop for BridgeClient {
    fn drop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}
