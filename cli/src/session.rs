//! The one-shot CLI's session: start or reuse the broker, then use the
//! compatibility principal's keyed workspace and renewable lease.

use crate::progress::Progress;
use browser_pilot_host::broker::{rpc as rpc_principal, VERSION};
use browser_pilot_host::client::{ensure_broker, Client};
use browser_pilot_host::paths::Paths;
use browser_pilot_host::{BpError, BpResult, Code};
use serde_json::{json, Value};

/// Key of the CLI's workspace and lease.
const KEY: &str = "cli";
/// The CLI's lease TTL (the spec's five-minute maximum).
const LEASE_TTL_MS: u64 = 300_000;

pub struct Session {
    client: Client,
    /// Show a progress line on long waits (human mode, terminal stderr).
    pub progress: bool,
    pub workspace_id: String,
    pub lease_id: String,
}

impl Session {
    /// Start or reuse the broker and open the CLI's workspace and lease.
    pub async fn open() -> BpResult<Self> {
        Self::open_with(false).await
    }

    /// [`Session::open`], showing progress while a broker starts (the
    /// first run prepares the components).
    pub async fn open_with(progress: bool) -> BpResult<Self> {
        let paths = Paths::from_env()?;
        let waiting = Progress::start("starting the broker", progress);
        let mut client = ensure_broker(&paths, &["broker", "serve"]).await?;
        drop(waiting);
        let init = client
            .request(
                "initialize",
                json!({"client": {"name": rpc_principal::CLI_PRINCIPAL, "version": VERSION, "instanceId": std::process::id().to_string()},
"protocol": {"min": "1.0", "max": "1.1"}, "capabilities": ["developer.eval"], "launchMode": "one_shot"}),)
            .await?;
        let broker_version = init["executable"]["version"].as_str().unwrap_or("");
        if broker_version != VERSION {
            return Err(BpError::new(
                Code::ProtocolIncompatible,
                format!("the running broker is version {broker_version}, this CLI is {VERSION}; stop it with `bp broker stop`"),
            ));
        }
        let ws = client
            .request("workspaces/create", json!({"key": KEY}))
            .await?;
        let workspace_id = ws["workspaceId"].as_str().unwrap_or_default().to_string();
        let lease = client
            .request(
                "leases/create",
                json!({"workspaceId": workspace_id, "key": KEY, "ttlMs": LEASE_TTL_MS}),
            )
            .await?;
        let lease_id = lease["leaseId"].as_str().unwrap_or_default().to_string();
        Ok(Self {
            client,
            progress,
            workspace_id,
            lease_id,
        })
    }

    /// Call a tool; a tool error becomes `Err`.
    pub async fn tool(&mut self, name: &str, arguments: Value) -> BpResult<Value> {
        let _waiting = Progress::start(&crate::progress::label(name), self.progress);
        let reply = self
            .client
            .request(
                "tools/call",
                json!({"name": name, "arguments": arguments, "workspaceId": self.workspace_id, "leaseId": self.lease_id}),
            )
            .await?;
        match reply.get("error") {
            Some(err) => Err(BpError::from_json(err)),
            None => Ok(reply.get("result").cloned().unwrap_or(Value::Null)),
        }
    }

    /// A raw protocol request.
    pub async fn request(&mut self, method: &str, params: Value) -> BpResult<Value> {
        self.client.request(method, params).await
    }
}

/// Connect to a running broker without starting one.
pub async fn existing_broker() -> BpResult<Client> {
    let paths = Paths::from_env()?;
    Client::connect(&paths).await.map_err(|_| {
        BpError::new(
            Code::BrowserDisconnected,
            "no broker is running for this BROWSER_PILOT_HOME",
        )
    })
}
