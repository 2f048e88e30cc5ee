//! [`TargetCall`]: the browser operations one tool call may perform on its
//! target. Every operation starts with [`TargetCall::check`], the single
//! place that re-verifies lease, connection generation, target and session.
//!
//! This file is the hub: the struct, its construction, the checkpoint, the
//! sends every operation goes through, and the release of the call's
//! objects. The operations live in the files around it, each an
//! `impl TargetCall` block that imports this file and leaves only:
//! `call/handles.rs` (node handles and their remote objects),
//! `call/read.rs` (page reads), `call/refs.rs` (observations and refs),
//! `input/aim.rs` (pointer geometry), `input/dispatch.rs` (input), and the
//! files named on the fields below. This file imports none of them: what
//! it holds of theirs is defined in leaves (`caller.rs`, `call/state.rs`,
//! `observe/call_walk.rs`, `input/call_input.rs`).
//!
//! The struct is the shared tab session (connection, registry, IDs,
//! frames, node handles, the call's object group, the lease and caller
//! checks), composed with one part per area that keeps per-call state:
//! [`CallWalk`] (the page walk, `observe`) and [`CallInput`] (input).

pub mod emulation;
pub(in crate::browser) mod handles;
pub(in crate::browser) mod read;
pub(in crate::browser) mod refs;
pub(in crate::browser) mod resolved;
pub(in crate::browser) mod state;
pub(in crate::browser) mod storage;
pub(in crate::browser) mod wire;

use crate::browser::call::wire::Wire;
use crate::browser::input::call_input::CallInput;
use crate::browser::navigation::frames::FrameBook;
use crate::browser::observe::call_walk::CallWalk;
use crate::browser::observe::observations::Observations;
use crate::browser::registry::Registry;
use crate::browser::types::NodeState;
use crate::browser::workspace::WorkspaceCall;
use crate::cdp::Cdp;
use crate::error::{BpError, BpResult, Code, StaleReason};
use crate::ids::{RawTargetId, SessionId};
use chromiumoxide::cdp::browser_protocol::page::HandleJavaScriptDialogParams;
use chromiumoxide::cdp::js_protocol::runtime::ReleaseObjectGroupParams;
use chromiumoxide::types::Command;
use serde_json::{json, Value};
use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};
use std::sync::Arc;

/// Defined in `caller.rs`; `crate::browser::call::{Caller, LeaseGuard}`
/// still names them.
pub use crate::browser::caller::{Caller, LeaseGuard};

/// Prefix of the per-call object group of remote objects.
const GROUP_PREFIX: &str = "browser-pilot-call-";

pub(in crate::browser) struct Handle {
    pub(in crate::browser) backend: i64,
    pub(in crate::browser) object: Option<String>,
    /// The child frame the node lives in (`None`: the main frame), with
    /// that frame's loader when the node was found.
    pub(in crate::browser) frame: Option<(String, Option<String>)>,
    /// The session that renders that frame.
    pub(in crate::browser) session: SessionId,
}

/// The browser scope of one tool call.
pub struct TargetCall {
    pub(in crate::browser) cdp: Cdp,
    pub(in crate::browser) registry: Arc<Registry>,
    pub(in crate::browser) observations: Arc<Observations>,
    /// The calling workspace, for the workspace capabilities a target tool
    /// also uses (a capture becoming an artifact).
    pub ws: WorkspaceCall,
    pub(in crate::browser) raw_id: RawTargetId,
    pub(in crate::browser) session: SessionId,
    /// Frame IDs and selections.
    pub(in crate::browser) frames: Arc<FrameBook>,
    pub(in crate::browser) session_serial: u64,
    pub(in crate::browser) generation: u64,
    current_generation: Arc<AtomicU64>,
    pub(in crate::browser) caller: Caller,
    lease_guard: LeaseGuard,
    pub(in crate::browser) handles: Vec<Handle>,
    /// This call's own object group: released when the call ends, never
    /// touching another call's objects.
    pub(in crate::browser) group: String,
    /// `<iframe>` backend node of each (parent session, child frame),
    /// learned in this call.
    pub(in crate::browser) frame_owners: std::collections::HashMap<(String, String), i64>,
    /// Sessions holding remote objects of this call's group.
    pub(in crate::browser) group_sessions: std::collections::BTreeSet<SessionId>,
    /// Set just before the first browser mutation of the call.
    pub dispatched: Arc<AtomicBool>,
    /// The tab's renderer had crashed when the call began (only a
    /// navigation runs then, and recovers it).
    pub(in crate::browser) crashed_at_start: bool,
    /// The page walk's and the observation's part (`observe/call_walk.rs`).
    pub(in crate::browser) observe: CallWalk,
    /// The input actions' part (`input/call_input.rs`).
    pub(in crate::browser) input: CallInput,
}

/// Everything needed to build a [`TargetCall`].
pub struct CallSetup {
    pub cdp: Cdp,
    pub registry: Arc<Registry>,
    pub observations: Arc<Observations>,
    pub workspace: WorkspaceCall,
    pub frames: Arc<FrameBook>,
    pub raw_id: String,
    pub session: String,
    pub generation: u64,
    pub current_generation: Arc<AtomicU64>,
    pub caller: Caller,
    pub lease_guard: LeaseGuard,
    /// Shared with the command record.
    pub dispatched: Arc<AtomicBool>,
}

pub(in crate::browser) fn as_str(v: &Value) -> String {
    v.as_str().unwrap_or_default().to_string()
}

/// A node's state as the page-side `NODE_STATE` reports it.
pub(in crate::browser) fn node_state(v: &Value) -> NodeState {
    NodeState {
        tag: as_str(&v["tag"]),
        input_type: v["inputType"].as_str().map(str::to_string),
        value: v["value"].as_str().map(str::to_string),
        value_length: v["valueLength"].as_u64().unwrap_or(0) as u32,
        checked: v["checked"].as_bool(),
        focused: v["focused"].as_bool().unwrap_or(false),
        editable: v["editable"].as_bool().unwrap_or(false),
        connected: v["connected"].as_bool().unwrap_or(false),
    }
}

/// Refusal of a page call while a JavaScript dialog holds the page.
pub(in crate::browser) fn dialog_open() -> BpError {
    BpError::new(
        Code::ActionNotVerified,
        "a JavaScript dialog is open; answer it first (browser.dialogs.respond)",
    )
    .with_context(json!({"reason": "dialog_open"}))
}

impl TargetCall {
    pub fn new(s: CallSetup) -> BpResult<Self> {
        let (serial, crashed_at_start) = s
            .registry
            .with(&s.raw_id, |t| (t.session_serial, t.crashed))
            .ok_or_else(|| BpError::stale(StaleReason::TargetClosed))?;
        Ok(Self {
            cdp: s.cdp,
            registry: s.registry,
            observations: s.observations,
            ws: s.workspace,
            frames: s.frames,
            raw_id: RawTargetId::from(s.raw_id),
            session: SessionId::from(s.session),
            session_serial: serial,
            generation: s.generation,
            current_generation: s.current_generation,
            caller: s.caller,
            lease_guard: s.lease_guard,
            handles: Vec::new(),
            group: format!("{GROUP_PREFIX}{}", crate::ids::random_hex(6)),
            group_sessions: std::collections::BTreeSet::new(),
            frame_owners: std::collections::HashMap::new(),
            dispatched: s.dispatched,
            crashed_at_start,
            observe: CallWalk::default(),
            input: CallInput::default(),
        })
    }

    /// The one checkpoint: lease, generation, target and session are still
    /// what this call started with.
    pub(crate) fn check(&self) -> BpResult<()> {
        // A closed target first: closing also releases its control, and
        // "closed" is what the caller needs to hear.
        let (closed, serial) = self
            .registry
            .with(&self.raw_id, |t| (t.closed, t.session_serial))
            .ok_or_else(|| BpError::stale(StaleReason::TargetClosed))?;
        if closed {
            return Err(BpError::stale(StaleReason::TargetClosed));
        }
        (self.lease_guard)()?;
        if self.current_generation.load(Ordering::SeqCst) != self.generation || self.cdp.is_closed()
        {
            return Err(BpError::disconnected());
        }
        if serial != self.session_serial {
            return Err(BpError::stale(StaleReason::SessionReplaced));
        }
        if self.crashed_since_start() {
            return Err(crate::cdp::errors::crashed());
        }
        Ok(())
    }

    /// The tab's renderer crashed during this call: nothing sent to the
    /// page would be answered.
    pub(in crate::browser) fn crashed_since_start(&self) -> bool {
        !self.crashed_at_start && self.registry.crashed(&self.raw_id)
    }

    pub(in crate::browser) fn mark_dispatched(&self) {
        self.dispatched.store(true, Ordering::SeqCst);
    }

    /// Send on one of the target's sessions (the page's, or an
    /// out-of-process frame's).
    pub(in crate::browser) async fn send_on(
        &self,
        session: &str,
        method: &str,
        params: Value,
    ) -> BpResult<Value> {
        self.ready_for(method)?;
        self.cdp.call(method, Some(session), params).await
    }

    /// Whether `method` may go to the page now.
    fn ready_for(&self, method: &str) -> BpResult<()> {
        // A page paused by a JavaScript dialog cannot answer; fail fast
        // instead of waiting for a reply that only comes after the dialog.
        if self.doc().2 && method != HandleJavaScriptDialogParams::IDENTIFIER {
            return Err(dialog_open());
        }
        if self.crashed_since_start() {
            return Err(crate::cdp::errors::crashed());
        }
        Ok(())
    }

    /// Send the typed `cmd` on the page's session and read its typed reply.
    pub(in crate::browser) async fn cmd<C: Command>(&self, cmd: &C) -> BpResult<C::Response> {
        self.cmd_on(&self.session, cmd).await
    }

    /// [`TargetCall::cmd`] on one of the target's sessions.
    pub(in crate::browser) async fn cmd_on<C: Command>(
        &self,
        session: &str,
        cmd: &C,
    ) -> BpResult<C::Response> {
        self.ready_for(&cmd.identifier())?;
        self.cdp.send(cmd, Some(session)).await
    }

    /// [`TargetCall::cmd`] on the session that renders the handle's node.
    pub(in crate::browser) async fn cmd_for<C: Command>(
        &self,
        handle: u32,
        cmd: &C,
    ) -> BpResult<C::Response> {
        let session = self.handle(handle)?.session.clone();
        self.cmd_on(&session, cmd).await
    }

    /// Send the typed `cmd` on the page's session, its reply as JSON: for
    /// replies that carry page data (remote objects, accessibility nodes)
    /// whose enums drift between browser versions.
    pub(in crate::browser) async fn cmd_raw<C: Command>(&self, cmd: &C) -> BpResult<Value> {
        self.cmd_on_raw(&self.session, cmd).await
    }

    /// [`TargetCall::cmd_raw`] on one of the target's sessions.
    pub(in crate::browser) async fn cmd_on_raw<C: Command>(
        &self,
        session: &str,
        cmd: &C,
    ) -> BpResult<Value> {
        self.ready_for(&cmd.identifier())?;
        self.cdp.send_raw(cmd, Some(session)).await
    }

    /// [`TargetCall::cmd_raw`] on the session that renders the handle's node.
    pub(in crate::browser) async fn cmd_for_raw<C: Command>(
        &self,
        handle: u32,
        cmd: &C,
    ) -> BpResult<Value> {
        let session = self.handle(handle)?.session.clone();
        self.cmd_on_raw(&session, cmd).await
    }

    /// Send a command kept in its wire form on the page's session.
    pub(in crate::browser) async fn send_wire(&self, wire: Wire) -> BpResult<Value> {
        self.send_on(&self.session, &wire.method, wire.params).await
    }

    pub(in crate::browser) fn doc(&self) -> (u64, Option<String>, bool, bool) {
        self.registry
            .with(&self.raw_id, |t| {
                (t.doc_gen, t.loader.clone(), t.dialog_open, t.loading)
            })
            .unwrap_or((0, None, false, false))
    }

    /// Release object groups in the background, as `(session, group)`.
    pub(in crate::browser) fn release_groups(&self, groups: Vec<(String, String)>) {
        if groups.is_empty() {
            return;
        }
        let cdp = self.cdp.clone();
        if let Ok(rt) = tokio::runtime::Handle::try_current() {
            rt.spawn(async move {
                for (session, group) in groups {
                    let release = ReleaseObjectGroupParams::new(group);
                    let _ = cdp.send(&release, Some(&session)).await;
                }
            });
        }
    }
}

impl Drop for TargetCall {
    fn drop(&mut self) {
        self.forget_read_ahead();
        // Remote objects live in the session of their frame. (A node's
        // object from the page walk or a held observation is not in this
        // call's group.)
        let mut groups: Vec<(String, String)> = self
            .group_sessions
            .iter()
            .map(|s| (s.to_string(), self.group.clone()))
            .collect();
        // A walk whose observation was never recorded.
        if let Some(refs) = self.observe.refs_group.take() {
            groups.push((self.session.to_string(), refs));
        }
        self.release_groups(groups);
    }
}
