//! Workspaces, leases and target control: the broker's in-memory domain
//! state. Nothing here is persisted.

use super::commands::Commands;
use crate::broker::watch::events::{Journal, NewEvent};
use crate::error::{BpError, BpResult, Code};
use crate::ids::{LeaseId, RawTargetId, TabId, WorkspaceId};
use serde_json::{json, Value};
use std::collections::{BTreeMap, HashMap, HashSet};
use std::sync::Arc;
use std::time::{Duration, Instant};
use tokio::sync::broadcast;

/// Longest lease TTL (the one-shot CLI renews within it).
pub const MAX_LEASE_TTL: Duration = Duration::from_secs(300);
/// Lease TTL when the client gives none.
pub const DEFAULT_LEASE_TTL: Duration = Duration::from_secs(60);
/// Live leases one workspace may hold at once.
pub const MAX_LEASES_PER_WORKSPACE: usize = 64;

/// A logical working set owned by one principal.
pub struct Workspace {
    pub id: WorkspaceId,
    /// The connection principal that owns it now (`name#connection`).
    pub principal: String,
    pub label: Option<String>,
    /// The key it was created under, if any (see `connect/identity.rs`).
    pub key: Option<String>,
    /// What resuming it from another connection takes.
    pub resume_secret: String,
    /// Since when no open connection owns it.
    pub orphaned_at: Option<Instant>,
    /// Principals that showed the secret to watch it without taking it
    /// over: they may read its state, events and commands, nothing else.
    pub observers: HashSet<String>,
    /// Opaque public target ID -> raw CDP target ID.
    pub targets: BTreeMap<TabId, RawTargetId>,
    /// The same pairs the other way round.
    pub by_raw: HashMap<RawTargetId, TabId>,
    pub(super) next_target: u32,
    /// The target tools use when no `targetId` is given.
    pub current_target: Option<TabId>,
    /// Raw IDs of the workspace's ManagedTabSet: tabs it created and the
    /// popups adopted from them.
    pub managed: HashSet<String>,
    /// The members of `managed` that joined as popups.
    pub popups: HashSet<String>,
    /// The raw ID of its Pilot tab (BR-7), kept while the workspace lives.
    pub pilot: Option<String>,
}

impl Workspace {
    /// The public ID of `raw`, assigning one on first sight.
    pub fn public_id(&mut self, raw: &str) -> TabId {
        if let Some(id) = self.by_raw.get(raw) {
            return id.clone();
        }
        self.next_target += 1;
        let id = TabId::new(format!(
            "t{}-{}",
            self.next_target,
            &crate::ids::random_hex(3)
        ));
        let raw = RawTargetId::new(raw);
        self.targets.insert(id.clone(), raw.clone());
        self.by_raw.insert(raw, id.clone());
        id
    }

    /// The raw ID behind public ID `public`, if it is one of this
    /// workspace's.
    pub fn raw_of(&self, public: &str) -> Option<&RawTargetId> {
        self.targets.get(public)
    }

    /// `managed`, `managed_popup` or `user_tab`.
    pub fn origin(&self, raw: &str) -> &'static str {
        if self.popups.contains(raw) {
            "managed_popup"
        } else if self.managed.contains(raw) {
            "managed"
        } else {
            "user_tab"
        }
    }

    /// Forget every target mapping and the ManagedTabSet: they belonged to
    /// an earlier browser connection. Public IDs are never reused.
    pub fn forget_targets(&mut self) {
        self.targets.clear();
        self.by_raw.clear();
        self.current_target = None;
        self.managed.clear();
        self.popups.clear();
    }

    /// The ManagedTabSet's ID, for tabs in it.
    pub fn tab_set_id(&self, raw: &str) -> Option<String> {
        self.managed
            .contains(raw)
            .then(|| format!("mts_{}", self.id.trim_start_matches("ws_")))
    }
}

/// A time-bounded command session in a workspace.
pub struct Lease {
    pub id: LeaseId,
    pub workspace_id: WorkspaceId,
    pub ttl: Duration,
    pub expires: Instant,
}

/// An event for the connections of one principal.
pub type Notification = Arc<(String, Value)>;

/// All domain state.
#[derive(Default)]
pub struct State {
    pub journals: HashMap<String, Journal>,
    pub commands: Commands,
    notify: Option<broadcast::Sender<Notification>>,
    network: Option<Arc<crate::store::network::Network>>,
    /// The browser connection generation events are stamped with.
    pub generation: u64,
    pub workspaces: HashMap<WorkspaceId, Workspace>,
    pub leases: HashMap<LeaseId, Lease>,
    /// (workspace, lease key) -> the lease made under it.
    lease_keys: HashMap<(String, String), LeaseId>,
    /// Raw target ID -> controlling lease.
    pub controllers: HashMap<RawTargetId, LeaseId>,
}

impl State {
    /// Empty state whose events are also pushed to `notify`.
    pub fn new(
        notify: broadcast::Sender<Notification>,
        network: Arc<crate::store::network::Network>,
    ) -> Self {
        Self {
            notify: Some(notify),
            network: Some(network),
            ..Self::default()
        }
    }

    /// Record an event in a workspace's journal and push it. `raw` is
    /// translated to the workspace's own opaque target ID.
    pub fn publish(
        &mut self,
        workspace_id: &str,
        kind: &str,
        lease: Option<&str>,
        raw: Option<&str>,
        payload: Value,
    ) {
        let Some(ws) = self.workspaces.get_mut(workspace_id) else {
            return;
        };
        let target = raw.map(|r| ws.public_id(r));
        let principal = ws.principal.clone();
        let journal = self.journals.entry(workspace_id.to_string()).or_default();
        let event = journal.push(
            workspace_id,
            NewEvent {
                kind,
                lease_id: lease,
                target_id: target.as_deref(),
                generation: self.generation,
                payload,
            },
        );
        if let Some(tx) = &self.notify {
            let _ = tx.send(Arc::new((principal, event)));
        }
    }

    /// Workspaces that know `raw` under some public ID.
    pub fn workspaces_mapping(&self, raw: &str) -> Vec<String> {
        self.workspaces
            .values()
            .filter(|w| w.by_raw.contains_key(raw))
            .map(|w| w.id.to_string())
            .collect()
    }
    /// Whether `raw` belongs to another workspace's managed tab set (such
    /// tabs are that agent's private work: not listed, not addressable).
    pub fn managed_elsewhere(&self, raw: &str, workspace_id: &str) -> bool {
        self.workspaces
            .values()
            .any(|w| w.id != workspace_id && w.managed.contains(raw))
    }

    /// IDs of the workspaces `principal` owns.
    pub fn workspaces_of(&self, principal: &str) -> Vec<String> {
        self.workspaces
            .values()
            .filter(|w| w.principal == principal)
            .map(|w| w.id.to_string())
            .collect()
    }

    /// The current event cursor of a workspace.
    pub fn cursor(&self, workspace_id: &str) -> String {
        self.journals
            .get(workspace_id)
            .map(Journal::cursor)
            .unwrap_or_else(|| "0".to_string())
    }

    fn lease_workspace(&self, lease: &str) -> Option<String> {
        self.leases.get(lease).map(|l| l.workspace_id.to_string())
    }

    /// The workspace if `principal` owns it.
    pub fn workspace(&mut self, principal: &str, id: &str) -> BpResult<&mut Workspace> {
        match self.workspaces.get_mut(id) {
            Some(ws) if ws.principal == principal => Ok(ws),
            _ => Err(BpError::new(
                Code::WorkspaceNotFound,
                "no such workspace for this client",
            )),
        }
    }

    /// Remove a workspace and everything it holds; returns its managed tabs.
    pub fn release_workspace(&mut self, principal: &str, id: &str) -> BpResult<Vec<String>> {
        self.workspace(principal, id)?;
        let leases: Vec<LeaseId> = self
            .leases
            .values()
            .filter(|l| l.workspace_id == id)
            .map(|l| l.id.clone())
            .collect();
        for lease in leases {
            self.drop_lease(&lease, false);
        }
        self.journals.remove(id);
        if let Some(n) = &self.network {
            n.remove_workspace(id);
        }
        self.commands.remove_workspace(id);
        let ws = self.workspaces.remove(id);
        // Its Pilot tab closes with the tabs it created.
        Ok(ws
            .map(|w| w.managed.into_iter().chain(w.pilot).collect())
            .unwrap_or_default())
    }

    /// Whether `ws` can take a lease under `key`: the live lease `key`
    /// names (to renew), or `None` when there is room for a new one.
    pub fn lease_room(&mut self, ws: &str, key: Option<&str>) -> BpResult<Option<LeaseId>> {
        self.expire_leases();
        let existing = key
            .and_then(|k| self.lease_keys.get(&(ws.to_string(), k.to_string())))
            .filter(|id| self.leases.contains_key(*id))
            .cloned();
        let live = self
            .leases
            .values()
            .filter(|l| l.workspace_id == ws)
            .count();
        if existing.is_none() && live >= MAX_LEASES_PER_WORKSPACE {
            return Err(BpError::invalid(format!(
                "this workspace already holds {MAX_LEASES_PER_WORKSPACE} live leases; release one first"
            ))
            .with_context(json!({"limit": MAX_LEASES_PER_WORKSPACE})));
        }
        Ok(existing)
    }

    /// Create a lease (or renew the one `key` names).
    pub fn create_lease(
        &mut self,
        principal: &str,
        ws: &str,
        ttl: Duration,
        key: Option<&str>,
    ) -> BpResult<&Lease> {
        self.workspace(principal, ws)?;
        let ttl = ttl.min(MAX_LEASE_TTL).max(Duration::from_secs(1));
        let id = match self.lease_room(ws, key)? {
            Some(id) => id,
            None => {
                let id = LeaseId::fresh();
                if let Some(k) = key {
                    self.lease_keys
                        .insert((ws.to_string(), k.to_string()), id.clone());
                }
                id
            }
        };
        let lease = self.leases.entry(id.clone()).or_insert_with(|| Lease {
            id: id.clone(),
            workspace_id: WorkspaceId::new(ws),
            ttl,
            expires: Instant::now() + ttl,
        });
        lease.ttl = ttl;
        lease.expires = Instant::now() + ttl;
        Ok(lease)
    }

    /// The lease if it is live and belongs to `ws` of `principal`.
    pub fn live_lease(&mut self, principal: &str, ws: &str, lease: &str) -> BpResult<&mut Lease> {
        self.workspace(principal, ws)?;
        self.expire_leases();
        match self.leases.get_mut(lease) {
            Some(l) if l.workspace_id == ws => Ok(l),
            _ => Err(BpError::new(
                Code::LeaseExpired,
                "the lease has expired or does not belong to this workspace",
            )),
        }
    }

    /// The lease controlling `raw` and its workspace, if any.
    pub fn controller_of(&self, raw: &str) -> Option<(LeaseId, WorkspaceId)> {
        let lease = self.controllers.get(raw)?;
        let ws = self.leases.get(lease)?.workspace_id.clone();
        Some((lease.clone(), ws))
    }

    /// Give `lease` control of `raw`, or fail with `target_busy`.
    pub fn acquire(&mut self, lease: &str, raw: &str) -> BpResult<()> {
        let holder = self.controllers.get(raw).map(LeaseId::as_str);
        crate::granter::Granter::control(holder, lease).map_err(|d| d.error())?;
        if holder.is_none() {
            self.controllers
                .insert(RawTargetId::new(raw), LeaseId::new(lease));
            if let Some(ws) = self.lease_workspace(lease) {
                self.publish(&ws, "control.acquired", Some(lease), Some(raw), json!({}));
            }
        }
        Ok(())
    }

    /// Release `lease`'s control of `raw`.
    pub fn release_target(&mut self, lease: &str, raw: &str) {
        if self.controllers.get(raw).map(LeaseId::as_str) == Some(lease) {
            self.controllers.remove(raw);
            if let Some(ws) = self.lease_workspace(lease) {
                self.publish(&ws, "control.released", Some(lease), Some(raw), json!({}));
            }
        }
    }

    fn drop_lease(&mut self, lease: &str, expired: bool) {
        let held: Vec<RawTargetId> = self
            .controllers
            .iter()
            .filter(|(_, l)| *l == lease)
            .map(|(r, _)| r.clone())
            .collect();
        for raw in &held {
            self.release_target(lease, raw);
        }
        if let Some(l) = self.leases.remove(lease) {
            if expired {
                self.publish(
                    &l.workspace_id,
                    "lease.expired",
                    Some(lease),
                    None,
                    json!({"releasedTargets": held.len()}),
                );
            }
        }
        self.lease_keys.retain(|_, l| l != lease);
        // Rules made under the lease end with it.
        if let Some(n) = &self.network {
            n.remove_lease(lease);
        }
    }

    /// Drop expired leases and the control they held.
    pub fn expire_leases(&mut self) {
        let now = Instant::now();
        let expired: Vec<LeaseId> = self
            .leases
            .values()
            .filter(|l| l.expires <= now)
            .map(|l| l.id.clone())
            .collect();
        for id in expired {
            self.drop_lease(&id, true);
        }
    }

    /// Workspaces holding a live lease, other than `except` and other than
    /// those whose principal `skip` names: the work a disconnect or stop
    /// would end.
    pub fn live_workspaces(
        &mut self,
        except: Option<&str>,
        skip: &dyn Fn(&str) -> bool,
    ) -> Vec<String> {
        self.expire_leases();
        let mut live: Vec<String> = self
            .leases
            .values()
            .map(|l| l.workspace_id.to_string())
            .filter(|ws| Some(ws.as_str()) != except)
            .filter(|ws| {
                self.workspaces
                    .get(ws.as_str())
                    .is_some_and(|w| !skip(&w.principal))
            })
            .collect();
        live.sort();
        live.dedup();
        live
    }

    /// What the broker holds now: workspaces, live leases and managed tabs
    /// (what a stop ends).
    pub fn held(&mut self) -> (usize, usize, usize) {
        self.expire_leases();
        let tabs = self.workspaces.values().map(|w| w.managed.len()).sum();
        (self.workspaces.len(), self.leases.len(), tabs)
    }

    /// Release a lease explicitly.
    pub fn release_lease(&mut self, principal: &str, lease: &str) -> BpResult<()> {
        let ws = self
            .leases
            .get(lease)
            .map(|l| l.workspace_id.clone())
            .ok_or_else(|| BpError::new(Code::LeaseExpired, "no such lease"))?;
        self.workspace(principal, &ws)
            .map_err(|_| BpError::new(Code::LeaseExpired, "no such lease for this client"))?;
        self.drop_lease(lease, false);
        Ok(())
    }
}
