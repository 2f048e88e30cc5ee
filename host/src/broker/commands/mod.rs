//! Command records: IDs and idempotency keys scoped to their workspace
//! (which one principal owns at a time), the state machine, cancellation before dispatch, and the
//! recorded outcome a duplicate request gets back.

use crate::error::{BpError, BpResult, Code};
use crate::ids::{CommandId, WorkspaceId};
use serde_json::{json, Value};
use std::collections::{HashMap, VecDeque};
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::Arc;
use std::time::Instant;

/// Command records kept at most (oldest finished ones go first).
pub const MAX_COMMANDS: usize = 4096;
/// Bytes of recorded replies kept at most, as serialized JSON: beyond
/// this the oldest finished records go too, whatever their number.
pub const MAX_RECORDED_BYTES: usize = 64 << 20;

/// Where a command is in its life.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum CmdState {
    Accepted,
    Completed,
    UnknownOutcome,
    Cancelled,
    Expired,
    Failed,
}

impl CmdState {
    /// The wire name of the state.
    pub fn name(self) -> &'static str {
        match self {
            CmdState::Accepted => "accepted",
            CmdState::Completed => "completed",
            CmdState::UnknownOutcome => "unknown_outcome",
            CmdState::Cancelled => "cancelled",
            CmdState::Expired => "expired",
            CmdState::Failed => "failed",
        }
    }
}

/// A cancel asked for while a command runs. Tools whose manifest says
/// `cooperative` stop at their current wait when it fires.
#[derive(Default)]
pub struct CancelSignal {
    requested: AtomicBool,
    notify: tokio::sync::Notify,
}

impl CancelSignal {
    fn request(&self) {
        self.requested.store(true, Ordering::SeqCst);
        self.notify.notify_waiters();
    }

    /// Resolves once a cancel is requested.
    pub async fn requested(&self) {
        let notified = self.notify.notified();
        tokio::pin!(notified);
        // Registered before the flag is read, so a request in between is
        // not missed.
        notified.as_mut().enable();
        if self.requested.load(Ordering::SeqCst) {
            return;
        }
        notified.await;
    }
}

/// One command.
pub struct CommandRecord {
    pub id: CommandId,
    principal: String,
    pub workspace_id: WorkspaceId,
    key: String,
    pub tool: String,
    pub state: CmdState,
    /// Set by the executor immediately before the first browser mutation.
    pub dispatched: Arc<AtomicBool>,
    cancel_requested: bool,
    cancel: Arc<CancelSignal>,
    /// The executor began running it (cancellation can no longer prevent it).
    started: bool,
    pub deadline: Option<Instant>,
    /// The full `tools/call` reply once the command is terminal, as
    /// serialized JSON (a parsed reply of a large observation takes
    /// several times its text in memory).
    response: Option<Box<str>>,
}

impl CommandRecord {
    /// The recorded reply, parsed.
    fn recorded(&self) -> Option<Value> {
        self.response
            .as_deref()
            .and_then(|r| serde_json::from_str(r).ok())
    }

    fn state_name(&self) -> &'static str {
        match self.state {
            CmdState::Accepted if self.dispatched.load(Ordering::SeqCst) => "dispatched",
            state => state.name(),
        }
    }

    /// `{commandId, state, idempotencyKey, tool}`.
    pub fn json(&self) -> Value {
        let mut v = json!({"commandId": self.id, "state": self.state_name(), "idempotencyKey": self.key, "tool": self.tool});
        if self.cancel_requested && self.state == CmdState::Accepted {
            v["cancelRequested"] = json!(true);
        }
        v
    }
}

/// The outcome of accepting a `tools/call`.
pub enum Accepted {
    /// A new command to execute.
    New {
        id: CommandId,
        dispatched: Arc<AtomicBool>,
        cancel: Arc<CancelSignal>,
    },
    /// A duplicate: the reply to give instead of running it again.
    Duplicate(Value),
}

/// What a new request asks for.
pub struct Request<'a> {
    pub principal: &'a str,
    pub workspace_id: &'a str,
    pub command_id: Option<&'a str>,
    pub idempotency_key: Option<&'a str>,
    pub tool: &'a str,
    pub deadline: Option<Instant>,
}

/// The internal key of a command: IDs are scoped to their workspace, so
/// one client's IDs neither collide with nor reveal another's, and a
/// connection that resumes the workspace finds them.
fn key_of(workspace_id: &str, id: &str) -> String {
    format!("{workspace_id}\u{0}{id}")
}

/// All command records.
#[derive(Default)]
pub struct Commands {
    map: HashMap<String, CommandRecord>,
    /// (workspace, idempotency key) -> internal key.
    keys: HashMap<(String, String), String>,
    order: VecDeque<String>,
    /// Bytes of the recorded replies.
    recorded_bytes: usize,
    /// Cancels that arrived before their call: (principal, command ID) ->
    /// until when a call with that ID is refused.
    tombstones: HashMap<String, Instant>,
}

/// How long a cancel for a command not yet seen keeps that ID refused.
pub const TOMBSTONE_TTL: std::time::Duration = std::time::Duration::from_secs(300);
/// Tombstones kept at most (expired ones go first, then the oldest).
const MAX_TOMBSTONES: usize = 4096;

impl Commands {
    /// Accept a request, or recognise it as a duplicate of an earlier one.
    pub fn accept(&mut self, r: Request<'_>) -> BpResult<Accepted> {
        if let Some(id) = r.command_id {
            if id.is_empty() || id.len() > 128 {
                return Err(BpError::invalid("`commandId` must be 1 to 128 characters"));
            }
            // Cancelled before it arrived: it never runs.
            let tomb = key_of(r.principal, id);
            if self
                .tombstones
                .get(&tomb)
                .is_some_and(|t| Instant::now() < *t)
            {
                return Err(BpError::new(
                    Code::CommandCancelled,
                    "this command ID was cancelled before the call arrived",
                )
                .with_context(json!({"commandId": id})));
            }
        }
        let key = r.idempotency_key.or(r.command_id);
        if let Some(k) = key {
            let scoped = (r.workspace_id.to_string(), k.to_string());
            if let Some(rec) = self.keys.get(&scoped).and_then(|k| self.map.get(k)) {
                if rec.tool != r.tool {
                    return Err(BpError::invalid(
                        "this idempotency key was used for a different tool",
                    ));
                }
                return Ok(Accepted::Duplicate(match rec.recorded() {
                    Some(recorded) => recorded,
                    None => json!({"command": rec.json(), "duplicate": true}),
                }));
            }
        }
        let id = match r.command_id {
            Some(id) if self.map.contains_key(&key_of(r.workspace_id, id)) => {
                return Err(BpError::invalid(
                    "this `commandId` was already used with another idempotency key",
                ))
            }
            Some(id) => CommandId::new(id),
            None => CommandId::fresh(),
        };
        let key = key.map(str::to_string).unwrap_or_else(|| id.to_string());
        let dispatched = Arc::new(AtomicBool::new(false));
        let cancel = Arc::new(CancelSignal::default());
        let internal = key_of(r.workspace_id, &id);
        self.keys
            .insert((r.workspace_id.to_string(), key.clone()), internal.clone());
        self.map.insert(
            internal.clone(),
            CommandRecord {
                id: id.clone(),
                principal: r.principal.to_string(),
                workspace_id: WorkspaceId::new(r.workspace_id),
                key,
                tool: r.tool.to_string(),
                state: CmdState::Accepted,
                dispatched: dispatched.clone(),
                cancel_requested: false,
                cancel: cancel.clone(),
                started: false,
                deadline: r.deadline,
                response: None,
            },
        );
        self.order.push_back(internal);
        self.evict();
        Ok(Accepted::New {
            id,
            dispatched,
            cancel,
        })
    }

    fn evict(&mut self) {
        while self.order.len() > MAX_COMMANDS || self.recorded_bytes > MAX_RECORDED_BYTES {
            let Some(pos) = self.order.iter().position(|id| {
                self.map
                    .get(id)
                    .is_none_or(|r| r.state != CmdState::Accepted)
            }) else {
                break;
            };
            if let Some(id) = self.order.remove(pos) {
                if let Some(rec) = self.map.remove(&id) {
                    self.recorded_bytes -= rec.response.as_ref().map_or(0, |r| r.len());
                    self.keys.remove(&(rec.workspace_id.into_string(), rec.key));
                }
            }
        }
    }

    /// Record `reply` as the command's (internal key `key`) outcome.
    fn record(&mut self, key: &str, reply: &Value) {
        let Some(rec) = self.map.get_mut(key) else {
            return;
        };
        let text: Box<str> = reply.to_string().into();
        self.recorded_bytes += text.len();
        if let Some(old) = rec.response.replace(text) {
            self.recorded_bytes -= old.len();
        }
        self.evict();
    }

    /// The internal key of `id`: in `workspace`, which the caller owns, or
    /// else among the commands `principal` itself sent.
    fn find(&self, principal: &str, id: &str, workspace: Option<&str>) -> Option<String> {
        match workspace {
            Some(w) => Some(key_of(w, id)).filter(|k| self.map.contains_key(k)),
            None => self
                .map
                .iter()
                .find(|(_, r)| r.principal == principal && r.id == id)
                .map(|(k, _)| k.clone()),
        }
    }

    fn owned(
        &mut self,
        principal: &str,
        id: &str,
        workspace: Option<&str>,
    ) -> BpResult<&mut CommandRecord> {
        self.find(principal, id, workspace)
            .and_then(|k| self.map.get_mut(&k))
            .ok_or_else(|| {
                BpError::invalid("no such command for this client")
                    .with_context(json!({"commandId": id}))
            })
    }

    /// `commands/get`: state, plus the recorded result or error when
    /// terminal. `workspace_id`, when given, is one the caller owns.
    pub fn get(
        &mut self,
        principal: &str,
        id: &str,
        workspace_id: Option<&str>,
    ) -> BpResult<Value> {
        let rec = self.owned(principal, id, workspace_id)?;
        let mut out = json!({"command": rec.json()});
        if let Some(resp) = rec.recorded() {
            for k in ["result", "error"] {
                if let Some(v) = resp.get(k) {
                    out[k] = v.clone();
                }
            }
        }
        Ok(out)
    }

    /// `commands/cancel`: before dispatch the command will never run; after
    /// dispatch cancellation is only recorded (no rollback is claimed).
    pub fn cancel(
        &mut self,
        principal: &str,
        id: &str,
        workspace_id: Option<&str>,
    ) -> BpResult<Value> {
        if self.find(principal, id, workspace_id).is_none() {
            return self.tombstone(principal, id);
        }
        let rec = self.owned(principal, id, workspace_id)?;
        let mut cancelled = None;
        if rec.state == CmdState::Accepted {
            // Once running, a cooperative tool stops at its current wait;
            // any other only has the request recorded.
            if rec.started || rec.dispatched.load(Ordering::SeqCst) {
                rec.cancel_requested = true;
                rec.cancel.request();
            } else {
                rec.state = CmdState::Cancelled;
                let err = BpError::new(Code::CommandCancelled, "cancelled before dispatch");
                cancelled = Some(json!({"command": rec.json(), "error": err.to_json()}));
            }
        }
        let answer = json!({"command": rec.json()});
        if let Some(reply) = cancelled {
            let key = key_of(&rec.workspace_id, &rec.id);
            self.record(&key, &reply);
        }
        Ok(answer)
    }

    /// A cancel for a command ID this client has not used (yet): the ID is
    /// refused for [`TOMBSTONE_TTL`], so a late call with it never runs.
    /// Cancelling again is the same answer.
    fn tombstone(&mut self, principal: &str, id: &str) -> BpResult<Value> {
        if id.is_empty() || id.len() > 128 {
            return Err(BpError::invalid("`commandId` must be 1 to 128 characters"));
        }
        let now = Instant::now();
        if self.tombstones.len() >= MAX_TOMBSTONES {
            self.tombstones.retain(|_, until| *until > now);
        }
        if self.tombstones.len() >= MAX_TOMBSTONES {
            if let Some(oldest) = self
                .tombstones
                .iter()
                .min_by_key(|(_, until)| **until)
                .map(|(k, _)| k.clone())
            {
                self.tombstones.remove(&oldest);
            }
        }
        self.tombstones
            .entry(key_of(principal, id))
            .or_insert(now + TOMBSTONE_TTL);
        Ok(json!({"command": {"commandId": id, "state": "cancelled", "tombstone": true}}))
    }

    /// Called by the executor right before running: refuses cancelled and
    /// expired commands.
    /// With `commit`, the command counts as running from now on.
    pub fn start(&mut self, workspace_id: &str, id: &str, commit: bool) -> BpResult<()> {
        let Some(rec) = self.map.get_mut(&key_of(workspace_id, id)) else {
            return Err(BpError::internal("command record lost"));
        };
        match rec.state {
            CmdState::Cancelled => Err(BpError::new(
                Code::CommandCancelled,
                "cancelled before dispatch",
            )),
            CmdState::Accepted if rec.deadline.is_some_and(|d| Instant::now() >= d) => {
                rec.state = CmdState::Expired;
                Err(BpError::new(
                    Code::CommandExpired,
                    "the deadline passed before the command could start",
                ))
            }
            _ => {
                rec.started |= commit;
                Ok(())
            }
        }
    }

    /// Record the terminal state and the reply; returns the reply.
    pub fn finish(
        &mut self,
        workspace_id: &str,
        id: &str,
        state: CmdState,
        outcome: Result<Value, BpError>,
    ) -> Value {
        let key = key_of(workspace_id, id);
        let Some(rec) = self.map.get_mut(&key) else {
            // The record went with its workspace (released while the
            // command ran): the reply still says how the command ended.
            let command = json!({"commandId": id, "state": state.name()});
            return match outcome {
                Ok(result) => json!({"command": command, "result": result}),
                Err(e) => json!({"command": command, "error": e.to_json()}),
            };
        };
        if rec.state == CmdState::Accepted {
            rec.state = state;
        }
        // Already terminal (cancelled): keep what was recorded.
        if let Some(recorded) = rec.recorded() {
            return recorded;
        }
        let reply = match outcome {
            Ok(result) => json!({"command": rec.json(), "result": result}),
            Err(e) => json!({"command": rec.json(), "error": e.to_json()}),
        };
        self.record(&key, &reply);
        reply
    }

    /// Forget a released workspace's commands.
    pub fn remove_workspace(&mut self, workspace_id: &str) {
        self.map.retain(|_, r| r.workspace_id != workspace_id);
        self.recorded_bytes = self
            .map
            .values()
            .map(|r| r.response.as_ref().map_or(0, |r| r.len()))
            .sum();
        self.keys.retain(|(ws, _), _| ws != workspace_id);
        let map = &self.map;
        self.order.retain(|id| map.contains_key(id));
    }
}

#[cfg(test)]
mod tests;
