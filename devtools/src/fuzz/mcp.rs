//! `bp fuzz --mcp`: the fuzzer's generated input fed to a real `bp mcp`
//! process over its stdin, as an MCP host would write it. The broker it
//! talks to runs in a home of its own with `browser.connect` removed, so
//! nothing can launch or reach a browser, and path arguments stay inside
//! the run's directory. After every input a `ping` must come back within
//! the hang limit; every line the server writes must hold the MCP reply
//! rules (`gen_mcp::check_line`); at the end, stdin closes and the server
//! must exit 0.

use super::gen::Rng;
use super::gen_mcp::{self, McpTool};
use crate::bench::exe;
use browser_pilot_host::{BpError, BpResult};
use serde_json::{json, Value};
use std::collections::{BTreeMap, HashMap, HashSet};
use std::path::{Path, PathBuf};
use std::process::Stdio;
use std::time::{Duration, Instant};
use tokio::io::{AsyncBufReadExt, AsyncWriteExt, BufReader};
use tokio::process::{Child, ChildStdin, ChildStdout, Command};

/// A probe not answered within this has hung the server.
const HANG_LIMIT: Duration = Duration::from_secs(10);
/// Longest failing input printed.
const SHOW_INPUT: usize = 2000;

/// The run's directory, broker and server; all stopped and removed on drop.
struct World {
    dir: PathBuf,
    home: PathBuf,
    broker: Option<std::process::Child>,
}

impl Drop for World {
    fn drop(&mut self) {
        let _ = std::process::Command::new(exe())
            .args(["broker", "stop", "--force"])
            .env("BROWSER_PILOT_HOME", &self.home)
            .stdout(Stdio::null())
            .stderr(Stdio::null())
            .status();
        if let Some(mut b) = self.broker.take() {
            let _ = b.kill();
            let _ = b.wait();
        }
        let _ = std::fs::remove_dir_all(&self.dir);
    }
}

fn io(what: &str) -> impl Fn(std::io::Error) -> BpError + '_ {
    move |e| BpError::internal(format!("{what}: {e}"))
}

impl World {
    fn start(parent: &Path) -> BpResult<Self> {
        let dir = parent.join(format!(
            "bp-fuzz-mcp-{}",
            browser_pilot_host::ids::random_hex(6)
        ));
        let home = dir.join("home");
        std::fs::create_dir_all(dir.join("files")).map_err(io("fuzz directory"))?;
        let mut world = Self {
            dir,
            home,
            broker: None,
        };
        let broker = std::process::Command::new(exe())
            .args(["broker", "serve", "--deny-tool", "browser.connect"])
            .env("BROWSER_PILOT_HOME", &world.home)
            .stdout(Stdio::null())
            .stderr(Stdio::null())
            .spawn()
            .map_err(io("bp broker serve"))?;
        world.broker = Some(broker);
        let until = Instant::now() + Duration::from_secs(30);
        loop {
            let up = std::process::Command::new(exe())
                .args(["broker", "status"])
                .env("BROWSER_PILOT_HOME", &world.home)
                .stdout(Stdio::null())
                .stderr(Stdio::null())
                .status()
                .is_ok_and(|s| s.success());
            if up {
                return Ok(world);
            }
            if Instant::now() > until {
                return Err(BpError::internal("the fuzz broker did not start"));
            }
            std::thread::sleep(Duration::from_millis(50));
        }
    }
}

/// The server under test, spoken to line by line.
struct Server {
    child: Child,
    stdin: Option<ChildStdin>,
    lines: tokio::io::Lines<BufReader<ChildStdout>>,
    /// Request IDs (as JSON text) by how they were used: by `tools/call`
    /// only, or also by another method (then a result is not checked as
    /// a call's).
    ids: HashMap<String, (u64, u64)>,
    checked: u64,
    codes: BTreeMap<String, u64>,
}

impl Server {
    fn spawn(world: &World) -> BpResult<Self> {
        let mut child = Command::new(exe())
            .args(["mcp", "--client-name", "bp-fuzz-mcp"])
            .env("BROWSER_PILOT_HOME", &world.home)
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .stderr(Stdio::null())
            .kill_on_drop(true)
            .spawn()
            .map_err(io("bp mcp"))?;
        let stdin = child.stdin.take();
        let stdout = child
            .stdout
            .take()
            .ok_or_else(|| BpError::internal("bp mcp has no stdout"))?;
        Ok(Self {
            child,
            stdin,
            lines: BufReader::new(stdout).lines(),
            ids: HashMap::new(),
            checked: 0,
            codes: BTreeMap::new(),
        })
    }

    async fn send(&mut self, bytes: &[u8]) -> Result<(), String> {
        let stdin = self.stdin.as_mut().ok_or("stdin already closed")?;
        stdin
            .write_all(bytes)
            .await
            .map_err(|e| format!("bp mcp stopped reading its input: {e}"))?;
        stdin.flush().await.map_err(|e| format!("flush: {e}"))
    }

    /// Note the IDs of the requests in `bytes` (as the server frames them).
    fn note(&mut self, bytes: &[u8]) {
        for line in String::from_utf8_lossy(bytes).lines() {
            let Ok(v) = serde_json::from_str::<Value>(line.trim()) else {
                continue;
            };
            if let (Some(id), Some(m)) = (v.get("id"), v["method"].as_str()) {
                let e = self.ids.entry(id.to_string()).or_default();
                if m == "tools/call" {
                    e.0 += 1;
                } else {
                    e.1 += 1;
                }
            }
        }
    }

    /// Read and check lines until the reply to request `id` came.
    async fn until(&mut self, id: &str) -> Result<Value, String> {
        let deadline = tokio::time::Instant::now() + HANG_LIMIT;
        loop {
            let line = tokio::time::timeout_at(deadline, self.lines.next_line())
                .await
                .map_err(|_| format!("no answer to `{id}` within {HANG_LIMIT:?}"))?
                .map_err(|e| format!("reading the server: {e}"))?
                .ok_or("bp mcp closed its output (it exited)")?;
            let calls: HashSet<String> = self
                .ids
                .iter()
                .filter(|(_, (c, o))| *c > 0 && *o == 0)
                .map(|(k, _)| k.clone())
                .collect();
            gen_mcp::check_line(&line, &calls).map_err(|why| format!("{why}: {line:.300}"))?;
            self.checked += 1;
            let v: Value = serde_json::from_str(&line).unwrap_or(Value::Null);
            self.count(&v);
            if v["id"] == id {
                return Ok(v);
            }
        }
    }

    fn count(&mut self, v: &Value) {
        let code = if let Some(c) = v["error"]["code"].as_i64() {
            format!("rpc {c}")
        } else if v["result"]["isError"] == true {
            let text = v["result"]["content"][0]["text"]
                .as_str()
                .unwrap_or_default();
            text.split(']')
                .next()
                .unwrap_or_default()
                .trim_start_matches("error[")
                .to_string()
        } else {
            return;
        };
        *self.codes.entry(code).or_default() += 1;
    }

    async fn request(&mut self, id: &str, method: &str, params: Value) -> Result<Value, String> {
        let line = json!({"jsonrpc": "2.0", "id": id, "method": method, "params": params});
        self.send(format!("{line}\n").as_bytes()).await?;
        self.until(id).await
    }
}

/// What a run found.
struct Found {
    inputs: u64,
    elapsed: Duration,
    failure: Option<(String, Vec<u8>)>,
}

/// Run `inputs` generated inputs (or for `seconds`) against one `bp mcp`.
pub async fn run(inputs: u64, seconds: Option<u64>, seed: u64, json: bool) -> BpResult<()> {
    // First, before anything can fail: the seed that replays this run.
    eprintln!("{}", super::jobs::seed_line("fuzz --mcp", seed, 1));
    let world = World::start(&std::env::temp_dir())?;
    let mut server = Server::spawn(&world)?;
    let started = Instant::now();
    let found = drive(&mut server, &world, inputs, seconds, seed, started).await;
    // An orderly end: stdin closes and the server exits 0.
    drop(server.stdin.take());
    let exited = tokio::time::timeout(Duration::from_secs(30), server.child.wait()).await;
    let exit_problem = match exited {
        Ok(Ok(status)) if status.success() => None,
        Ok(Ok(status)) => Some(format!("bp mcp exited with {status} after stdin closed")),
        _ => Some("bp mcp did not exit within 30 s of stdin closing".to_string()),
    };
    let found = found.map_err(BpError::internal)?;
    report(&server, &found, json);
    drop(world);
    if let Some((why, input)) = found.failure {
        let shown = String::from_utf8_lossy(&input[..input.len().min(SHOW_INPUT)]).into_owned();
        return Err(BpError::internal(format!(
            "bp mcp broke an invariant: {why}\ninput: {shown:?}"
        )));
    }
    if let Some(why) = exit_problem {
        return Err(BpError::internal(why));
    }
    Ok(())
}

async fn drive(
    server: &mut Server,
    world: &World,
    inputs: u64,
    seconds: Option<u64>,
    seed: u64,
    started: Instant,
) -> Result<Found, String> {
    let init = json!({"protocolVersion": "2025-06-18", "capabilities": {},
        "clientInfo": {"name": "bp-fuzz", "version": "1"}});
    let answer = server.request("fz-init", "initialize", init).await?;
    if answer.get("result").is_none() {
        return Err(format!("initialize failed: {answer}"));
    }
    server
        .send(b"{\"jsonrpc\":\"2.0\",\"method\":\"notifications/initialized\"}\n")
        .await?;
    let listed = server.request("fz-list", "tools/list", json!({})).await?;
    let tools: Vec<McpTool> = listed["result"]["tools"]
        .as_array()
        .map(|list| {
            list.iter()
                .map(|t| McpTool {
                    name: t["name"].as_str().unwrap_or_default().to_string(),
                    args: t["inputSchema"]["properties"]
                        .as_object()
                        .map(|p| p.keys().cloned().collect())
                        .unwrap_or_default(),
                })
                .collect()
        })
        .unwrap_or_default();
    if tools.is_empty() {
        return Err(format!("tools/list offered nothing: {listed:.300}"));
    }
    let files = world.dir.join("files").display().to_string();
    let limit = seconds.map(Duration::from_secs);
    let mut rng = Rng::new(seed);
    let mut n = 0;
    while n < inputs && limit.is_none_or(|l| started.elapsed() < l) {
        let input = gen_mcp::input(&mut rng, &tools);
        let input = String::from_utf8_lossy(&input)
            .replace("$DIR", &files)
            .into_bytes();
        n += 1;
        server.note(&input);
        let probe = format!("fz-probe-{n}");
        let fed = async {
            server.send(&input).await?;
            // A line the input left open is ended first, so the probe is
            // a line of its own.
            let line = json!({"jsonrpc": "2.0", "id": probe, "method": "ping"});
            server.send(format!("\n{line}\n").as_bytes()).await?;
            server.until(&probe).await
        };
        match fed.await {
            Ok(reply) if reply.get("result").is_some() => {}
            Ok(reply) => {
                let why = format!("the probe ping was answered {reply}");
                return Ok(found(n, started, Some((why, input))));
            }
            Err(why) => return Ok(found(n, started, Some((why, input)))),
        }
    }
    Ok(found(n, started, None))
}

fn found(inputs: u64, started: Instant, failure: Option<(String, Vec<u8>)>) -> Found {
    Found {
        inputs,
        elapsed: started.elapsed(),
        failure,
    }
}

fn report(server: &Server, found: &Found, json: bool) {
    let secs = found.elapsed.as_secs_f64();
    if json {
        let v = json!({"target": "mcp", "inputs": found.inputs, "seconds": secs,
            "linesChecked": server.checked, "codes": server.codes,
            "failure": found.failure.as_ref().map(|(why, _)| why)});
        println!("{v}");
        return;
    }
    println!(
        "fuzz --mcp: {} inputs in {:.1} s ({:.0} inputs/s), {} lines checked",
        found.inputs,
        secs,
        found.inputs as f64 / secs.max(1e-9),
        server.checked
    );
    let codes: Vec<String> = server
        .codes
        .iter()
        .map(|(c, n)| format!("{c} {n}"))
        .collect();
    println!("errors by code: {}", codes.join(", "));
}
