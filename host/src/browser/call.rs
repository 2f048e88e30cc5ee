//! [`TargetCall`]: the browser operations one tool call may perform on its
//! target. Every operation starts with [`TargetCall::check`], the single
//! place that re-verifies lease, connection generation, target and session.

use super::held_refs::HeldGroup;
use super::js;
use super::keys;
use super::observations::{Observation, Observations, RefNode, OBSERVATION_TTL};
use super::proved_read::{count_reached, Proof};
use super::registry::Registry;
use super::types::{
    Hit, Modifiers, MouseButton, NodeHandle, NodeState, ObservedElement, PageInfo, PageText, Point,
};
use crate::cdp::Cdp;
use crate::error::{BpError, BpResult, Code, StaleReason};
use serde_json::{json, Value};
use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};
use std::sync::Arc;

/// Object group for remote objects made during one call.
/// Prefix of the per-call object group of remote objects.
const GROUP_PREFIX: &str = "browser-pilot-call-";

/// Re-checks that the calling lease still controls the target.
pub type LeaseGuard = Arc<dyn Fn() -> BpResult<()> + Send + Sync>;

/// Who is calling: recorded on observations.
#[derive(Clone)]
pub struct Caller {
    pub workspace_id: String,
    pub lease_id: String,
}

pub(super) struct Handle {
    pub(super) backend: i64,
    pub(super) object: Option<String>,
    /// The child frame the node lives in (`None`: the main frame), with
    /// that frame's loader when the node was found.
    pub(super) frame: Option<(String, Option<String>)>,
    /// The session that renders that frame.
    pub(super) session: String,
}

/// The browser scope of one tool call.
pub struct TargetCall {
    pub(super) cdp: Cdp,
    pub(super) registry: Arc<Registry>,
    pub(super) observations: Arc<Observations>,
    /// The calling workspace, for the workspace capabilities a target tool
    /// also uses (a capture becoming an artifact).
    pub ws: super::workspace_call::WorkspaceCall,
    pub(super) raw_id: String,
    pub(super) session: String,
    /// Frame IDs and selections.
    pub(super) frames: Arc<super::frames::FrameBook>,
    pub(super) session_serial: u64,
    pub(super) generation: u64,
    current_generation: Arc<AtomicU64>,
    pub(super) caller: Caller,
    lease_guard: LeaseGuard,
    handles: Vec<Handle>,
    /// This call's own object group: released when the call ends, never
    /// touching another call's objects.
    pub(super) group: String,
    /// `<iframe>` backend node of each (parent session, child frame),
    /// learned in this call.
    pub(super) frame_owners: std::collections::HashMap<(String, String), i64>,
    /// Sessions holding remote objects of this call's group.
    pub(super) group_sessions: std::collections::BTreeSet<String>,
    /// Document (and selected frame) the last accessibility read came from.
    pub(super) tree_doc: Option<(u64, Option<String>, Option<String>)>,
    /// Set just before the first browser mutation of the call.
    pub dispatched: Arc<AtomicBool>,
    /// Input was dispatched and the page not settled since (`settle.rs`).
    pub(super) unsettled: bool,
    /// The last active element read: its token and remote object, so the
    /// next read can confirm it in one page call.
    pub(super) last_active: Option<(String, String)>,
    /// The active element's token as a page call that focused it found
    /// it, with the commands sent on the connection by then: the next
    /// read takes it if nothing was sent since (`focus_editable.rs`).
    pub(super) active_known: Option<(u64, String)>,
    /// Active-element reads that named an element by its object.
    pub(super) active_reads: u32,
    /// What the last ref revalidation read (`resolved.rs`).
    pub(super) resolved: Option<super::resolved::Resolved>,
    /// An active-element read sent ahead (`read_ahead.rs`).
    pub(super) read_ahead: Option<super::read_ahead::ReadAhead>,
    /// The object group the page walk put its candidates in, until the
    /// observation is recorded and the group is held (`held_refs.rs`).
    pub(super) refs_group: Option<String>,
    /// The held group of the tab's previous observation, when this call's
    /// walk took its elements from there (`rewalk.rs`); never released
    /// by this call.
    pub(super) inherited_group: Option<String>,
    /// The elements this call's walk identified: (backend node, object).
    pub(super) walked: Vec<super::held_refs::Known>,
    /// The roles this call's walk was asked for.
    pub(super) walked_roles: Vec<String>,
    /// The page's walk agent for this document, in the group of the
    /// walk's candidates or the held group (`walk_agent.rs`).
    pub(super) agent: Option<String>,
    /// Walk the page afresh, without the known elements.
    pub(super) rewalk_off: bool,
    /// The tab's renderer had crashed when the call began (only a
    /// navigation runs then, and recovers it).
    pub(super) crashed_at_start: bool,
    /// Object groups this call handed over to be held.
    pub(super) held_count: u32,
    /// The node given focus last, and the node aimed at last.
    pub(super) focused_handle: Option<NodeHandle>,
    pub(super) aimed_handle: Option<NodeHandle>,
    /// The page's `pointerup` count read as the click was aimed (main
    /// frame only), which its read sent with the release must pass.
    pub(super) pointerups_before: Option<u64>,
    /// The field a type action focused, as it read then, until other
    /// input (`typed_readback.rs`).
    pub(super) typed_before: Option<super::typed_readback::TypedBefore>,
    /// The `keyup` count of the active element's document as the last
    /// active-element read confirmed it, with the commands sent on the
    /// connection by then: a key sent next with nothing sent between
    /// proves its focus read by it (`proved_read.rs`).
    pub(super) keyups_seen: Option<(u64, u64)>,
}

/// Everything needed to build a [`TargetCall`].
pub struct CallSetup {
    pub cdp: Cdp,
    pub registry: Arc<Registry>,
    pub observations: Arc<Observations>,
    pub workspace: super::workspace_call::WorkspaceCall,
    pub frames: Arc<super::frames::FrameBook>,
    pub raw_id: String,
    pub session: String,
    pub generation: u64,
    pub current_generation: Arc<AtomicU64>,
    pub caller: Caller,
    pub lease_guard: LeaseGuard,
    /// Shared with the command record.
    pub dispatched: Arc<AtomicBool>,
}

fn as_str(v: &Value) -> String {
    v.as_str().unwrap_or_default().to_string()
}

/// A node's state as the page-side `NODE_STATE` reports it.
pub(super) fn node_state(v: &Value) -> NodeState {
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
pub(super) fn dialog_open() -> BpError {
    BpError::new(
        Code::ActionNotVerified,
        "a JavaScript dialog is open; answer it first (browser.dialogs.respond)",
    )
    .with_context(json!({"reason": "dialog_open"}))
}

/// How long a click that met a dialog waits for its pointer move's reply.
const MOVE_REPLY_GRACE: std::time::Duration = std::time::Duration::from_millis(100);

/// A dialog opened during a click, after `sent` of the `total` presses
/// and releases went out. Opened by a press or release (the move was
/// answered), the click has had its effect. Opened by the move (no reply
/// to it yet: the page is paused inside its handler), the click is cut
/// short and the rest is not sent; a press already sent behind the move
/// may reach the page once the dialog is answered, or be dropped by the
/// browser, so the outcome is unknown.
///
/// The press goes out before the move is answered, so a press that opened
/// the dialog can be seen before the move's reply, which the page sent
/// first but on another channel. The reply is given a moment to come: it
/// never comes while the move's own handler holds the page.
async fn dialog_during_click(moved: crate::cdp::Pending, sent: u32, total: u32) -> BpResult<()> {
    if let Ok(Ok(_)) = tokio::time::timeout(MOVE_REPLY_GRACE, moved).await {
        return Ok(());
    }
    let (step, message) = if sent == 0 {
        (
            "mousePressed",
            "a JavaScript dialog opened as the pointer moved onto the element; the press was not sent",
        )
    } else {
        (
            "mouseMoved",
            "a JavaScript dialog opened as the pointer moved onto the element; the press already sent may reach the page once the dialog is answered, or not at all",
        )
    };
    Err(
        BpError::new(Code::UnknownOutcome, message).with_context(json!({
        "action": "click", "step": step, "reason": "dialog_opened",
        "dispatchedSteps": 1 + sent, "remainingStepsStopped": total - sent})),
    )
}

/// The one answer for a ref this caller cannot see: it does not tell an
/// unknown observation from another workspace's or another target's.
fn no_such_ref() -> BpError {
    BpError::new(
        Code::StaleRef,
        "no such observation ref for this workspace and target",
    )
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
            raw_id: s.raw_id,
            session: s.session,
            session_serial: serial,
            generation: s.generation,
            current_generation: s.current_generation,
            caller: s.caller,
            lease_guard: s.lease_guard,
            handles: Vec::new(),
            group: format!("{GROUP_PREFIX}{}", crate::ids::random_hex(6)),
            group_sessions: std::collections::BTreeSet::new(),
            frame_owners: std::collections::HashMap::new(),
            tree_doc: None,
            dispatched: s.dispatched,
            unsettled: false,
            last_active: None,
            active_known: None,
            active_reads: 0,
            resolved: None,
            refs_group: None,
            inherited_group: None,
            walked: Vec::new(),
            walked_roles: Vec::new(),
            agent: None,
            rewalk_off: false,
            crashed_at_start,
            held_count: 0,
            read_ahead: None,
            focused_handle: None,
            typed_before: None,
            aimed_handle: None,
            pointerups_before: None,
            keyups_seen: None,
        })
    }

    /// The one checkpoint: lease, generation, target and session are still
    /// what this call started with.
    pub(super) fn check(&self) -> BpResult<()> {
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
    pub(super) fn crashed_since_start(&self) -> bool {
        !self.crashed_at_start && self.registry.crashed(&self.raw_id)
    }

    pub(super) fn mark_dispatched(&self) {
        self.dispatched.store(true, Ordering::SeqCst);
    }

    pub(super) async fn send(&self, method: &str, params: Value) -> BpResult<Value> {
        self.send_on(&self.session, method, params).await
    }

    /// Send on one of the target's sessions (the page's, or an
    /// out-of-process frame's).
    pub(super) async fn send_on(
        &self,
        session: &str,
        method: &str,
        params: Value,
    ) -> BpResult<Value> {
        // A page paused by a JavaScript dialog cannot answer; fail fast
        // instead of waiting for a reply that only comes after the dialog.
        if self.doc().2 && method != "Page.handleJavaScriptDialog" {
            return Err(dialog_open());
        }
        if self.crashed_since_start() {
            return Err(crate::cdp::errors::crashed());
        }
        self.cdp.call(method, Some(session), params).await
    }

    /// Send on the session that renders the handle's node.
    pub(super) async fn send_for(
        &self,
        handle: u32,
        method: &str,
        params: Value,
    ) -> BpResult<Value> {
        let session = self.handle(handle)?.session.clone();
        self.send_on(&session, method, params).await
    }

    pub(super) fn doc(&self) -> (u64, Option<String>, bool, bool) {
        self.registry
            .with(&self.raw_id, |t| {
                (t.doc_gen, t.loader.clone(), t.dialog_open, t.loading)
            })
            .unwrap_or((0, None, false, false))
    }

    pub(super) fn handle(&self, handle: u32) -> BpResult<&Handle> {
        self.handles
            .get(handle as usize)
            .ok_or_else(|| BpError::invalid("unknown node handle"))
    }

    pub(super) fn backend(&self, handle: u32) -> BpResult<i64> {
        self.handle(handle).map(|h| h.backend)
    }

    pub(super) fn new_handle(
        &mut self,
        backend: i64,
        frame: Option<(String, Option<String>)>,
        session: String,
    ) -> u32 {
        self.handles.push(Handle {
            backend,
            object: None,
            frame,
            session,
        });
        (self.handles.len() - 1) as u32
    }

    /// Remember a remote object already held for the handle's node.
    /// Whether the handle's node is in the page's own main frame (not in a
    /// frame, and rendered by the page's session).
    pub(super) fn in_main_frame(&self, handle: u32) -> bool {
        self.handle(handle)
            .is_ok_and(|h| h.frame.is_none() && h.session == self.session)
    }

    pub(super) fn set_object(&mut self, handle: u32, object: String) {
        if let Some(h) = self.handles.get_mut(handle as usize) {
            h.object = Some(object);
        }
    }

    /// Forget the handle's remote object (it will be resolved again).
    pub(super) fn clear_object(&mut self, handle: u32) {
        if let Some(h) = self.handles.get_mut(handle as usize) {
            h.object = None;
        }
    }

    /// A remote object for the handle's node (resolved once per call).
    pub(super) async fn object(&mut self, handle: u32) -> BpResult<String> {
        let backend = self.backend(handle)?;
        if let Some(Some(obj)) = self.handles.get(handle as usize).map(|h| h.object.clone()) {
            return Ok(obj);
        }
        // The object is the call's, released with its group (also when the
        // reply is lost: it may come after all).
        let session = self.handle(handle)?.session.clone();
        self.group_sessions.insert(session);
        let reply = self
            .send_for(
                handle,
                "DOM.resolveNode",
                json!({"backendNodeId": backend, "objectGroup": self.group}),
            )
            .await
            .map_err(|_| BpError::stale(StaleReason::DocumentReplaced))?;
        let obj = as_str(&reply["object"]["objectId"]);
        if obj.is_empty() {
            return Err(BpError::stale(StaleReason::DocumentReplaced));
        }
        if let Some(h) = self.handles.get_mut(handle as usize) {
            h.object = Some(obj.clone());
        }
        Ok(obj)
    }

    pub(super) async fn call_on(
        &mut self,
        handle: u32,
        function: &str,
        args: Value,
        by_value: bool,
    ) -> BpResult<Value> {
        let object = self.object(handle).await?;
        if !by_value {
            // The result is a remote object of this call's group.
            let session = self.handle(handle)?.session.clone();
            self.group_sessions.insert(session);
        }
        let params = self.call_on_params(&object, function, args, by_value);
        let session = self.handle(handle)?.session.clone();
        let reply = if session == self.session {
            // (A read sent ahead of it is taken here.)
            self.send_or_ahead("Runtime.callFunctionOn", params).await
        } else {
            self.send_for(handle, "Runtime.callFunctionOn", params)
                .await
        };
        match reply {
            Ok(reply) if reply.get("exceptionDetails").is_none() => Ok(reply["result"].clone()),
            // The exception, or a reply never seen that may hold one, is a
            // remote object of this call's group.
            other => {
                self.group_sessions.insert(session);
                other.and(Err(BpError::internal("a page-side helper threw")))
            }
        }
    }

    pub(super) async fn evaluate_value(&self, expression: &str) -> BpResult<Value> {
        let reply = self
            .send(
                "Runtime.evaluate",
                json!({"expression": expression, "returnByValue": true}),
            )
            .await?;
        if reply.get("exceptionDetails").is_some() {
            return Err(BpError::internal("a page-side helper threw"));
        }
        Ok(reply["result"]["value"].clone())
    }

    // ---- page-read -------------------------------------------------------

    pub async fn current_page(&self) -> BpResult<PageInfo> {
        self.check()?;
        let (_, _, dialog_open, _) = self.doc();
        let (mut url, mut title) = self
            .registry
            .with(&self.raw_id, |t| (t.url.clone(), t.title.clone()))
            .unwrap_or_default();
        // While a dialog is open the page cannot run script; use what the
        // registry last saw.
        if !dialog_open {
            if let Ok(facts) = self.evaluate_value(js::PAGE_FACTS).await {
                url = crate::redact::url(&as_str(&facts[0]));
                title = as_str(&facts[1]);
            }
        }
        // The document generation as of the reply: a document committed
        // while the read was in flight is counted (its event came first),
        // so facts read from a new document never pass as the old one's.
        let doc_gen = self.doc().0;
        Ok(PageInfo {
            url,
            title,
            document_generation: doc_gen,
            dialog_open,
        })
    }

    pub fn document_state(&self) -> BpResult<(u64, bool)> {
        self.check()?;
        let (doc_gen, _, dialog_open, _) = self.doc();
        Ok((doc_gen, dialog_open))
    }

    pub fn record_observation(&mut self, elements: &[ObservedElement]) -> BpResult<String> {
        self.check()?;
        let (doc_gen, loader, ..) = self.doc();
        let Some((tree_gen, tree_loader, frame_scope)) = self.tree_doc.clone() else {
            return Err(BpError::invalid(
                "read the accessibility tree before recording an observation",
            ));
        };
        if tree_gen != doc_gen || tree_loader != loader {
            return Err(BpError::new(
                Code::ActionNotVerified,
                "the document changed while observing; observe again",
            )
            .with_context(json!({"reason": "document_changed"})));
        }
        let mut refs = Vec::with_capacity(elements.len());
        for (i, e) in elements.iter().enumerate() {
            if e.reference as usize != i + 1 {
                return Err(BpError::invalid(
                    "observation refs must be numbered 1, 2, 3, ...",
                ));
            }
            let h = self.handle(e.handle)?;
            refs.push(RefNode {
                backend: h.backend,
                frame: h.frame.clone(),
            });
        }
        let id = crate::ids::new_id("obs");
        self.observations.insert(Observation {
            id: id.clone(),
            workspace_id: self.caller.workspace_id.clone(),
            lease_id: self.caller.lease_id.clone(),
            raw_target: self.raw_id.clone(),
            generation: self.generation,
            session_serial: self.session_serial,
            doc_gen,
            loader,
            created: std::time::Instant::now(),
            frame_scope,
            refs,
        });
        let release = match self.refs_group.take().or(self.inherited_group.take()) {
            Some(group) => {
                let mut known = std::mem::take(&mut self.walked);
                if known.len() > super::rewalk::MAX_KNOWN {
                    // Too many to pass back; the refs still use them.
                    known.clear();
                }
                let held = HeldGroup {
                    observation: id.clone(),
                    session: self.session.clone(),
                    group,
                    known: Arc::new(known),
                    roles: Arc::new(std::mem::take(&mut self.walked_roles)),
                    agent: self.agent.take(),
                    doc_gen,
                };
                self.held_count += 1;
                self.observations.held.hold(&self.raw_id, held)
            }
            // Not walked (a framed page): the tab's older objects go.
            None => self
                .observations
                .held
                .forget(&self.raw_id)
                .into_iter()
                .collect(),
        };
        // A release of a group that went with its document would only
        // queue in the page ahead of the next call's first command.
        let release = release
            .into_iter()
            .filter(|g| !g.went_with_document(&self.session, doc_gen))
            .map(|g| (g.session, g.group))
            .collect();
        self.release_groups(release);
        Ok(id)
    }

    pub async fn resolve_ref(
        &mut self,
        observation_id: &str,
        reference: u32,
    ) -> BpResult<NodeHandle> {
        let (handle, held) = self.ref_handle(observation_id, reference)?;
        // Live revalidation: the node must still resolve and be connected.
        if !self.revalidate(handle, held).await? {
            return Err(BpError::stale(StaleReason::DocumentReplaced));
        }
        Ok(handle)
    }

    /// A new handle for an observation's ref, once every check that needs
    /// no page call has passed, and the node's object from the
    /// observation if it is held. The node is not revalidated yet.
    pub(super) fn ref_handle(
        &mut self,
        observation_id: &str,
        reference: u32,
    ) -> BpResult<(NodeHandle, Option<String>)> {
        self.check()?;
        let obs = self.current_observation(observation_id)?;
        let node = obs
            .refs
            .get((reference as usize).wrapping_sub(1))
            .cloned()
            .ok_or_else(no_such_ref)?;
        let session = self.ref_session(&node)?;
        // The walk's object for the node, if this observation's are held.
        let held = node
            .frame
            .is_none()
            .then(|| {
                self.observations
                    .held
                    .object_of(&self.raw_id, observation_id, node.backend)
            })
            .flatten();
        Ok((self.new_handle(node.backend, node.frame, session), held))
    }

    /// The observation, if the caller may still resolve its refs: it
    /// belongs to this workspace and target and was taken against this
    /// lease, connection, session, document and loader.
    fn current_observation(&self, observation_id: &str) -> BpResult<Arc<Observation>> {
        if self.observations.is_retired(observation_id) {
            return Err(BpError::stale(StaleReason::BrowserReconnected));
        }
        let obs = self
            .observations
            .get(observation_id)
            .ok_or_else(no_such_ref)?;
        if obs.workspace_id != self.caller.workspace_id || obs.raw_target != self.raw_id {
            return Err(no_such_ref());
        }
        if obs.created.elapsed() > OBSERVATION_TTL {
            return Err(BpError::stale(StaleReason::Expired));
        }
        if obs.generation != self.generation {
            return Err(BpError::stale(StaleReason::BrowserReconnected));
        }
        if obs.lease_id != self.caller.lease_id {
            return Err(BpError::stale(StaleReason::ControlReleased));
        }
        if obs.session_serial != self.session_serial {
            return Err(BpError::stale(StaleReason::SessionReplaced));
        }
        let (doc_gen, loader, ..) = self.doc();
        if obs.doc_gen != doc_gen {
            return Err(BpError::stale(StaleReason::Navigation));
        }
        if obs.loader != loader {
            return Err(BpError::stale(StaleReason::LoaderReplaced));
        }
        if let Some(reason) = self.observations.invalid_reason(observation_id) {
            return Err(BpError::stale(reason));
        }
        Ok(obs)
    }

    /// The session that renders a ref's node now: the page's, or its
    /// frame's if that frame still shows the document it was observed in.
    fn ref_session(&self, node: &RefNode) -> BpResult<String> {
        let Some((frame, frame_loader)) = &node.frame else {
            return Ok(self.session.clone());
        };
        let now = self
            .registry
            .with(&self.raw_id, |t| {
                t.frames
                    .get(frame)
                    .map(|f| (f.loader.clone(), t.session_for(Some(frame))))
            })
            .flatten();
        match now {
            None => Err(BpError::stale(StaleReason::FrameDetached)),
            // (A loader not yet known when observed cannot be compared;
            // the live check in `resolve_ref` still applies.)
            Some((l, _)) if frame_loader.is_some() && l != *frame_loader => {
                Err(BpError::stale(StaleReason::FrameChanged))
            }
            Some((_, s)) => s.ok_or_else(|| BpError::stale(StaleReason::FrameDetached)),
        }
    }

    pub(super) async fn read_node_now(&mut self, handle: NodeHandle) -> BpResult<NodeState> {
        self.check()?;
        if let Some(v) = self.take_resolved(handle) {
            let state = if v["facts"].is_array() {
                &v["state"]
            } else {
                &v
            };
            return Ok(node_state(state));
        }
        let v = self
            .call_on(handle, js::NODE_STATE, json!([]), true)
            .await?;
        Ok(node_state(&v["value"]))
    }

    /// The page and, when given, one node's state. A node of the main
    /// frame is read together with the page facts in one page call; any
    /// other takes two. A node that cannot be read gives `None`.
    pub(super) async fn page_and_node_now(
        &mut self,
        handle: Option<NodeHandle>,
    ) -> BpResult<(PageInfo, Option<NodeState>)> {
        self.check()?;
        let Some(handle) = handle else {
            return Ok((self.current_page().await?, None));
        };
        let main_frame = self.in_main_frame(handle);
        let (_, _, dialog_open, _) = self.doc();
        if main_frame && !dialog_open {
            let read = match self.take_resolved(handle) {
                Some(value) => Ok(json!({ "value": value })),
                None => {
                    self.call_on(handle, &js::node_and_page(), json!([]), true)
                        .await
                }
            };
            if let Some(v) = read
                .as_ref()
                .ok()
                .map(|v| &v["value"])
                .filter(|v| v["facts"].is_array() && v["state"].is_object())
            {
                // As of the reply (see `current_page`).
                let info = PageInfo {
                    url: crate::redact::url(&as_str(&v["facts"][0])),
                    title: as_str(&v["facts"][1]),
                    document_generation: self.doc().0,
                    dialog_open,
                };
                return Ok((info, Some(node_state(&v["state"]))));
            }
        }
        let info = self.current_page().await?;
        let node = self.read_node_now(handle).await.ok();
        Ok((info, node))
    }

    pub async fn text(&mut self, handle: Option<NodeHandle>, max_chars: u32) -> BpResult<PageText> {
        self.check()?;
        let v = match handle {
            Some(h) => self
                .call_on(h, js::NODE_TEXT, json!([{"value": max_chars}]), true)
                .await?["value"]
                .clone(),
            None => self.evaluate_value(&js::page_text(max_chars)).await?,
        };
        Ok(PageText {
            text: as_str(&v[0]),
            truncated: v[1].as_bool().unwrap_or(false),
        })
    }

    // ---- input -----------------------------------------------------------

    pub async fn scroll_into_view(&mut self, handle: NodeHandle) -> BpResult<()> {
        self.check()?;
        let backend = self.backend(handle)?;
        self.send_for(
            handle,
            "DOM.scrollIntoViewIfNeeded",
            json!({"backendNodeId": backend}),
        )
        .await
        .map(|_| ())
    }

    pub async fn box_center(&mut self, handle: NodeHandle) -> BpResult<Point> {
        self.check()?;
        let backend = self.backend(handle)?;
        let not_visible = || {
            BpError::new(Code::ActionNotVerified, "the element has no visible box")
                .with_context(json!({"reason": "not_visible"}))
        };
        let reply = self
            .send_for(
                handle,
                "DOM.getContentQuads",
                json!({"backendNodeId": backend}),
            )
            .await
            .map_err(|_| not_visible())?;
        // Quads are relative to the viewport of the session's root frame;
        // input goes to the top-level viewport.
        let session = self.handle(handle)?.session.clone();
        let offset = self.session_offset(&session).await?;
        let quads = reply["quads"].as_array().cloned().unwrap_or_default();
        for q in quads {
            let p: Vec<f64> = q
                .as_array()
                .into_iter()
                .flatten()
                .filter_map(Value::as_f64)
                .collect();
            if p.len() != 8 {
                continue;
            }
            let area = ((p[0] * p[3] - p[2] * p[1])
                + (p[2] * p[5] - p[4] * p[3])
                + (p[4] * p[7] - p[6] * p[5])
                + (p[6] * p[1] - p[0] * p[7]))
                .abs()
                / 2.0;
            if area > 1.0 {
                return Ok(Point {
                    x: offset.x + (p[0] + p[2] + p[4] + p[6]) / 4.0,
                    y: offset.y + (p[1] + p[3] + p[5] + p[7]) / 4.0,
                });
            }
        }
        Err(not_visible())
    }

    /// Scroll, measure and hit-test in one page call for a main-frame
    /// node; any other (or a page call that fails) takes the three steps.
    pub async fn aim(&mut self, handle: NodeHandle) -> BpResult<(Point, Hit)> {
        self.check()?;
        self.aimed_handle = Some(handle);
        self.pointerups_before = None;
        let main_frame = self.in_main_frame(handle);
        if main_frame {
            if let Some((at, pointerups)) = self.take_resolved_aim(handle) {
                self.pointerups_before = pointerups;
                // Revalidating the ref found it in view and not covered.
                let hit = Hit {
                    on_target: true,
                    role: String::new(),
                    name: String::new(),
                };
                return Ok((at, hit));
            }
            let aimed = self.call_on(handle, &js::aim(), json!([]), true).await;
            let v = aimed.as_ref().map(|r| &r["value"]);
            if let Ok(v) = v {
                if let (Some(x), Some(y), Some(covered)) =
                    (v["x"].as_f64(), v["y"].as_f64(), v["covered"].as_bool())
                {
                    let at = Point { x, y };
                    self.pointerups_before = v["pointerups"].as_u64();
                    if covered {
                        // Rare: name what covers it (two more calls).
                        let hit = self.hit_test(handle, at).await?;
                        return Ok((at, hit));
                    }
                    let hit = Hit {
                        on_target: true,
                        role: String::new(),
                        name: String::new(),
                    };
                    return Ok((at, hit));
                }
            }
        }
        self.scroll_into_view(handle).await?;
        let at = self.box_center(handle).await?;
        let hit = self.hit_test(handle, at).await?;
        Ok((at, hit))
    }

    pub async fn hit_test(&mut self, handle: NodeHandle, at: Point) -> BpResult<Hit> {
        self.check()?;
        // The page-side test works in the coordinates of the node's frame.
        let frame = self.handle(handle)?.frame.clone().map(|(f, _)| f);
        let offset = self.frame_offset(frame.as_deref()).await?;
        let (x, y) = (at.x - offset.x, at.y - offset.y);
        let hit = self
            .call_on(
                handle,
                js::HIT_TEST,
                json!([{"value": x}, {"value": y}]),
                false,
            )
            .await?;
        let Some(cover) = hit["objectId"].as_str() else {
            return Ok(Hit {
                on_target: true,
                role: String::new(),
                name: String::new(),
            });
        };
        let ax = self
            .send_for(
                handle,
                "Accessibility.getPartialAXTree",
                json!({"objectId": cover, "fetchRelatives": false}),
            )
            .await
            .unwrap_or(Value::Null);
        let node = ax["nodes"]
            .as_array()
            .and_then(|n| n.first())
            .cloned()
            .unwrap_or(Value::Null);
        Ok(Hit {
            on_target: false,
            role: as_str(&node["role"]["value"]),
            name: as_str(&node["name"]["value"]),
        })
    }

    /// Send an input event; return early if it opens a JavaScript dialog
    /// (the browser holds the reply until the dialog is handled).
    async fn input_event(&self, method: &str, params: Value) -> BpResult<()> {
        self.input_event_on(&self.session, method, params).await
    }

    async fn input_event_on(&self, session: &str, method: &str, params: Value) -> BpResult<()> {
        self.send_unless_dialog(session, method, params)
            .await
            .map(|_| ())
    }

    /// Send, but stop waiting when a JavaScript dialog opens first (the
    /// browser holds the reply until it is answered) or the target goes
    /// away: `None` then.
    pub(super) async fn send_unless_dialog(
        &self,
        session: &str,
        method: &str,
        params: Value,
    ) -> BpResult<Option<Value>> {
        let (rx, sent) = self.watch_and_send(session, method, params)?;
        self.reply_unless_dialog(rx, method, sent).await
    }

    /// Watch the target, then send `method` at once (refused while a
    /// dialog is open): the watch and the reply to come, for
    /// [`TargetCall::reply_unless_dialog`].
    pub(super) fn watch_and_send(
        &self,
        session: &str,
        method: &str,
        params: Value,
    ) -> BpResult<(tokio::sync::watch::Receiver<u64>, crate::cdp::Pending)> {
        let rx = self
            .registry
            .watch(&self.raw_id)
            .ok_or_else(|| BpError::stale(StaleReason::TargetClosed))?;
        if self.doc().2 {
            return Err(dialog_open());
        }
        if self.crashed_since_start() {
            return Err(crate::cdp::errors::crashed());
        }
        let sent = self.cdp.send_now(method, Some(session), params)?;
        Ok((rx, sent))
    }

    /// The reply to a command sent, unless a JavaScript dialog opens first
    /// or the target goes away (`None`). `rx` watches the target from
    /// before the command was sent.
    pub(super) async fn reply_unless_dialog(
        &self,
        mut rx: tokio::sync::watch::Receiver<u64>,
        method: &str,
        sent: crate::cdp::Pending,
    ) -> BpResult<Option<Value>> {
        let reply = crate::cdp::Cdp::reply(method, sent, crate::cdp::COMMAND_TIMEOUT);
        tokio::pin!(reply);
        loop {
            tokio::select! {
                // A reply that has come is the answer, even when a dialog
                // opened after it.
                biased;
                r = &mut reply => return r.map(Some),
                changed = rx.changed() => {
                    // A tab that closes itself (`window.close()` in a click
                    // handler) may never answer the event that closed it.
                    // (All targets also read closed when the connection
                    // is lost: that is not this tab closing.)
                    if self.cdp.is_closed() {
                        return Err(BpError::disconnected());
                    }
                    let closed = self.registry.with(&self.raw_id, |t| t.closed);
                    if changed.is_err() || self.doc().2 || closed.unwrap_or(true) {
                        return Ok(None);
                    }
                }
            }
        }
    }

    pub async fn click(&mut self, at: Point, button: MouseButton, count: u32) -> BpResult<()> {
        self.check()?;
        let button = match button {
            MouseButton::Left => "left",
            MouseButton::Middle => "middle",
            MouseButton::Right => "right",
        };
        self.mark_dispatched();
        // The move goes out together with the press. Its reply waits for
        // the next animation frame (the renderer aligns moves to frames),
        // yet the renderer handles it before the press that follows.
        let moved = self.cdp.send_now(
            "Input.dispatchMouseEvent",
            Some(&self.session),
            json!({"type": "mouseMoved", "x": at.x, "y": at.y}),
        )?;
        let (mut sent, total) = (0, 2 * count.max(1));
        for n in 1..=count.max(1) {
            let ev = |kind: &str| json!({"type": kind, "x": at.x, "y": at.y, "button": button, "buttons": 1, "clickCount": n});
            for kind in ["mousePressed", "mouseReleased"] {
                // A dialog opened by an earlier event pauses the page: stop
                // sending.
                if self.doc().2 {
                    return dialog_during_click(moved, sent, total).await;
                }
                if sent + 1 < total {
                    self.input_event("Input.dispatchMouseEvent", ev(kind))
                        .await?;
                } else {
                    // The clicked node and the page are read next: sent
                    // with the release when the count of releases the
                    // page has seen can prove it ran after this one.
                    let next = self
                        .aimed_handle
                        .and_then(|h| self.node_read(h, &js::node_and_page()));
                    let proof = self.pointerups_before.take().map(|n| {
                        let want = n.saturating_add(u64::from(count.max(1)));
                        (Proof::Clicked, count_reached("pointerups", want))
                    });
                    self.input_and_read(("Input.dispatchMouseEvent", ev(kind)), next, proof)
                        .await?;
                }
                sent += 1;
            }
        }
        // Handled before the press: its reply has come (or is dropped).
        self.defer_settle();
        Ok(())
    }

    pub async fn dom_click(&mut self, handle: NodeHandle) -> BpResult<()> {
        self.check()?;
        self.mark_dispatched();
        let object = self.object(handle).await?;
        let session = self.handle(handle)?.session.clone();
        self.input_event_on(
            &session,
            "Runtime.callFunctionOn",
            json!({"objectId": object, "functionDeclaration": js::DOM_CLICK, "returnByValue": true}),
        )
        .await?;
        self.defer_settle();
        Ok(())
    }

    pub async fn focus(&mut self, handle: NodeHandle) -> BpResult<()> {
        self.check()?;
        let backend = self.backend(handle)?;
        self.mark_dispatched();
        let params = json!({"backendNodeId": backend});
        self.focused_handle = Some(handle);
        if self.handle(handle)?.session != self.session {
            return self.send_for(handle, "DOM.focus", params).await.map(|_| ());
        }
        // Composite typing reads focus next: that read goes out with it.
        let next = self.first_active_read();
        self.input_then_read("DOM.focus", params, Some(next))
            .await
            .map(|_| ())
    }

    pub async fn press_key(&mut self, key: &str, held: Modifiers) -> BpResult<()> {
        self.check()?;
        self.typed_before = None;
        let mut mods = 0;
        for (on, bit) in [
            (held.alt, keys::ALT),
            (held.ctrl, keys::CTRL),
            (held.meta, keys::META),
            (held.shift, keys::SHIFT),
        ] {
            if on {
                mods |= bit;
            }
        }
        let (down, up) = keys::key_events(key, mods)?;
        // The keyup count read by the focus check right before this key,
        // if nothing was sent since: the focus read after the key must
        // show one more.
        let sent = self.cdp.commands_sent();
        let proof = match self.keyups_seen.take() {
            Some((count, at)) if at == sent && self.last_active.is_some() => Some((
                Proof::Keyed,
                count_reached("keyups", count.saturating_add(1)),
            )),
            _ => None,
        };
        self.mark_dispatched();
        self.input_event("Input.dispatchKeyEvent", down).await?;
        if !self.doc().2 {
            let next = self.first_active_read();
            self.input_and_read(("Input.dispatchKeyEvent", up), Some(next), proof)
                .await?;
        }
        self.defer_settle();
        Ok(())
    }
}

impl TargetCall {
    /// Release object groups in the background, as `(session, group)`.
    pub(super) fn release_groups(&self, groups: Vec<(String, String)>) {
        if groups.is_empty() {
            return;
        }
        let cdp = self.cdp.clone();
        if let Ok(rt) = tokio::runtime::Handle::try_current() {
            rt.spawn(async move {
                for (session, group) in groups {
                    let _ = cdp
                        .call(
                            "Runtime.releaseObjectGroup",
                            Some(&session),
                            json!({"objectGroup": group}),
                        )
                        .await;
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
            .map(|s| (s.clone(), self.group.clone()))
            .collect();
        // A walk whose observation was never recorded.
        if let Some(refs) = self.refs_group.take() {
            groups.push((self.session.clone(), refs));
        }
        self.release_groups(groups);
    }
}
