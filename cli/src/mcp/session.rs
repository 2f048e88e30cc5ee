//! One MCP session's footing in the broker: its own principal, one
//! workspace and one lease, heartbeated at a third of its TTL, released
//! (with the workspace's managed tabs) when the session ends.

use super::link::Link;
use browser_pilot_host::{BpError, BpResult, Code};
use serde_json::{json, Value};
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::Arc;
use std::time::Duration;

/// Command states after which a command no longer runs.
const TERMINAL: &[&str] = &[
    "completed",
    "failed",
    "unknown_outcome",
    "cancelled",
    "expired",
];

/// What the session was given at its start.
#[derive(Clone, Debug)]
pub struct Info {
    pub client_name: String,
    pub protocol_version: String,
    pub granted: Vec<String>,
    pub workspace_id: String,
    pub lease_id: String,
    pub lease_ttl_ms: u64,
    pub event_cursor: Value,
    pub resume_secret: String,
}

/// A tool call's end: the broker's result or error, with its command record.
pub struct Called {
    pub result: Result<Value, BpError>,
    pub command: Value,
}

pub struct Session {
    pub link: Arc<Link>,
    pub info: Info,
    prefix: String,
    seq: AtomicU64,
    heartbeat: tokio::task::JoinHandle<()>,
}

impl Session {
    /// Initialize as `client_name`, then make the workspace (kept on
    /// `allowed_origins` when there are any) and the lease.
    pub async fn start(
        link: Arc<Link>,
        client_name: &str,
        lease_ttl_ms: u64,
        capabilities: &[String],
        allowed_origins: &[String],
    ) -> BpResult<Self> {
        let init = link
            .request(
                "initialize",
                json!({"client": {"name": client_name, "version": browser_pilot_host::broker::VERSION,
                                  "instanceId": std::process::id().to_string()},
                       "protocol": {"min": "1.0", "max": "1.1"}, "capabilities": capabilities}),
            )
            .await?;
        let mut create = json!({"label": "mcp"});
        if !allowed_origins.is_empty() {
            create["allowedOrigins"] = json!(allowed_origins);
        }
        let ws = link.request("workspaces/create", create).await?;
        let workspace_id = str_of(&ws, "workspaceId")?;
        let prefix = format!("mcp-{}", &browser_pilot_host::ids::random_hex(4));
        let lease = link
            .request(
                "leases/create",
                json!({"workspaceId": workspace_id, "ttlMs": lease_ttl_ms, "key": prefix}),
            )
            .await?;
        let info = Info {
            client_name: client_name.to_string(),
            protocol_version: str_of(&init, "protocolVersion")?,
            granted: init["capabilities"]["granted"]
                .as_array()
                .map(|g| {
                    g.iter()
                        .filter_map(|x| x.as_str().map(str::to_string))
                        .collect()
                })
                .unwrap_or_default(),
            lease_id: str_of(&lease, "leaseId")?,
            lease_ttl_ms: lease["ttlMs"].as_u64().unwrap_or(lease_ttl_ms),
            event_cursor: ws["eventCursor"].clone(),
            resume_secret: str_of(&ws, "resumeSecret")?,
            workspace_id,
        };
        let heartbeat = tokio::spawn(beat(link.clone(), info.clone()));
        Ok(Self {
            link,
            info,
            prefix,
            seq: AtomicU64::new(0),
            heartbeat,
        })
    }

    /// A command ID of this session's own (so a cancel can name it).
    pub fn new_command_id(&self) -> String {
        let n = self.seq.fetch_add(1, Ordering::Relaxed) + 1;
        format!("{}-{n}", self.prefix)
    }

    /// Run a broker tool as this session's workspace and lease.
    pub async fn call(
        &self,
        name: &str,
        arguments: Value,
        command_id: &str,
        idempotency_key: Option<&str>,
        deadline_ms: Option<u64>,
    ) -> Called {
        let mut params = json!({"name": name, "arguments": arguments,
            "workspaceId": self.info.workspace_id, "leaseId": self.info.lease_id,
            "commandId": command_id});
        if let Some(k) = idempotency_key {
            params["idempotencyKey"] = json!(k);
        }
        if let Some(d) = deadline_ms {
            params["deadlineMs"] = json!(d);
        }
        let reply = match self.link.request("tools/call", params).await {
            Ok(r) => r,
            Err(e) => {
                return Called {
                    result: Err(e),
                    command: json!({"commandId": command_id, "tool": name}),
                }
            }
        };
        let mut reply = if reply["duplicate"] == true {
            self.wait_command(command_id).await.unwrap_or(reply)
        } else {
            reply
        };
        let command = reply["command"].take();
        let result = match reply.get("error") {
            Some(e) => Err(BpError::from_json(e)),
            None => Ok(reply
                .get_mut("result")
                .map(Value::take)
                .unwrap_or(Value::Null)),
        };
        Called { result, command }
    }

    /// A retried call still running elsewhere: wait for its record.
    async fn wait_command(&self, command_id: &str) -> BpResult<Value> {
        loop {
            let rec = self
                .link
                .request(
                    "commands/get",
                    json!({"commandId": command_id, "workspaceId": self.info.workspace_id}),
                )
                .await?;
            let state = rec["command"]["state"].as_str().unwrap_or_default();
            if TERMINAL.contains(&state) {
                return Ok(rec);
            }
            tokio::time::sleep(Duration::from_millis(100)).await;
        }
    }

    /// Ask the broker to cancel one of this session's commands.
    pub async fn cancel(&self, command_id: &str) {
        let params = json!({"commandId": command_id, "workspaceId": self.info.workspace_id});
        if let Err(e) = self.link.request("commands/cancel", params).await {
            tracing::debug!("cancel of {command_id}: {e}");
        }
    }

    /// The broker's tool list for this session.
    pub async fn tools(&self) -> BpResult<Vec<Value>> {
        let listed = self.link.request("tools/list", json!({})).await?;
        Ok(listed["tools"].as_array().cloned().unwrap_or_default())
    }

    /// Events of the workspace after `cursor` (the session start if none).
    pub async fn poll_events(&self, cursor: Option<Value>, limit: u64) -> BpResult<Value> {
        let cursor = cursor.unwrap_or_else(|| self.info.event_cursor.clone());
        self.link
            .request(
                "events/poll",
                json!({"workspaceId": self.info.workspace_id, "cursor": cursor, "limit": limit}),
            )
            .await
    }

    /// Release the lease and the workspace (its managed tabs close).
    pub async fn close(&self) {
        self.heartbeat.abort();
        let steps = [
            ("leases/release", json!({"leaseId": self.info.lease_id})),
            (
                "workspaces/release",
                json!({"workspaceId": self.info.workspace_id}),
            ),
        ];
        for (method, params) in steps {
            let done =
                tokio::time::timeout(Duration::from_secs(15), self.link.request(method, params))
                    .await;
            if let Ok(Err(e)) = done {
                tracing::debug!("{method}: {e}");
            }
        }
    }
}

/// Heartbeat the lease at a third of its TTL. A lease that expired anyway
/// (the process was stopped longer than the TTL) is not replaced: calls
/// then answer `lease_expired`, and the host restarts the server.
async fn beat(link: Arc<Link>, info: Info) {
    let every = Duration::from_millis((info.lease_ttl_ms / 3).max(200));
    loop {
        tokio::time::sleep(every).await;
        let beat = link
            .request("leases/heartbeat", json!({"leaseId": info.lease_id}))
            .await;
        if let Err(e) = beat {
            if e.code != Code::LeaseExpired {
                tracing::debug!("heartbeat: {e}");
            }
        }
    }
}

fn str_of(v: &Value, key: &str) -> BpResult<String> {
    v[key]
        .as_str()
        .map(str::to_string)
        .ok_or_else(|| BpError::internal(format!("the broker's reply has no `{key}`")))
}
