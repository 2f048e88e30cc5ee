//! A `bp bridge --stdio` client for tests: writes requests, reads and
//! correlates responses by id, and keeps the notifications it sees.

use super::{bp_exe, poll_for, poll_until, Env, POLL_LIMIT};
use serde_json::{json, Value};
use std::collections::HashMap;
use std::io::{BufRead, BufReader, Write};
use std::process::{Child, ChildStdin, Command, Stdio};
use std::sync::mpsc::{self, Receiver, RecvTimeoutError};
use std::time::{Duration, Instant};

pub struct Bridge {
    child: Child,
    stdin: Option<ChildStdin>,
    lines: Receiver<Value>,
    next_id: u64,
    stash: HashMap<u64, Value>,
    pub notes: Vec<Value>,
    /// Responses in arrival order (ids), for ordering assertions.
    pub arrivals: Vec<u64>,
}

/// A client's workspace and lease.
#[derive(Clone)]
pub struct Session {
    pub workspace: String,
    pub lease: String,
    pub cursor: String,
}

impl Bridge {
    pub fn start(env: &Env) -> Self {
        let mut child = Command::new(bp_exe())
            .args(["bridge", "--stdio"])
            .env("BROWSER_PILOT_HOME", &env.home)
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .stderr(Stdio::inherit())
            .spawn()
            .expect("spawn bridge");
        let stdout = child.stdout.take().expect("bridge stdout");
        let (tx, rx) = mpsc::channel();
        std::thread::spawn(move || {
            for line in BufReader::new(stdout).lines() {
                let Ok(line) = line else { break };
                let v: Value = serde_json::from_str(&line)
                    .unwrap_or_else(|e| panic!("bridge wrote non-JSON ({e}): {line}"));
                if tx.send(v).is_err() {
                    break;
                }
            }
        });
        let stdin = child.stdin.take();
        Self {
            child,
            stdin,
            lines: rx,
            next_id: 1,
            stash: HashMap::new(),
            notes: Vec::new(),
            arrivals: Vec::new(),
        }
    }

    pub fn send_raw(&mut self, line: &str) {
        if let Some(stdin) = self.stdin.as_mut() {
            let _ = stdin.write_all(line.as_bytes());
            let _ = stdin.write_all(b"\n");
            let _ = stdin.flush();
        }
    }

    pub fn send(&mut self, method: &str, params: Value) -> u64 {
        let id = self.next_id;
        self.next_id += 1;
        self.send_raw(
            &json!({"jsonrpc": "2.0", "id": id, "method": method, "params": params}).to_string(),
        );
        id
    }

    fn pump(&mut self, timeout: Duration) -> Option<Value> {
        match self.lines.recv_timeout(timeout) {
            Ok(v) => Some(v),
            Err(RecvTimeoutError::Timeout) | Err(RecvTimeoutError::Disconnected) => None,
        }
    }

    /// The next message that is not a notification or a stashed response.
    pub fn next_message(&mut self, timeout: Duration) -> Option<Value> {
        let deadline = Instant::now() + timeout;
        loop {
            let left = deadline.saturating_duration_since(Instant::now());
            let v = self.pump(left)?;
            if v.get("method").is_some() && v.get("id").is_none() {
                self.notes.push(v);
                continue;
            }
            return Some(v);
        }
    }

    /// Wait for the response to `id`.
    pub fn wait(&mut self, id: u64) -> Value {
        if let Some(v) = self.stash.remove(&id) {
            return v;
        }
        let deadline = Instant::now() + Duration::from_secs(60);
        loop {
            let left = deadline.saturating_duration_since(Instant::now());
            let v = self
                .next_message(left)
                .unwrap_or_else(|| panic!("no response to request {id}"));
            let got = v["id"].as_u64();
            if let Some(g) = got {
                self.arrivals.push(g);
            }
            if got == Some(id) {
                return v;
            }
            if let Some(g) = got {
                self.stash.insert(g, v);
            }
        }
    }

    /// Call and require a JSON-RPC result.
    pub fn call(&mut self, method: &str, params: Value) -> Value {
        let id = self.send(method, params.clone());
        let v = self.wait(id);
        assert!(v.get("error").is_none(), "{method} {params} failed: {v}");
        v["result"].clone()
    }

    /// Call and require a JSON-RPC error; returns its `data`.
    pub fn call_err(&mut self, method: &str, params: Value) -> Value {
        let id = self.send(method, params.clone());
        let v = self.wait(id);
        assert!(
            v.get("error").is_some(),
            "{method} {params} unexpectedly succeeded: {v}"
        );
        v["error"]["data"].clone()
    }

    pub fn initialize(&mut self, name: &str) -> Value {
        self.call("initialize", json!({"client": {"name": name, "version": "1", "instanceId": "t"}, "protocol": {"min": "1.0", "max": "1.1"}}))
    }

    /// Initialize, then create a workspace and a lease.
    pub fn session(&mut self, name: &str, ttl_ms: u64) -> Session {
        self.initialize(name);
        let ws = self.call("workspaces/create", json!({"label": name}));
        let workspace = ws["workspaceId"]
            .as_str()
            .expect("workspace id")
            .to_string();
        let lease = self.call(
            "leases/create",
            json!({"workspaceId": workspace, "ttlMs": ttl_ms}),
        );
        Session {
            workspace,
            lease: lease["leaseId"].as_str().expect("lease id").to_string(),
            cursor: ws["eventCursor"].as_str().expect("cursor").to_string(),
        }
    }

    /// Send a `tools/call` without waiting; extra fields merge into params.
    pub fn send_tool(&mut self, s: &Session, name: &str, args: Value, extra: Value) -> u64 {
        let mut params = json!({"name": name, "arguments": args, "workspaceId": s.workspace, "leaseId": s.lease});
        if let (Some(p), Some(e)) = (params.as_object_mut(), extra.as_object()) {
            for (k, v) in e {
                p.insert(k.clone(), v.clone());
            }
        }
        self.send("tools/call", params)
    }

    /// `tools/call` and return `{command, result?, error?}`.
    pub fn tool(&mut self, s: &Session, name: &str, args: Value) -> Value {
        let id = self.send_tool(s, name, args, json!({}));
        let v = self.wait(id);
        assert!(
            v.get("error").is_none(),
            "tools/call {name} protocol error: {v}"
        );
        v["result"].clone()
    }

    /// A tool result that must have succeeded.
    pub fn tool_ok(&mut self, s: &Session, name: &str, args: Value) -> Value {
        let r = self.tool(s, name, args.clone());
        assert!(r.get("error").is_none(), "{name} {args} failed: {r}");
        r["result"].clone()
    }

    /// A tool error code.
    pub fn tool_code(&mut self, s: &Session, name: &str, args: Value) -> String {
        let r = self.tool(s, name, args.clone());
        r["error"]["code"]
            .as_str()
            .unwrap_or_else(|| panic!("{name} {args} did not fail: {r}"))
            .to_string()
    }

    /// Close stdin and wait for the process; returns its exit status.
    pub fn finish(&mut self) -> std::process::ExitStatus {
        self.stdin.take();
        self.exit_status("bridge exit after stdin closed")
    }

    /// Wait for the process to exit on its own, stdin still open.
    pub fn exits_with_stdin_open(&mut self) -> std::process::ExitStatus {
        self.exit_status("bridge exit after shutdown (stdin open)")
    }

    fn exit_status(&mut self, what: &str) -> std::process::ExitStatus {
        poll_for(POLL_LIMIT, what, || self.child.try_wait().ok().flatten())
    }

    /// Kill the process (a crashing client).
    pub fn kill(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

impl Bridge {
    /// Poll `commands/get` until command `command_id` (sent with that ID)
    /// is on its way to the browser.
    pub fn wait_dispatched(&mut self, command_id: &str) {
        poll_until(POLL_LIMIT, &format!("{command_id} dispatched"), || {
            let got = self.call("commands/get", json!({"commandId": command_id}));
            got["command"]["state"] == "dispatched"
        });
    }

    /// Events of `workspace` after `cursor` (up to 500).
    pub fn events_since(&mut self, workspace: &str, cursor: &str) -> Vec<Value> {
        let page = self.call(
            "events/poll",
            json!({"workspaceId": workspace, "cursor": cursor, "limit": 500}),
        );
        page["events"].as_array().cloned().unwrap_or_default()
    }

    /// Events of the session's workspace since it was created.
    pub fn events(&mut self, s: &Session) -> Vec<Value> {
        self.events_since(&s.workspace, &s.cursor)
    }

    /// The `type` of each of those events, in order.
    pub fn event_kinds(&mut self, s: &Session) -> Vec<String> {
        self.events(s)
            .iter()
            .filter_map(|e| e["type"].as_str().map(str::to_string))
            .collect()
    }

    /// Poll until an event of `kind` appears after `cursor` (at most
    /// [`POLL_LIMIT`]); returns it.
    pub fn wait_event(&mut self, workspace: &str, cursor: &str, kind: &str) -> Value {
        poll_for(POLL_LIMIT, &format!("a {kind} event"), || {
            self.events_since(workspace, cursor)
                .into_iter()
                .find(|e| e["type"] == kind)
        })
    }
}

/// The user tab at about:blank (the launched browser's first tab), as `s`
/// sees it.
pub fn user_blank_tab(b: &mut Bridge, s: &Session) -> String {
    let tabs = b.tool_ok(s, "browser.tabs.list", json!({}));
    tabs["tabs"]
        .as_array()
        .into_iter()
        .flatten()
        .find(|t| t["origin"] == "user_tab" && t["url"] == "about:blank")
        .map(|t| t["targetId"].as_str().unwrap().to_string())
        .unwrap_or_else(|| panic!("no user about:blank tab in {tabs}"))
}

/// Two unrelated clients ("agent-a" with `ttl_a`, "agent-b" with 60 s),
/// each with its own workspace and lease.
pub fn two_clients(env: &Env, ttl_a: u64) -> (Bridge, Session, Bridge, Session) {
    let mut a = Bridge::start(env);
    let mut b = Bridge::start(env);
    let sa = a.session("agent-a", ttl_a);
    let sb = b.session("agent-b", 60_000);
    (a, sa, b, sb)
}

impl Drop for Bridge {
    fn drop(&mut self) {
        self.kill();
    }
}
