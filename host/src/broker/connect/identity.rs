//! Who owns a workspace. Every connection is its own principal
//! (`name#connection`), so two clients never share workspaces by accident,
//! even under the same `client.name`. A workspace carries a resume secret:
//! presenting it from another connection takes the workspace over, which
//! is how a one-shot CLI or a restarted adapter gets its work back.
//! Workspaces nobody owns any more are released after a grace period.

use crate::broker::state::{State, Workspace};
use crate::error::{BpError, BpResult, Code};
use crate::ids::WorkspaceId;
use std::collections::{BTreeMap, HashMap, HashSet};
use std::time::{Duration, Instant};

/// Workspaces one connection may own at once.
pub const MAX_WORKSPACES_PER_CONNECTION: usize = 64;
/// How long a workspace whose connection closed waits to be resumed
/// once its leases have expired.
pub const ORPHAN_GRACE: Duration = Duration::from_secs(600);
/// Orphaned workspaces kept at most (the oldest go first).
pub const MAX_ORPHANS: usize = 256;
/// Observing principals per workspace.
const MAX_OBSERVERS: usize = 16;

/// The principal of a connection: its client name and connection ID.
pub fn principal_of(name: &str, connection_id: &str) -> String {
    format!("{name}#{connection_id}")
}

/// The client name part of a principal.
pub fn client_name(principal: &str) -> &str {
    principal
        .rsplit_once('#')
        .map_or(principal, |(name, _)| name)
}

/// A workspace opened for a client.
#[derive(Debug)]
pub struct Opened {
    pub id: String,
    pub resume_secret: String,
    /// An existing workspace was resumed (rather than a new one made).
    pub resumed: bool,
}

fn not_found() -> BpError {
    BpError::new(Code::WorkspaceNotFound, "no such workspace for this client")
}

impl State {
    /// `workspaces/create`: the caller's workspace under `key` if it has
    /// one, else a new one.
    fn owned_count(&self, principal: &str) -> usize {
        self.workspaces
            .values()
            .filter(|w| w.principal == principal)
            .count()
    }

    pub fn create_workspace(
        &mut self,
        principal: &str,
        key: Option<&str>,
        label: Option<String>,
    ) -> BpResult<Opened> {
        let own = key.and_then(|k| {
            self.workspaces
                .values()
                .find(|w| w.principal == principal && w.key.as_deref() == Some(k))
        });
        if let Some(w) = own {
            return Ok(Opened {
                id: w.id.to_string(),
                resume_secret: w.resume_secret.clone(),
                resumed: false,
            });
        }
        self.new_workspace(principal, key, label)
    }

    /// `initialize`'s session: the workspace this client's earlier
    /// connection made under `key`, when `secret` proves it is the same
    /// client; otherwise a new one.
    pub fn open_keyed(
        &mut self,
        principal: &str,
        key: &str,
        secret: Option<&str>,
    ) -> BpResult<Opened> {
        match self.resumable(principal, key, secret) {
            Some(id) => {
                let resume_secret = self.take_over(principal, &id)?;
                Ok(Opened {
                    id,
                    resume_secret,
                    resumed: true,
                })
            }
            None => self.create_workspace(principal, Some(key), None),
        }
    }

    /// The workspace [`Self::open_keyed`] would take over: the one this
    /// client made under `key`, when `secret` proves it is the same client.
    pub fn resumable(&self, principal: &str, key: &str, secret: Option<&str>) -> Option<String> {
        let name = client_name(principal);
        let secret = secret?;
        self.workspaces
            .values()
            .find(|w| {
                w.key.as_deref() == Some(key)
                    && client_name(&w.principal) == name
                    && crate::ids::secrets_equal(&w.resume_secret, secret)
            })
            .map(|w| w.id.to_string())
    }

    /// `workspaces/resume`: take over a workspace whose secret the caller
    /// holds. A wrong secret looks exactly like an unknown workspace.
    pub fn resume(&mut self, principal: &str, id: &str, secret: &str) -> BpResult<String> {
        let ok = self
            .workspaces
            .get(id)
            .is_some_and(|w| crate::ids::secrets_equal(&w.resume_secret, secret));
        if !ok {
            return Err(not_found());
        }
        self.take_over(principal, id)
    }

    /// `workspaces/resume` with `observe`: read access for a principal
    /// that holds the secret, leaving the owner in place.
    pub fn observe(&mut self, principal: &str, id: &str, secret: &str) -> BpResult<()> {
        let ws = self
            .workspaces
            .get_mut(id)
            .filter(|w| crate::ids::secrets_equal(&w.resume_secret, secret))
            .ok_or_else(not_found)?;
        if ws.observers.len() >= MAX_OBSERVERS {
            return Err(BpError::invalid(format!(
                "this workspace already has {MAX_OBSERVERS} observers"
            )));
        }
        ws.observers.insert(principal.to_string());
        Ok(())
    }

    /// The workspace if `principal` owns or observes it.
    pub fn readable(&self, principal: &str, id: &str) -> BpResult<&Workspace> {
        self.workspaces
            .get(id)
            .filter(|w| w.principal == principal || w.observers.contains(principal))
            .ok_or_else(not_found)
    }

    /// Make `principal` the owner of `id`. Command records are kept per
    /// workspace, so the new owner can ask about them by workspace.
    fn take_over(&mut self, principal: &str, id: &str) -> BpResult<String> {
        let owned = self.owned_count(principal);
        let ws = self.workspaces.get_mut(id).ok_or_else(not_found)?;
        if ws.principal != principal && owned >= MAX_WORKSPACES_PER_CONNECTION {
            return Err(too_many());
        }
        ws.principal = principal.to_string();
        ws.orphaned_at = None;
        Ok(ws.resume_secret.clone())
    }

    fn new_workspace(
        &mut self,
        principal: &str,
        key: Option<&str>,
        label: Option<String>,
    ) -> BpResult<Opened> {
        if self.owned_count(principal) >= MAX_WORKSPACES_PER_CONNECTION {
            return Err(too_many());
        }
        let id = WorkspaceId::fresh();
        let resume_secret = crate::ids::secret()?;
        self.workspaces.insert(
            id.clone(),
            Workspace {
                id: id.clone(),
                principal: principal.to_string(),
                label,
                key: key.map(str::to_string),
                resume_secret: resume_secret.clone(),
                orphaned_at: None,
                observers: HashSet::new(),
                targets: BTreeMap::new(),
                by_raw: HashMap::new(),
                next_target: 0,
                current_target: None,
                managed: HashSet::new(),
                popups: HashSet::new(),
                pilot: None,
            },
        );
        Ok(Opened {
            id: id.into_string(),
            resume_secret,
            resumed: false,
        })
    }

    /// A connection closed: its workspaces wait to be resumed.
    pub fn orphan(&mut self, principal: &str) {
        let now = Instant::now();
        for w in self.workspaces.values_mut() {
            if w.principal == principal {
                w.orphaned_at = Some(now);
            }
        }
    }

    /// Orphaned workspaces to release now, as `(principal, id)`: those with
    /// no live lease past the grace period, and the oldest beyond the cap.
    pub fn orphans_due(&mut self, now: Instant) -> Vec<(String, String)> {
        self.expire_leases();
        let leased: HashSet<&str> = self
            .leases
            .values()
            .map(|l| l.workspace_id.as_str())
            .collect();
        let mut orphans: Vec<(Instant, &Workspace)> = self
            .workspaces
            .values()
            .filter_map(|w| w.orphaned_at.map(|at| (at, w)))
            .collect();
        orphans.sort_by_key(|(at, _)| *at);
        let over = orphans.len().saturating_sub(MAX_ORPHANS);
        orphans
            .iter()
            .enumerate()
            .filter(|(i, (at, w))| {
                *i < over
                    || (!leased.contains(w.id.as_str())
                        && now.saturating_duration_since(*at) >= ORPHAN_GRACE)
            })
            .map(|(_, (_, w))| (w.principal.clone(), w.id.to_string()))
            .collect()
    }
}

fn too_many() -> BpError {
    BpError::invalid(format!(
        "this connection already owns {MAX_WORKSPACES_PER_CONNECTION} workspaces; release one first"
    ))
    .with_context(serde_json::json!({"limit": MAX_WORKSPACES_PER_CONNECTION}))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn principals_keep_the_name_and_split_on_the_last_hash() {
        let p = principal_of("my#tool", "conn_1");
        assert_eq!(p, "my#tool#conn_1");
        assert_eq!(client_name(&p), "my#tool");
    }

    #[test]
    fn a_workspace_without_room_for_a_lease_is_found_before_it_changes_hands() {
        use crate::broker::state::MAX_LEASES_PER_WORKSPACE;
        let ttl = std::time::Duration::from_secs(60);
        let mut st = State::default();
        let a = principal_of("agent", "conn_a");
        let made = st.open_keyed(&a, "w", None).unwrap();
        for i in 0..MAX_LEASES_PER_WORKSPACE {
            st.create_lease(&a, &made.id, ttl, Some(&format!("k{i}")))
                .unwrap();
        }
        let b = principal_of("agent", "conn_b");
        let found = st.resumable(&b, "w", Some(&made.resume_secret));
        assert_eq!(found.as_deref(), Some(made.id.as_str()));
        assert!(st.lease_room(&made.id, Some("new")).is_err());
        // A key that names a live lease renews it: there is room for that.
        assert!(st.lease_room(&made.id, Some("k0")).unwrap().is_some());
        assert!(st.workspace(&a, &made.id).is_ok(), "still its owner's");
        assert_eq!(st.resumable(&b, "w", Some("00")), None);
        assert_eq!(st.resumable(&b, "w", None), None);
        assert_eq!(
            st.resumable(
                &principal_of("other", "conn_c"),
                "w",
                Some(&made.resume_secret)
            ),
            None
        );
    }

    #[test]
    fn same_name_connections_do_not_share_and_the_secret_resumes() {
        let mut st = State::default();
        let a = principal_of("agent", "conn_a");
        let b = principal_of("agent", "conn_b");
        let made = st.open_keyed(&a, "w", None).unwrap();
        assert!(!made.resumed);
        // Same name and key, no secret: a workspace of its own.
        let other = st.open_keyed(&b, "w", None).unwrap();
        assert_ne!(other.id, made.id);
        assert!(st.workspace(&b, &made.id).is_err());
        // A wrong secret neither resumes nor reveals.
        assert!(st.resume(&b, &made.id, "00").is_err());
        let c = principal_of("agent", "conn_c");
        let back = st.open_keyed(&c, "w", Some(&made.resume_secret)).unwrap();
        assert!(back.resumed);
        assert_eq!(back.id, made.id);
        assert!(st.workspace(&c, &made.id).is_ok());
        assert!(st.workspace(&a, &made.id).is_err());
        // Another name cannot use the secret through a key.
        let d = principal_of("other", "conn_d");
        let miss = st.open_keyed(&d, "w", Some(&made.resume_secret)).unwrap();
        assert_ne!(miss.id, made.id);
    }

    #[test]
    fn orphans_go_after_the_grace_period_and_beyond_the_cap() {
        let mut st = State::default();
        let a = principal_of("a", "conn_a");
        let made = st.create_workspace(&a, None, None).unwrap();
        st.orphan(&a);
        let now = Instant::now();
        assert!(st.orphans_due(now).is_empty());
        let due = st.orphans_due(now + ORPHAN_GRACE);
        assert_eq!(due, vec![(a.clone(), made.id.clone())]);
        for i in 0..MAX_ORPHANS + 3 {
            let p = principal_of("x", &format!("conn_{i}"));
            st.create_workspace(&p, None, None).unwrap();
            st.orphan(&p);
        }
        assert_eq!(st.orphans_due(now).len(), 4);
    }

    #[test]
    fn a_connection_owns_a_bounded_number_of_workspaces() {
        let mut st = State::default();
        let a = principal_of("a", "conn_a");
        for _ in 0..MAX_WORKSPACES_PER_CONNECTION {
            st.create_workspace(&a, None, None).unwrap();
        }
        let e = st.create_workspace(&a, None, None).unwrap_err();
        assert_eq!(e.code, Code::InvalidArgument);
    }
}
