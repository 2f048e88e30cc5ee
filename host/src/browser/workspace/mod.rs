//! [`WorkspaceCall`]: what a workspace-scoped capability may touch in one
//! tool call. It holds the calling workspace (its rules, journal, artifacts,
//! dialogs and tab set) and no tab: a workspace capability cannot act on a
//! page, because there is no page here to act on. A target-scoped call
//! carries one of these too, for the workspace capabilities its tools use
//! (a screenshot becoming an artifact).

mod capability_view;
pub(in crate::browser) mod console;
pub(in crate::browser) mod net;
pub(in crate::browser) mod primitives;
pub mod state;
pub mod state_file;
pub mod tabs;

use crate::browser::caller::{Caller, LeaseGuard};
use crate::browser::registry::Registry;
use crate::browser::workspace::tabs::TabsHost;
use crate::cdp::Cdp;
use crate::error::{BpError, BpResult};
use serde_json::Value;
use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};
use std::sync::Arc;
use std::time::Duration;

/// Everything one workspace-scoped call may use.
pub struct WorkspaceCall {
    pub(in crate::browser) cdp: Cdp,
    pub(in crate::browser) registry: Arc<Registry>,
    pub(in crate::browser) artifacts: Arc<crate::store::artifacts::ArtifactStore>,
    pub(in crate::browser) network: Arc<crate::store::network::Network>,
    pub(in crate::browser) console: Arc<crate::store::console::Console>,
    pub(in crate::browser) caller: Caller,
    /// Targets the calling workspace's leases control: (raw, public ID).
    pub(in crate::browser) controlled: Vec<(String, String)>,
    /// The workspace's current tab (raw, public ID), named by "this tab"
    /// filters only; it is neither selected nor taken.
    pub(in crate::browser) current: Option<(String, String)>,
    /// Why the tab a `targetId` named cannot be used (reported only if a
    /// "this tab" filter is asked for, after the tool checked its input).
    current_refused: Option<BpError>,
    pub(in crate::browser) tabs: Arc<dyn TabsHost>,
    generation: u64,
    current_generation: Arc<AtomicU64>,
    /// Re-checks that the calling lease is alive.
    lease_guard: LeaseGuard,
    pub dispatched: Arc<AtomicBool>,
    /// The broker launched the browser (not the user's own).
    pub(in crate::browser) launched: bool,
    /// Why this client may not load a saved state here (the granter's
    /// answer), if it may not.
    pub(in crate::browser) state_load_refusal: Option<BpError>,
}

/// Everything needed to build a [`WorkspaceCall`].
pub struct WorkspaceSetup {
    pub cdp: Cdp,
    pub registry: Arc<Registry>,
    pub artifacts: Arc<crate::store::artifacts::ArtifactStore>,
    pub network: Arc<crate::store::network::Network>,
    pub console: Arc<crate::store::console::Console>,
    pub caller: Caller,
    pub controlled: Vec<(String, String)>,
    pub current: Result<Option<(String, String)>, BpError>,
    pub tabs: Arc<dyn TabsHost>,
    pub generation: u64,
    pub current_generation: Arc<AtomicU64>,
    pub lease_guard: LeaseGuard,
    pub dispatched: Arc<AtomicBool>,
    pub launched: bool,
    pub state_load_refusal: Option<BpError>,
}

impl WorkspaceCall {
    pub fn new(s: WorkspaceSetup) -> Self {
        Self {
            cdp: s.cdp,
            registry: s.registry,
            artifacts: s.artifacts,
            network: s.network,
            console: s.console,
            caller: s.caller,
            controlled: s.controlled,
            current: s.current.clone().ok().flatten(),
            current_refused: s.current.err(),
            tabs: s.tabs,
            generation: s.generation,
            current_generation: s.current_generation,
            lease_guard: s.lease_guard,
            dispatched: s.dispatched,
            launched: s.launched,
            state_load_refusal: s.state_load_refusal,
        }
    }

    /// The workspace checkpoint: the lease is alive and the connection is
    /// the one the call started on.
    pub(in crate::browser) fn check(&self) -> BpResult<()> {
        (self.lease_guard)()?;
        if self.current_generation.load(Ordering::SeqCst) != self.generation || self.cdp.is_closed()
        {
            return Err(BpError::disconnected());
        }
        Ok(())
    }

    pub(in crate::browser) fn mark_dispatched(&self) {
        self.dispatched.store(true, Ordering::SeqCst);
    }

    /// The tab-set operations of this workspace.
    pub fn tabs(&self) -> Arc<dyn TabsHost> {
        self.tabs.clone()
    }

    /// The raw ID of the current tab, for a "this tab only" filter.
    pub(in crate::browser) fn current_raw(&self, only: bool) -> BpResult<Option<String>> {
        if !only {
            return Ok(None);
        }
        if let Some(e) = &self.current_refused {
            return Err(e.clone());
        }
        self.current
            .as_ref()
            .map(|(raw, _)| Some(raw.clone()))
            .ok_or_else(|| BpError::invalid("no current tab to limit this to; open or pick one"))
    }

    /// Route the requests of every tab the workspace controls through the
    /// broker (rules or credentials were just added).
    pub(in crate::browser) async fn intercept_controlled(&self) -> BpResult<()> {
        for (raw, _) in &self.controlled {
            enable_interception(&self.cdp, &self.registry, raw).await?;
        }
        Ok(())
    }
}

/// Longest a `Fetch.enable` may take (a page paused by a dialog still
/// answers it, but never wait on one that does not).
const FETCH_ENABLE_WAIT: Duration = Duration::from_secs(5);

/// Make sure the requests of `raw` (and its out-of-process frames) pass
/// through the broker. A target not yet attached is covered when it is.
pub async fn enable_interception(cdp: &Cdp, registry: &Registry, raw: &str) -> BpResult<()> {
    let Some((session, intercepting)) = registry
        .with(raw, |t| t.session.clone().map(|s| (s, t.intercepting)))
        .flatten()
    else {
        return Ok(());
    };
    if intercepting {
        return Ok(());
    }
    // Flag first: a frame session that appears meanwhile enables itself
    // (see `enable_frame_session`).
    registry.update(raw, |t| t.intercepting = true);
    let enable = crate::browser::connection::fetch_enable();
    let enabled = cdp
        .send_timeout(&enable, Some(&session), FETCH_ENABLE_WAIT)
        .await;
    if let Err(e) = enabled {
        registry.update(raw, |t| t.intercepting = false);
        return Err(e);
    }
    // Out-of-process frames send their requests on their own sessions.
    let children: Vec<String> = registry
        .with(raw, |t| {
            t.frames
                .values()
                .filter_map(|f| f.session.clone())
                .collect()
        })
        .unwrap_or_default();
    for child in children {
        if let Err(e) = cdp
            .send_timeout(&enable, Some(&child), FETCH_ENABLE_WAIT)
            .await
        {
            tracing::info!("interception unavailable for a frame: {}", e.message);
        }
    }
    Ok(())
}

/// The artifact ID in a descriptor the store returned.
pub(in crate::browser) fn artifact_id(d: &Value) -> String {
    d["artifactId"].as_str().unwrap_or_default().to_string()
}
