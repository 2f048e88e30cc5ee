//! The broker: owns the browser connection, workspaces, leases,
//! observations and the component runtime, and serves JSON-RPC on an
//! owner-only local socket.
mod args;
mod call;
mod commands;
pub mod connect;
pub mod native;
pub mod rpc;
mod scope_args;
pub mod state;
pub mod watch;
mod workspaces;

use crate::browser::connection::BrowserConn;
use crate::browser::observe::observations::Observations;
use crate::error::{BpError, BpResult};
use crate::runtime::Runtime;
use crate::store::artifacts::ArtifactStore;
use crate::system::paths::Paths;
use state::State;
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::{Arc, Mutex, MutexGuard};
use std::time::Instant;
use tokio::sync::{Notify, RwLock};

pub use self::connect::claim::Claim;
pub use self::rpc::server::serve;
// Public for the protocol fuzzer in the devtools crate, which drives a
// broker in process: one connection over in-memory pipes, and the
// sweeper's orphan release between inputs.
pub use self::rpc::server::{release_orphans, serve_io};

/// Service version (the executable's).
pub const VERSION: &str = env!("CARGO_PKG_VERSION");
/// Protocol versions this broker speaks.
pub const PROTOCOL_MIN: &str = "1.0";
pub const PROTOCOL_MAX: &str = "1.1";

/// The per-user broker.
pub struct Broker {
    pub paths: Paths,
    pub runtime: Runtime,
    browser: RwLock<Option<Arc<BrowserConn>>>,
    /// Serialises connect/disconnect so concurrent callers share one attempt.
    connect_lock: tokio::sync::Mutex<()>,
    /// Browser connection generation; advances on each successful connect.
    generation: Arc<AtomicU64>,
    state: Mutex<State>,
    pub observations: Arc<Observations>,
    /// Frame IDs and selections per workspace and target.
    pub frames: Arc<crate::browser::navigation::frames::FrameBook>,
    pub artifacts: Arc<ArtifactStore>,
    pub network: Arc<crate::store::network::Network>,
    /// Console messages and page errors per workspace.
    pub console: Arc<crate::store::console::Console>,
    /// The origin scopes in force (launch list, per-workspace lists).
    pub scopes: Arc<crate::store::scope::Scopes>,
    /// No-progress streaks per lease and tab.
    pub progress: self::rpc::progress::Progress,
    /// Sign-in surfaces last observed per workspace and tab.
    pub auth_states: self::watch::hints::AuthStates,
    /// Takeovers waiting for a person (`browser.takeover`).
    pub takeovers: self::native::takeover::Takeovers,
    pub started: Instant,
    pub shutdown: Notify,
    connections: AtomicU64,
    /// CDP commands sent by connections that have since closed.
    retired_commands: AtomicU64,
    /// Held while a tab is created and assigned to its workspace, so the
    /// signal pump never announces a managed tab to other workspaces.
    pub creation: tokio::sync::Mutex<()>,
    /// Every published event, for the connections of its principal.
    pub events: tokio::sync::broadcast::Sender<state::Notification>,
    /// The user's browser this broker attached to (kept across
    /// disconnects, so a reconnect returns to the same profile).
    selection: Mutex<Option<self::connect::Selection>>,
    /// The last authorization outcome per discovered browser.
    authorization: Mutex<std::collections::HashMap<String, &'static str>>,
}

impl Broker {
    /// The broker of the home `claim` holds: what earlier brokers of it
    /// left is removed here, which only the claim's holder may do.
    pub fn new(paths: Paths, runtime: Runtime, claim: &Claim) -> BpResult<Arc<Self>> {
        claim.clear_leftovers(&paths)?;
        let (events, _) = tokio::sync::broadcast::channel(1024);
        let artifacts = Arc::new(ArtifactStore::open(
            &paths.artifacts,
            runtime.limits().artifacts(),
        )?);
        let network = Arc::new(crate::store::network::Network::default());
        Ok(Arc::new(Self {
            state: Mutex::new(State::new(events.clone(), network.clone())),
            network,
            console: Arc::default(),
            scopes: Arc::new(crate::store::scope::Scopes::new(runtime.allowed_origins())),
            artifacts,
            creation: tokio::sync::Mutex::new(()),
            events,
            paths,
            runtime,
            browser: RwLock::new(None),
            connect_lock: tokio::sync::Mutex::new(()),
            generation: Arc::new(AtomicU64::new(0)),
            observations: Arc::new(Observations::default()),
            frames: Arc::default(),
            progress: self::rpc::progress::Progress::default(),
            auth_states: self::watch::hints::AuthStates::default(),
            takeovers: self::native::takeover::Takeovers::default(),
            started: Instant::now(),
            shutdown: Notify::new(),
            connections: AtomicU64::new(0),
            retired_commands: AtomicU64::new(0),
            selection: Mutex::new(None),
            authorization: Mutex::default(),
        }))
    }

    /// Lock the domain state.
    pub fn state(&self) -> MutexGuard<'_, State> {
        self.state.lock().unwrap_or_else(|p| p.into_inner())
    }

    /// The live browser connection, or `browser_disconnected`.
    pub async fn browser(&self) -> BpResult<Arc<BrowserConn>> {
        match &*self.browser.read().await {
            Some(b) if !b.cdp.is_closed() => Ok(b.clone()),
            _ => Err(BpError::disconnected()),
        }
    }

    /// The user's browser chosen earlier in this broker's life.
    pub fn selection(&self) -> Option<self::connect::Selection> {
        self.selection
            .lock()
            .unwrap_or_else(|p| p.into_inner())
            .clone()
    }

    pub fn set_selection(&self, selection: Option<self::connect::Selection>) {
        *self.selection.lock().unwrap_or_else(|p| p.into_inner()) = selection;
    }

    /// Remember how a browser answered a connection attempt.
    pub fn note_authorization<T>(&self, candidate_id: &str, outcome: &BpResult<T>) {
        let state = match outcome {
            Ok(_) => "allowed",
            Err(e) => match e
                .context
                .as_ref()
                .and_then(|c| c.get("authorization"))
                .and_then(serde_json::Value::as_str)
            {
                Some("refused") => "refused",
                Some("waiting_for_user") => "waiting_for_user",
                _ => return,
            },
        };
        self.authorization
            .lock()
            .unwrap_or_else(|p| p.into_inner())
            .insert(candidate_id.to_string(), state);
    }

    /// The last authorization outcome for a discovered browser.
    pub fn authorization_of(&self, candidate_id: &str) -> Option<&'static str> {
        self.authorization
            .lock()
            .unwrap_or_else(|p| p.into_inner())
            .get(candidate_id)
            .copied()
    }

    /// A shared handle on the generation counter.
    pub fn generation_handle(&self) -> Arc<AtomicU64> {
        self.generation.clone()
    }

    pub fn generation(&self) -> u64 {
        self.generation.load(Ordering::SeqCst)
    }

    /// What stopping now ends: the client connections other than the
    /// stopping one, and every workspace, live lease and managed tab.
    pub(crate) fn stop_report(&self) -> serde_json::Value {
        let (workspaces, leases, managed_tabs) = self.state().held();
        let connections = self.connections.load(Ordering::Relaxed).saturating_sub(1);
        serde_json::json!({"connections": connections, "workspaces": workspaces,
                           "leases": leases, "managedTabs": managed_tabs})
    }

    /// CDP commands sent since the broker started.
    pub async fn cdp_commands_sent(&self) -> u64 {
        let live = self
            .browser
            .read()
            .await
            .as_ref()
            .map_or(0, |b| b.cdp.commands_sent());
        live + self.retired_commands.load(Ordering::Relaxed)
    }

    /// A new connection generation is about to be exposed: target
    /// mappings, ManagedTabSets, target control, frames, selections and
    /// observations of the earlier one are gone.
    pub fn forget_connection_state(&self) {
        {
            let mut st = self.state();
            for ws in st.workspaces.values_mut() {
                ws.forget_targets();
            }
            st.controllers.clear();
        }
        self.frames.clear();
        self.observations.retire_all();
    }

    /// Drop the browser connection (and a broker-owned browser with it).
    pub async fn drop_browser(&self) -> bool {
        let old = self.browser.write().await.take();
        match old {
            Some(b) => {
                close_persistent(&b).await;
                self.retire(&b);
                if let Some(launched) = &b.launched {
                    launched.end().await;
                }
                true
            }
            None => false,
        }
    }

    /// Let go of a connection: its janitor stands down, its socket closes
    /// at once (calls still in flight fail rather than keep driving the
    /// browser), and target control ends.
    fn retire(&self, b: &BrowserConn) {
        if let Some(janitor) = &b.janitor {
            janitor.forget();
        }
        b.cdp.close();
        self.retired_commands
            .fetch_add(b.cdp.commands_sent(), Ordering::Relaxed);
        self.state().controllers.clear();
    }

    /// Close every workspace's managed tabs (never a user tab): the broker
    /// is going away, and nothing will own them.
    pub async fn close_all_managed(&self) {
        let managed: Vec<String> = self
            .state()
            .workspaces
            .values_mut()
            .flat_map(|ws| {
                ws.managed
                    .drain()
                    .chain(ws.pilot.take())
                    .collect::<Vec<_>>()
            })
            .collect();
        if let Ok(conn) = self.browser().await {
            for raw in managed {
                let _ = conn.close_target(&raw).await;
            }
        }
    }
}

/// A browser on a persistent profile is asked to close (`Browser.close`)
/// before it is ended: it writes its cookies to disk on a clean close
/// only, and a signal does not give one.
async fn close_persistent(b: &BrowserConn) {
    if b.launched.as_ref().is_some_and(|l| l.persistent) {
        let wait = std::time::Duration::from_secs(2);
        let _ = b
            .cdp
            .send_timeout(
                &chromiumoxide::cdp::browser_protocol::browser::CloseParams {},
                None,
                wait,
            )
            .await;
    }
}
