//! The origin scopes in force: the broker's launch list (from its policy)
//! and each workspace's narrower list, the event gate of `scope.blocked`
//! per workspace, and which browser connection has browser-wide
//! interception armed for them.

use crate::scope::Scope;
use crate::store::event_gate::EventGate;
use std::collections::HashMap;
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::Mutex;

/// At most this many `scope.blocked` events a second per workspace.
const EVENTS_PER_SECOND: u32 = 50;

#[derive(Default)]
pub struct Scopes {
    launch: Option<Scope>,
    own: Mutex<HashMap<String, Scope>>,
    gates: Mutex<HashMap<String, EventGate>>,
    /// The connection generation whose browser-wide interception is on
    /// (0: none).
    armed: AtomicU64,
}

impl Scopes {
    pub fn new(launch: Option<Scope>) -> Self {
        Self {
            launch,
            ..Self::default()
        }
    }

    /// The broker's launch list.
    pub fn launch(&self) -> Option<&Scope> {
        self.launch.as_ref()
    }

    /// The scope in force for workspace `ws`: its own list, else the
    /// launch list, else none.
    pub fn of(&self, ws: &str) -> Option<Scope> {
        let own = self.own.lock().unwrap_or_else(|p| p.into_inner());
        own.get(ws).cloned().or_else(|| self.launch.clone())
    }

    /// Set workspace `ws`'s own list (already checked to narrow the
    /// launch list).
    pub fn set(&self, ws: &str, scope: Scope) {
        let mut own = self.own.lock().unwrap_or_else(|p| p.into_inner());
        own.insert(ws.to_string(), scope);
    }

    /// Whether any scope is in force.
    pub fn any(&self) -> bool {
        self.launch.is_some()
            || !self
                .own
                .lock()
                .unwrap_or_else(|p| p.into_inner())
                .is_empty()
    }

    pub fn remove_workspace(&self, ws: &str) {
        self.own
            .lock()
            .unwrap_or_else(|p| p.into_inner())
            .remove(ws);
        self.gates
            .lock()
            .unwrap_or_else(|p| p.into_inner())
            .remove(ws);
    }

    /// One more `scope.blocked` event for `ws` now: `None` when over the
    /// budget, else how many were held back since the last one.
    pub fn event_slot(&self, ws: &str) -> Option<u32> {
        let mut gates = self.gates.lock().unwrap_or_else(|p| p.into_inner());
        gates
            .entry(ws.to_string())
            .or_default()
            .slot(EVENTS_PER_SECOND)
    }

    /// Mark `generation` armed; `false` when it already was.
    pub fn arm(&self, generation: u64) -> bool {
        self.armed.swap(generation, Ordering::SeqCst) != generation
    }

    /// Forget the arming of `generation` (its enable failed).
    pub fn disarm(&self, generation: u64) {
        let _ = self
            .armed
            .compare_exchange(generation, 0, Ordering::SeqCst, Ordering::SeqCst);
    }
}
