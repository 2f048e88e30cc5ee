//! A `bp mcp` process (or any stdio MCP server) spoken to on its pipes,
//! for the bench's MCP rows.

use super::exe;
use browser_pilot_host::{BpError, BpResult};
use serde_json::{json, Value};
use std::io::{BufRead, BufReader, Write};
use std::path::Path;
use std::process::{Child, ChildStdin, ChildStdout, Command, Stdio};

/// A `bp mcp` process spoken to on its pipes.
pub(crate) struct McpClient {
    child: Child,
    stdin: Option<ChildStdin>,
    stdout: BufReader<ChildStdout>,
    next: u64,
}

impl McpClient {
    pub(crate) fn start(home: &Path) -> BpResult<Self> {
        let mut command = Command::new(exe());
        command
            .args(["mcp", "--client-name", "bench-mcp"])
            .env("BROWSER_PILOT_HOME", home);
        Self::spawn(command)
    }

    /// Any stdio MCP server, initialized.
    pub(crate) fn spawn(mut command: Command) -> BpResult<Self> {
        let mut child = command
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .stderr(Stdio::null())
            .spawn()
            .map_err(|e| BpError::internal(format!("{:?}: {e}", command.get_program())))?;
        let stdin = child.stdin.take();
        let stdout = child
            .stdout
            .take()
            .ok_or_else(|| BpError::internal("bp mcp stdout"))?;
        let mut c = Self {
            child,
            stdin,
            stdout: BufReader::new(stdout),
            next: 1,
        };
        c.request(
            "initialize",
            json!({"protocolVersion": "2025-06-18", "capabilities": {},
                   "clientInfo": {"name": "bench", "version": "1"}}),
        )?;
        c.send(&json!({"jsonrpc": "2.0", "method": "notifications/initialized"}))?;
        Ok(c)
    }

    fn send(&mut self, msg: &Value) -> BpResult<()> {
        let mut line = msg.to_string();
        line.push('\n');
        let stdin = self
            .stdin
            .as_mut()
            .ok_or_else(|| BpError::internal("bp mcp stdin closed"))?;
        stdin
            .write_all(line.as_bytes())
            .map_err(|e| BpError::internal(format!("bp mcp: {e}")))
    }

    pub(crate) fn request(&mut self, method: &str, params: Value) -> BpResult<Value> {
        let id = self.next;
        self.next += 1;
        self.send(&json!({"jsonrpc": "2.0", "id": id, "method": method, "params": params}))?;
        loop {
            let mut line = String::new();
            let n = self
                .stdout
                .read_line(&mut line)
                .map_err(|e| BpError::internal(format!("bp mcp: {e}")))?;
            if n == 0 {
                return Err(BpError::internal("bp mcp closed its output"));
            }
            let v: Value = serde_json::from_str(&line).unwrap_or(Value::Null);
            if v["id"] == json!(id) {
                if let Some(e) = v.get("error") {
                    return Err(BpError::internal(format!("{method}: {e}")));
                }
                return Ok(v["result"].clone());
            }
        }
    }

    /// A broker tool through MCP; its structured content.
    pub(crate) fn tool(&mut self, name: &str, args: Value) -> BpResult<Value> {
        let r = self.request(
            "tools/call",
            json!({"name": name.replace('.', "_"), "arguments": args}),
        )?;
        if r["isError"] == true {
            return Err(BpError::internal(format!("{name}: {}", r["content"])));
        }
        Ok(r["structuredContent"].clone())
    }

    /// Close stdin (the session ends and releases) and wait for the exit.
    pub(crate) fn finish(mut self) {
        self.stdin.take();
        let _ = self.child.wait();
    }
}

impl Drop for McpClient {
    fn drop(&mut self) {
        if self.stdin.is_some() {
            let _ = self.child.kill();
            let _ = self.child.wait();
        }
    }
}
