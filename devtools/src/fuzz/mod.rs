//! The protocol fuzzer: generated input fed to the broker's real JSON-RPC
//! framing and method dispatch, in process and with no browser. Each
//! input is one connection (`broker::serve_io` over in-memory pipes).
//! Checked on every input: no panic, no hang past the deadline, bounded
//! memory, and every reply valid JSON-RPC with a stable code (`check`).
//!
//! The broker is a real one: default components, a state directory of its
//! own, and a policy that removes `browser.connect`, so nothing can launch
//! or reach a browser. File paths in `artifacts/import`/`export` are kept
//! inside the harness directory.

mod check;
pub mod gen;
pub mod gen_mcp;
mod jobs;
pub mod mcp;
mod minimise;

pub use jobs::run;

use browser_pilot_host::broker::Broker;
use browser_pilot_host::{BpError, BpResult};
use gen::{Input, Rng, ToolShape};
use serde_json::{json, Value};
use std::collections::{BTreeMap, HashMap};
use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};
use tokio::io::{AsyncBufReadExt, AsyncReadExt, AsyncWriteExt};

/// An input that takes longer than this has hung.
const HANG_LIMIT: Duration = Duration::from_secs(10);
/// Largest JSON-RPC message an input holds before it is cut (the broker
/// accepts 16 MiB; staying below keeps the rate up).
const MAX_INPUT: usize = 1 << 20;

/// What to run.
pub struct Options {
    pub inputs: u64,
    /// Stop after this long even if fewer inputs ran.
    pub time_limit: Option<Duration>,
    pub seed: u64,
    /// Resident memory above this fails the run.
    pub max_rss_mb: u64,
    /// Where minimised failing inputs are written.
    pub out: Option<PathBuf>,
}

/// One broken invariant, with its smallest reproducing input.
pub struct Failure {
    pub violation: String,
    pub input: Vec<u8>,
    pub prologue: bool,
}

/// What a run found.
#[derive(Default)]
pub struct Report {
    pub inputs: u64,
    pub elapsed: Duration,
    pub replies: u64,
    pub codes: BTreeMap<String, u64>,
    pub rss_start_kb: u64,
    pub rss_peak_kb: u64,
    pub rss_end_kb: u64,
    pub failures: Vec<Failure>,
}

impl Report {
    /// Add another harness's report (run side by side).
    pub fn merge(&mut self, other: Report) {
        self.inputs += other.inputs;
        self.elapsed = self.elapsed.max(other.elapsed);
        self.replies += other.replies;
        for (code, n) in other.codes {
            *self.codes.entry(code).or_default() += n;
        }
        self.rss_start_kb = self.rss_start_kb.min(other.rss_start_kb).max(1);
        self.rss_peak_kb = self.rss_peak_kb.max(other.rss_peak_kb);
        self.rss_end_kb = self.rss_end_kb.max(other.rss_end_kb);
        self.failures.extend(other.failures);
    }

    pub fn to_json(&self) -> Value {
        let rate = self.inputs as f64 / self.elapsed.as_secs_f64().max(1e-9);
        json!({
            "inputs": self.inputs,
            "seconds": (self.elapsed.as_secs_f64() * 10.0).round() / 10.0,
            "inputsPerSecond": rate.round(),
            "replies": self.replies,
            "errorCodes": self.codes,
            "rssKb": {"start": self.rss_start_kb, "peak": self.rss_peak_kb, "end": self.rss_end_kb},
            "failures": self.failures.iter().map(|f| json!({
                "violation": f.violation,
                "prologue": f.prologue,
                "input": String::from_utf8_lossy(&f.input),
            })).collect::<Vec<_>>(),
        })
    }
}

/// Panics seen anywhere in the process since the harness started.
static PANICS: AtomicU64 = AtomicU64::new(0);
static LAST_PANIC: Mutex<String> = Mutex::new(String::new());

/// A broker to feed, and what the generators need to know about it.
pub struct Harness {
    rt: tokio::runtime::Runtime,
    broker: Arc<Broker>,
    _claim: browser_pilot_host::broker::Claim,
    dir: PathBuf,
    tools: Vec<ToolShape>,
}

impl Harness {
    /// A broker over the default components in a fresh directory under
    /// `parent`.
    pub fn new(parent: &Path) -> BpResult<Self> {
        let dir = parent.join(format!(
            "bp-fuzz-{}",
            browser_pilot_host::ids::random_hex(6)
        ));
        let paths = browser_pilot_host::system::paths::Paths::at(dir.join("home"));
        paths.prepare()?;
        let rt = tokio::runtime::Builder::new_current_thread()
            .enable_all()
            .build()
            .map_err(|e| BpError::internal(format!("tokio: {e}")))?;
        let policy = browser_pilot_host::runtime::policy::Policy::load(
            None,
            &[],
            &["browser.connect".into()],
        )?;
        let natives = browser_pilot_host::broker::native::rows::rows();
        let native_names: Vec<String> = natives.iter().map(|n| n.name.clone()).collect();
        let runtime = rt.block_on(browser_pilot_host::runtime::Runtime::load(
            browser_pilot_host::components::embedded(),
            natives.clone(),
            policy,
            Some(&paths.cache),
        ))?;
        let tools = runtime
            .manifest(browser_pilot_host::granter::Grants {
                eval: true,
                page_consequential: true,
                state_load_user: true,
            })
            .into_iter()
            .filter(|t| !native_names.iter().any(|n| t["name"] == n.as_str()))
            // Every native tool, the removed one too: its refusal is fuzzed.
            .chain(natives.iter().map(|n| n.to_json()))
            .map(|t| ToolShape {
                name: t["name"].as_str().unwrap_or_default().to_string(),
                args: t["inputSchema"]["properties"]
                    .as_object()
                    .map(|p| p.keys().cloned().collect())
                    .unwrap_or_default(),
            })
            .collect();
        let claim = rt.block_on(browser_pilot_host::broker::Claim::acquire(&paths))?;
        let broker = Broker::new(paths, runtime, &claim)?;
        static HOOK: std::sync::Once = std::sync::Once::new();
        HOOK.call_once(|| {
            let prev = std::panic::take_hook();
            std::panic::set_hook(Box::new(move |info| {
                PANICS.fetch_add(1, Ordering::SeqCst);
                if let Ok(mut last) = LAST_PANIC.lock() {
                    *last = info.to_string();
                }
                if std::env::var_os("BP_FUZZ_SHOW_PANICS").is_some() {
                    prev(info);
                }
            }));
        });
        Ok(Self {
            rt,
            broker,
            _claim: claim,
            dir,
            tools,
        })
    }

    /// Run `n` generated inputs (or until the time limit).
    pub fn run(&self, opts: &Options) -> Report {
        let mut report = Report {
            rss_start_kb: rss_kb(),
            ..Report::default()
        };
        let mut rng = Rng::new(opts.seed);
        let started = Instant::now();
        while report.inputs < opts.inputs {
            if opts.time_limit.is_some_and(|t| started.elapsed() >= t) {
                break;
            }
            let input = gen::input(&mut rng, &self.tools);
            report.inputs += 1;
            match self.check(&input) {
                Ok(tally) => {
                    report.replies += tally.replies;
                    for (code, n) in tally.codes {
                        *report.codes.entry(code).or_default() += n;
                    }
                }
                Err(violation) => {
                    let f = self.minimise(input, violation);
                    if let Some(dir) = &opts.out {
                        let name = format!("fuzz-failure-{}.bin", report.failures.len() + 1);
                        let _ = std::fs::write(dir.join(name), &f.input);
                    }
                    report.failures.push(f);
                    if report.failures.len() >= 5 {
                        break;
                    }
                }
            }
            // The broker's sweeper does this every second.
            if report.inputs.is_multiple_of(200) {
                self.rt
                    .block_on(browser_pilot_host::broker::release_orphans(&self.broker));
            }
            if report.inputs.is_multiple_of(1000) {
                let rss = rss_kb();
                report.rss_peak_kb = report.rss_peak_kb.max(rss);
                if rss > opts.max_rss_mb * 1024 {
                    report.failures.push(Failure {
                        violation: format!(
                            "resident memory {} MB passed the bound of {} MB",
                            rss / 1024,
                            opts.max_rss_mb
                        ),
                        input: Vec::new(),
                        prologue: false,
                    });
                    break;
                }
            }
        }
        report.elapsed = started.elapsed();
        report.rss_end_kb = rss_kb();
        report.rss_peak_kb = report.rss_peak_kb.max(report.rss_end_kb);
        report
    }

    /// Feed one input; `Err` names the broken invariant.
    pub fn check(&self, input: &Input) -> Result<check::Tally, String> {
        let before = PANICS.load(Ordering::SeqCst);
        let fed = self.rt.block_on(async {
            tokio::time::timeout(HANG_LIMIT, self.feed(&input.bytes, input.prologue)).await
        });
        let panics = PANICS.load(Ordering::SeqCst) - before;
        if panics > 0 {
            let last = LAST_PANIC.lock().map(|l| l.clone()).unwrap_or_default();
            return Err(format!("panic: {last}"));
        }
        let (sent, output) = fed.map_err(|_| format!("no end within {HANG_LIMIT:?}"))??;
        check::replies(&output, &check::methods_by_id(&sent))
    }

    /// One connection: the optional prologue, then the input, then read
    /// until the broker closes. Returns what was sent and what came back.
    async fn feed(&self, input: &[u8], prologue: bool) -> Result<(Vec<u8>, Vec<u8>), String> {
        let (client, server) = tokio::io::duplex(1 << 16);
        let (sr, sw) = tokio::io::split(server);
        let serving = tokio::spawn(browser_pilot_host::broker::serve_io(
            self.broker.clone(),
            sr,
            sw,
        ));
        let (cr, mut cw) = tokio::io::split(client);
        let mut cr = tokio::io::BufReader::new(cr);
        let mut out = Vec::new();
        let mut names = HashMap::from([("$DIR".to_string(), self.dir.display().to_string())]);
        if prologue {
            let init = r#"{"jsonrpc":"2.0","id":"fz-init","method":"initialize","params":{"client":{"name":"fz"},"session":{"workspaceKey":"fz"}}}"#;
            let _ = cw.write_all(format!("{init}\n").as_bytes()).await;
            let mut line = Vec::new();
            let _ = cr.read_until(b'\n', &mut line).await;
            let reply: Value =
                serde_json::from_slice(&line).map_err(|e| format!("prologue reply: {e}"))?;
            let session = &reply["result"]["session"];
            for (name, key) in [
                ("$WS", "workspaceId"),
                ("$LEASE", "leaseId"),
                ("$SECRET", "resumeSecret"),
            ] {
                let v = session[key].as_str().unwrap_or_default().to_string();
                names.insert(name.to_string(), v);
            }
            out.extend_from_slice(&line);
        }
        let sent = confine_paths(&substitute(input, &names), &self.dir);
        let write = async {
            let _ = cw.write_all(&sent).await;
            let _ = cw.shutdown().await;
        };
        let read = async {
            let _ = cr.read_to_end(&mut out).await;
        };
        tokio::join!(write, read);
        let _ = serving.await;
        Ok((sent, out))
    }
}

impl Drop for Harness {
    fn drop(&mut self) {
        let _ = std::fs::remove_dir_all(&self.dir);
    }
}

/// Replace the `$NAME` placeholders, and cut the input at [`MAX_INPUT`].
fn substitute(input: &[u8], names: &HashMap<String, String>) -> Vec<u8> {
    let mut text = String::from_utf8_lossy(&input[..input.len().min(MAX_INPUT)]).into_owned();
    if !text.contains('$') {
        return input[..input.len().min(MAX_INPUT)].to_vec();
    }
    for (name, value) in names {
        text = text.replace(name.as_str(), value);
    }
    text.into_bytes()
}

/// Keep every `artifacts/import` and `artifacts/export` path inside the
/// harness directory, however the input was mutated: lines the broker
/// would parse as one of those requests get their path rewritten.
fn confine_paths(input: &[u8], dir: &Path) -> Vec<u8> {
    if !input.windows(10).any(|w| w == b"artifacts/") {
        return input.to_vec();
    }
    let mut out = Vec::with_capacity(input.len());
    for (i, line) in input.split(|b| *b == b'\n').enumerate() {
        if i > 0 {
            out.push(b'\n');
        }
        let text = String::from_utf8_lossy(line);
        let parsed = serde_json::from_str::<Value>(text.trim()).ok();
        match parsed {
            Some(mut v)
                if v["method"]
                    .as_str()
                    .is_some_and(|m| m.starts_with("artifacts/")) =>
            {
                if let Some(p) = v.get_mut("params").and_then(Value::as_object_mut) {
                    if p.contains_key("path") {
                        p.insert("path".into(), json!(dir.join("file").display().to_string()));
                    }
                }
                out.extend_from_slice(v.to_string().as_bytes());
            }
            _ => out.extend_from_slice(line),
        }
    }
    out
}

/// The process's resident set, in KiB.
fn rss_kb() -> u64 {
    std::fs::read_to_string("/proc/self/status")
        .ok()
        .and_then(|s| browser_pilot_host::discovery::procfs::parse_status_number(&s, "VmRSS"))
        .unwrap_or(0)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn paths_are_confined_and_placeholders_filled() {
        let dir = Path::new("/tmp/fz");
        let line =
            br#"{"method":"artifacts/export","params":{"artifactId":"a","path":"/etc/passwd"}}"#;
        let out = String::from_utf8(confine_paths(line, dir)).unwrap();
        assert!(
            out.contains("/tmp/fz/file") && !out.contains("passwd"),
            "{out}"
        );
        let names = HashMap::from([("$WS".to_string(), "ws_1".to_string())]);
        assert_eq!(substitute(b"a $WS b", &names), b"a ws_1 b");
    }
}
