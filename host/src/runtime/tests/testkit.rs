//! A test environment for the default components without a browser: the
//! embedded components, loaded once, run against real host contexts whose
//! DevTools connection is scripted (`Cdp::scripted`). A test decides what
//! the "browser" answers, and can count what was sent. Spin's
//! `factors-test` `TestEnvironment` is the model.

use crate::browser::call::{CallSetup, Caller, TargetCall};
use crate::browser::observe::observations::Observations;
use crate::browser::registry::Registry;
use crate::browser::workspace::tabs::{OpenedTab, TabsFuture, TabsHost};
use crate::browser::workspace::{WorkspaceCall, WorkspaceSetup};
use crate::cdp::{Cdp, Scripted};
use crate::error::{BpError, BpResult};
use crate::runtime::policy::Policy;
use crate::runtime::{Runtime, Scope};
use serde_json::{json, Value};
use std::sync::atomic::{AtomicBool, AtomicU64, AtomicUsize, Ordering};
use std::sync::{Arc, Mutex, OnceLock};

/// The default components, compiled once per test process.
pub fn runtime() -> &'static Runtime {
    static RUNTIME: OnceLock<Runtime> = OnceLock::new();
    RUNTIME.get_or_init(load_runtime)
}

/// A runtime of its own for one test, whose process-wide counters (such
/// as the instances made ahead) only that test moves. Leaked: it lives as
/// long as the test process, as [`runtime`] does.
pub fn private_runtime() -> &'static Runtime {
    Box::leak(Box::new(load_runtime()))
}

fn load_runtime() -> Runtime {
    // Compiled on a thread of its own: tests may already be inside a
    // tokio runtime.
    std::thread::spawn(|| {
        let rt = tokio::runtime::Builder::new_current_thread()
            .enable_all()
            .build()
            .unwrap_or_else(|e| panic!("tokio: {e}"));
        // Inside the target dir: tests leave nothing in /tmp.
        let cache =
            std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("../target/testkit-cache");
        // The components alone: no broker-native rows.
        rt.block_on(Runtime::load(
            crate::components::embedded(),
            Vec::new(),
            Policy::default(),
            Some(&cache),
        ))
        .unwrap_or_else(|e| panic!("loading the default components: {e}"))
    })
    .join()
    .unwrap_or_else(|_| panic!("loading the default components panicked"))
}

/// Tab operations are not available in these tests.
struct NoTabs;

impl TabsHost for NoTabs {
    fn open(&self, _url: Option<String>) -> TabsFuture<'_, OpenedTab> {
        Box::pin(async { Err(BpError::internal("no tabs in the test environment")) })
    }
    fn close(&self, _target_id: String) -> TabsFuture<'_, Vec<String>> {
        Box::pin(async { Err(BpError::internal("no tabs in the test environment")) })
    }
    fn close_managed(&self) -> TabsFuture<'_, Vec<String>> {
        Box::pin(async { Err(BpError::internal("no tabs in the test environment")) })
    }
}

/// One scripted "browser" with one page target `T1` (session `S1`).
pub struct TestEnv {
    cdp: Cdp,
    registry: Arc<Registry>,
    pub observations: Arc<Observations>,
    artifacts: Arc<crate::store::artifacts::ArtifactStore>,
    network: Arc<crate::store::network::Network>,
    /// Commands the scripted browser answered.
    pub sent: Arc<AtomicUsize>,
    /// Their methods, in the order they were answered, each with how many
    /// commands had been sent behind it when it was answered.
    log: Arc<Mutex<Vec<(String, u64)>>>,
    /// The runtime its tools run on ([`runtime`] unless [`TestEnv::on`]).
    runtime: &'static Runtime,
    _dir: TempDir,
}

struct TempDir(std::path::PathBuf);

impl Drop for TempDir {
    fn drop(&mut self) {
        let _ = std::fs::remove_dir_all(&self.0);
    }
}

impl TestEnv {
    /// A page at `url` whose DevTools answers come from `answer`.
    pub fn new(url: &str, answer: Scripted) -> BpResult<Self> {
        Self::answering_input_late(url, answer, None)
    }

    /// [`TestEnv::new`], with inputs answered `late` (see
    /// [`Cdp::scripted_late`]).
    pub fn answering_input_late(
        url: &str,
        answer: Scripted,
        late: Option<std::time::Duration>,
    ) -> BpResult<Self> {
        static N: AtomicUsize = AtomicUsize::new(0);
        let sent = Arc::new(AtomicUsize::new(0));
        let counter = sent.clone();
        let log: Arc<Mutex<Vec<(String, u64)>>> = Arc::default();
        let record = log.clone();
        // The connection's count of commands sent, to tell how many were
        // already sent behind the one being answered.
        let issued: Arc<OnceLock<Arc<AtomicU64>>> = Arc::default();
        let issued_seen = issued.clone();
        let cdp = Cdp::scripted_late(
            Arc::new(move |m: &str, s: Option<&str>, p: &Value| {
                let answered = counter.fetch_add(1, Ordering::SeqCst) as u64 + 1;
                let issued = issued_seen
                    .get()
                    .map_or(answered, |c| c.load(Ordering::SeqCst));
                record
                    .lock()
                    .unwrap_or_else(|e| e.into_inner())
                    .push((m.to_string(), issued.saturating_sub(answered)));
                answer(m, s, p)
            }),
            late,
        );
        let _ = issued.set(cdp.issued());
        let (signals, _rx) = tokio::sync::mpsc::unbounded_channel();
        let registry = Arc::new(Registry::with_signals(signals));
        registry.update("T1", |t| {
            t.kind = "page".into();
            t.url = url.into();
            t.main_frame = Some("F1".into());
            t.loader = Some("L1".into());
            t.loaded_loader = Some("L1".into());
        });
        registry.set_session("T1", "S1");
        let dir = std::env::temp_dir().join(format!(
            "bp-testkit-{}-{}",
            std::process::id(),
            N.fetch_add(1, Ordering::SeqCst)
        ));
        let artifacts = Arc::new(crate::store::artifacts::ArtifactStore::open(
            &dir,
            crate::store::artifacts::ArtifactLimits::default(),
        )?);
        Ok(Self {
            cdp,
            registry,
            observations: Arc::default(),
            artifacts,
            network: Arc::default(),
            sent,
            log,
            runtime: runtime(),
            _dir: TempDir(dir),
        })
    }

    /// This environment with its tools run on `runtime` (for a test that
    /// reads the runtime's counters, see [`private_runtime`]).
    pub fn on(mut self, runtime: &'static Runtime) -> Self {
        self.runtime = runtime;
        self
    }

    /// The methods sent so far, oldest first.
    pub fn methods(&self) -> Vec<String> {
        let log = self.log.lock().unwrap_or_else(|e| e.into_inner());
        log.iter().map(|(m, _)| m.clone()).collect()
    }

    /// For each command whose method starts with `prefix`, oldest first:
    /// how many commands had been sent behind it, unanswered, when the
    /// browser answered it. (Tests run on one thread, so the host sends
    /// nothing while an answer is made.)
    pub fn sent_behind(&self, prefix: &str) -> Vec<u64> {
        let log = self.log.lock().unwrap_or_else(|e| e.into_inner());
        log.iter()
            .filter(|(m, _)| m.starts_with(prefix))
            .map(|(_, n)| *n)
            .collect()
    }

    /// The connection's registry (its counters).
    pub fn registry(&self) -> &Registry {
        &self.registry
    }

    /// Forget the methods sent so far (for example after an observation).
    pub fn clear_methods(&self) {
        self.log.lock().unwrap_or_else(|e| e.into_inner()).clear();
    }

    /// The page commits a new main-frame document, as the broker records
    /// it on `Page.frameNavigated`: observations taken before go stale.
    pub fn commit_new_document(&self) {
        self.registry.update("T1", |t| {
            t.doc_gen += 1;
            t.loader = Some(format!("L{}", t.doc_gen + 1));
            t.loaded_loader = t.loader.clone();
        });
    }

    fn workspace(&self, current: Option<(String, String)>) -> WorkspaceCall {
        let current = Ok(current);
        WorkspaceCall::new(WorkspaceSetup {
            cdp: self.cdp.clone(),
            registry: self.registry.clone(),
            artifacts: self.artifacts.clone(),
            network: self.network.clone(),
            console: Arc::default(),
            caller: caller(),
            controlled: vec![("T1".into(), "t1".into())],
            current,
            tabs: Arc::new(NoTabs),
            generation: 1,
            current_generation: Arc::new(AtomicU64::new(1)),
            lease_guard: Arc::new(|| Ok(())),
            dispatched: Arc::new(AtomicBool::new(false)),
            launched: true,
            state_load_refusal: None,
        })
    }

    /// Run a target tool on `T1`; returns its JSON result.
    pub async fn target(&self, tool: &str, input: Value) -> BpResult<Value> {
        let call = TargetCall::new(CallSetup {
            cdp: self.cdp.clone(),
            registry: self.registry.clone(),
            observations: self.observations.clone(),
            workspace: self.workspace(Some(("T1".into(), "t1".into()))),
            frames: Arc::default(),
            raw_id: "T1".into(),
            session: "S1".into(),
            generation: 1,
            current_generation: Arc::new(AtomicU64::new(1)),
            caller: caller(),
            lease_guard: Arc::new(|| Ok(())),
            dispatched: Arc::new(AtomicBool::new(false)),
        })?;
        self.run(tool, Scope::Target(Box::new(call)), input).await
    }

    /// Run a workspace tool, with no tab selected.
    pub async fn workspace_tool(&self, tool: &str, input: Value) -> BpResult<Value> {
        let call = self.workspace(None);
        self.run(tool, Scope::Workspace(Box::new(call)), input)
            .await
    }

    async fn run(&self, tool: &str, scope: Scope, input: Value) -> BpResult<Value> {
        let text = self
            .runtime
            .call(tool, scope, "cmd_test", &input.to_string())
            .await?;
        serde_json::from_str(&text).map_err(|e| BpError::internal(e.to_string()))
    }
}

fn caller() -> Caller {
    Caller {
        workspace_id: "ws_test".into(),
        lease_id: "lease_test".into(),
        page_tools: Default::default(),
    }
}

/// An accessibility node as `Accessibility.getFullAXTree` reports one.
pub fn ax(id: &str, role: &str, name: &str, backend: i64, children: &[&str]) -> Value {
    json!({"nodeId": id, "ignored": false, "role": {"value": role}, "name": {"value": name},
           "backendDOMNodeId": backend, "childIds": children})
}
