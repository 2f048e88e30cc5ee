//! What the steps of a tool call hand each other: the authorised caller,
//! the accepted call, the scope a call was bound to, and the outcome. The
//! lowest layer of the pipeline: every step, the native handlers and the
//! tab host import it; it imports none of them.

use crate::broker::commands::CancelSignal;
use crate::broker::state::State;
use crate::broker::Broker;
use crate::browser::caller::{Grants, PageToolAccess};
use crate::browser::connection::BrowserConn;
use crate::error::{BpError, BpResult, Code};
use serde_json::{json, Value};
use std::future::Future;
use std::pin::Pin;
use std::sync::atomic::AtomicBool;
use std::sync::Arc;
use std::time::Instant;

/// Who is calling, already authorised.
#[derive(Clone)]
pub struct CallScope {
    pub principal: String,
    pub workspace_id: crate::ids::WorkspaceId,
    pub lease_id: crate::ids::LeaseId,
    /// The one-shot CLI's compatibility principal: bare refs resolve
    /// against the latest observation of the target.
    pub compat: bool,
    /// What the connection was granted at `initialize`.
    pub grants: Grants,
    pub command_id: crate::ids::CommandId,
    /// The browser connection generation when the command was accepted: a
    /// command never reaches a later generation.
    pub generation: u64,
}

impl CallScope {
    /// Whether the client was granted `grant` at initialize.
    pub fn granted(&self, grant: &str) -> bool {
        self.grants.has(grant)
    }

    /// Which page-declared tools this caller may see and call: the launch
    /// policy's level and its `page.consequential` grant.
    pub fn page_tool_access(&self, broker: &Broker) -> PageToolAccess {
        broker.runtime.granter().page_tool_access(self.grants)
    }

    /// Refuse a command accepted under an earlier connection generation.
    pub fn same_generation(&self, current: u64) -> BpResult<()> {
        if self.generation == current {
            return Ok(());
        }
        Err(BpError::new(
            Code::BrowserDisconnected,
            "the browser was reconnected after this command was accepted; it was not run",
        )
        .with_context(json!({"acceptedGeneration": self.generation, "generation": current})))
    }
}

/// A call accepted and waiting for its turn (made by `decode.rs`).
pub struct PendingCall {
    pub(super) scope: CallScope,
    pub(super) name: String,
    pub(super) args: Value,
    pub(super) dispatched: Arc<AtomicBool>,
    pub(super) cancel: Arc<CancelSignal>,
    pub(super) deadline: Option<Instant>,
    pub(super) overtakes: bool,
}

impl PendingCall {
    /// Whether it runs beside the connection's ordered calls.
    pub fn overtakes(&self) -> bool {
        self.overtakes
    }
}

/// Either an immediate reply (duplicate, bad request) or a call to run.
pub enum Intake {
    Reply(Value),
    Run(Box<PendingCall>),
}

/// The outcome of one call: result or error, and whether the browser was
/// touched by a mutation before it ended.
pub struct Outcome {
    pub result: BpResult<Value>,
    pub dispatched: bool,
}

/// A failure, and whether the browser was touched before it.
pub(super) type Failed = (BpError, bool);

/// A failure before anything reached the browser.
pub(super) fn fail(e: BpError) -> Failed {
    (e, false)
}

/// What a call was bound to by the scope step, and what the finish step
/// needs of it. The execute step takes the component's `call`; the
/// target's lane stays held until the call is finished.
pub(super) enum Bound {
    /// A broker-native tool: its handler finds what it acts on.
    Native,
    /// A workspace tool, with the connection it runs on.
    Workspace {
        conn: Arc<BrowserConn>,
        call: Option<crate::runtime::Scope>,
    },
    /// A target tool: its tab (raw and public ID), whether the tab had
    /// crashed before, and its turn on the tab's lane.
    Target {
        conn: Arc<BrowserConn>,
        raw: crate::ids::RawTargetId,
        public: crate::ids::TabId,
        crashed_before: bool,
        _turn: tokio::sync::OwnedMutexGuard<()>,
        call: Option<crate::runtime::Scope>,
    },
}

/// A component tool run from inside another call (`tabs.open` navigating
/// the tab it made), through the whole pipeline but the command record.
/// The tab host gets it as a function, so it never imports the pipeline.
pub type NestedCall = fn(
    Arc<Broker>,
    CallScope,
    &'static str,
    Value,
) -> Pin<Box<dyn Future<Output = BpResult<Value>> + Send>>;

impl Bound {
    /// The component's view of its scope, once.
    pub(super) fn take_call(&mut self) -> Option<crate::runtime::Scope> {
        match self {
            Bound::Native => None,
            Bound::Workspace { call, .. } | Bound::Target { call, .. } => call.take(),
        }
    }
}

/// The raw target behind a public ID of the caller's workspace.
pub fn raw_target(
    st: &mut State,
    scope: &CallScope,
    public: &str,
) -> BpResult<crate::ids::RawTargetId> {
    let raw = st
        .workspace(&scope.principal, &scope.workspace_id)?
        .targets
        .get(public)
        .cloned()
        .filter(|raw| !st.managed_elsewhere(raw, &scope.workspace_id));
    raw.ok_or_else(|| {
        BpError::new(
            Code::TargetNotOwned,
            "no such target in this workspace; list tabs again",
        )
    })
}
