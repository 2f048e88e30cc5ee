//! The one-shot CLI's session: start or reuse the broker, then resume the
//! CLI's keyed workspace (with the secret in `resume.rs`) and renewable
//! lease.

use crate::progress::Progress;
use browser_pilot_host::broker::{rpc as rpc_principal, VERSION};
use browser_pilot_host::client::{
    closed_before_answer, ensure_broker_unchecked, wait_for_stopping_broker, Client,
};
use browser_pilot_host::system::paths::Paths;
use browser_pilot_host::{BpError, BpResult, Code};
use serde_json::{json, Value};
use std::path::PathBuf;
use std::sync::atomic::{AtomicBool, Ordering};

/// Key of the CLI's workspace and lease.
const KEY: &str = "cli";
/// The CLI's lease TTL (the spec's five-minute maximum).
const LEASE_TTL_MS: u64 = 300_000;

pub struct Session {
    client: Client,
    paths: Paths,
    /// Show a progress line on long waits (human mode, terminal stderr).
    pub progress: bool,
    /// The workspace and lease, once `initialize` opened them.
    ids: Option<(String, String)>,
    /// Ask for `page.consequential` at initialize (`--allow-consequential`).
    consequential: bool,
    /// Ask for `state.load-user` at initialize (`--into-own-browser`).
    state_load_user: bool,
}

/// How long a broker that accepted the connection may take to answer
/// `initialize` before it counts as hung.
const ANSWER_LIMIT: std::time::Duration = std::time::Duration::from_secs(5);

impl Session {
    /// Start or reuse the broker. Nothing is sent yet: `initialize` (which
    /// opens the CLI's keyed workspace and lease) travels with the first
    /// request, so a command costs one round trip.
    pub async fn open() -> BpResult<Self> {
        Self::open_with(false).await
    }

    /// [`Session::open`], showing progress while a broker starts.
    pub async fn open_with(progress: bool) -> BpResult<Self> {
        let paths = Paths::from_env()?;
        let waiting = Progress::start("starting the broker", progress);
        let client =
            ensure_broker_unchecked(&paths, broker_executable, &["broker", "serve"]).await?;
        drop(waiting);
        Ok(Self {
            client,
            paths,
            progress,
            ids: None,
            consequential: false,
            state_load_user: false,
        })
    }

    /// Ask for the `page.consequential` grant: a page's consequential
    /// tools are then listed and callable (where the broker's level is
    /// `all`). Only before the first request.
    pub fn allow_consequential(&mut self) {
        self.consequential = true;
    }

    /// Ask for the `state.load-user` grant: a saved state may then be
    /// loaded into the user's own browser. Only before the first request.
    pub fn allow_state_load_user(&mut self) {
        self.state_load_user = true;
    }

    fn initialize_params(secret: Option<String>, consequential: bool, state_user: bool) -> Value {
        let mut grants = vec!["developer.eval"];
        if consequential {
            grants.push("page.consequential");
        }
        if state_user {
            grants.push("state.load-user");
        }
        json!({"client": {"name": rpc_principal::CLI_PRINCIPAL, "version": VERSION, "instanceId": std::process::id().to_string()},
               "protocol": {"min": "1.0", "max": "1.1"}, "capabilities": grants, "launchMode": "one_shot",
               "require": {"serviceVersion": VERSION},
               "session": {"workspaceKey": KEY, "leaseKey": KEY, "leaseTtlMs": LEASE_TTL_MS, "resumeSecret": secret}})
    }

    /// Send `initialize` if not done yet, then `method` right behind it;
    /// returns the response to `method`.
    async fn send_initialized(&mut self, method: &str, params: Value) -> BpResult<Value> {
        if self.ids.is_some() {
            return self.client.request(method, params).await;
        }
        let (secret, lock) = crate::resume::load_or_lock(&self.paths).await?;
        let (init, id) = match self.initialize_then(method, &params, &secret).await {
            // A broker that was stopping took the connection and closed
            // it unanswered, so nothing ran: wait for it to end, start or
            // reach its successor, and send again (once).
            Err(e) if closed_before_answer(&e) => {
                wait_for_stopping_broker(&self.paths).await;
                self.client =
                    ensure_broker_unchecked(&self.paths, broker_executable, &["broker", "serve"])
                        .await?;
                self.initialize_then(method, &params, &secret).await?
            }
            other => other?,
        };
        if let Some(given) = init["session"]["resumeSecret"].as_str() {
            if secret.as_deref() != Some(given) {
                crate::resume::store(&self.paths, given)?;
            }
        }
        drop(lock);
        let ids = (
            init["session"]["workspaceId"].as_str(),
            init["session"]["leaseId"].as_str(),
        );
        let (Some(ws), Some(lease)) = ids else {
            // An older broker ignores `require` and `session`.
            let version = init["executable"]["version"].as_str().unwrap_or("unknown");
            return Err(BpError::new(
                Code::ProtocolIncompatible,
                format!("the running broker is version {version}, this CLI is {VERSION}; stop it with `bp broker stop`"),
            ));
        };
        self.ids = Some((ws.to_string(), lease.to_string()));
        self.client.response(id).await
    }

    /// Send `initialize` and `method` behind it; the answer to
    /// `initialize` and the ID of `method`'s request.
    async fn initialize_then(
        &mut self,
        method: &str,
        params: &Value,
        secret: &Option<String>,
    ) -> BpResult<(Value, u64)> {
        let grants = (self.consequential, self.state_load_user);
        let init = self
            .client
            .send(
                "initialize",
                Self::initialize_params(secret.clone(), grants.0, grants.1),
            )
            .await?;
        let id = self.client.send(method, params.clone()).await?;
        let init = self.client.response_within(init, ANSWER_LIMIT).await?;
        Ok((init, id))
    }

    /// The CLI's workspace and lease IDs.
    pub async fn ids(&mut self) -> BpResult<(String, String)> {
        if self.ids.is_none() {
            // Any cheap request carries the initialize.
            self.send_initialized("broker/status", json!({})).await?;
        }
        self.ids
            .clone()
            .ok_or_else(|| BpError::internal("no CLI session"))
    }

    /// The CLI's workspace ID.
    pub async fn workspace_id(&mut self) -> BpResult<String> {
        Ok(self.ids().await?.0)
    }

    /// Call a tool (in the CLI's workspace, under its lease); a tool error
    /// becomes `Err`.
    pub async fn tool(&mut self, name: &str, arguments: Value) -> BpResult<Value> {
        let _waiting = Progress::start(&crate::progress::label(name), self.progress);
        // With no IDs the broker uses the session `initialize` opened.
        let reply = self
            .send_initialized("tools/call", json!({"name": name, "arguments": arguments}))
            .await?;
        match reply.get("error") {
            Some(err) => Err(BpError::from_json(err)),
            None => Ok(reply.get("result").cloned().unwrap_or(Value::Null)),
        }
    }

    /// A raw protocol request.
    pub async fn request(&mut self, method: &str, params: Value) -> BpResult<Value> {
        self.send_initialized(method, params).await
    }
}

/// Set when this process is the short `bp`, which does not serve.
static SHORT_BP: AtomicBool = AtomicBool::new(false);

/// This process is the short `bp`: a broker it starts is the
/// `browser-pilot` installed beside it.
pub fn running_as_short_bp() {
    SHORT_BP.store(true, Ordering::Relaxed);
}

/// The executable a broker is started from (asked only when one must be
/// started): this one, or for the short `bp`, the `browser-pilot` beside
/// it.
fn broker_executable() -> BpResult<PathBuf> {
    let exe = browser_pilot_host::system::paths::current_exe()?;
    Ok(if SHORT_BP.load(Ordering::Relaxed) {
        exe.with_file_name("browser-pilot")
    } else {
        exe
    })
}

/// Connect to a running broker without starting one: `broker_not_running`
/// when none answers; a broker that answers wrongly, or a socket that
/// must not be used, keeps its own error.
pub async fn existing_broker() -> BpResult<Client> {
    let paths = Paths::from_env()?;
    Client::connect(&paths).await.map_err(|e| {
        if e.code == Code::BrokerNotRunning {
            BpError::new(
                Code::BrokerNotRunning,
                "no broker is running for this BROWSER_PILOT_HOME",
            )
        } else {
            e
        }
    })
}
