//! Observation-scoped refs: each observation remembers the exact identity it
//! was taken against, and each ref its backend node.

use crate::error::StaleReason;
use crate::ids::{ObservationId, RawTargetId};
use std::collections::{HashMap, VecDeque};
use std::sync::{Arc, Mutex, MutexGuard};
use std::time::{Duration, Instant};

/// Observations kept at most.
pub const MAX_OBSERVATIONS: usize = 2048;
/// How long an observation stays resolvable.
pub const OBSERVATION_TTL: Duration = Duration::from_secs(300);

/// One recorded observation.
#[derive(Debug)]
pub struct Observation {
    pub id: ObservationId,
    pub workspace_id: String,
    pub lease_id: String,
    pub raw_target: RawTargetId,
    pub generation: u64,
    pub session_serial: u64,
    pub doc_gen: u64,
    pub loader: Option<String>,
    pub created: Instant,
    /// The selected frame it was taken in (`None`: the main frame).
    pub frame_scope: Option<String>,
    /// `refs[i]` is the node of ref `i + 1`.
    pub refs: Vec<RefNode>,
}

/// The node behind one ref, and the frame document it lives in.
#[derive(Debug, Clone)]
pub struct RefNode {
    pub backend: i64,
    /// Its child frame (`None`: the main frame) and that frame's loader.
    pub frame: Option<(String, Option<String>)>,
}

/// The broker's observation store.
#[derive(Default)]
pub struct Observations {
    inner: Mutex<Inner>,
    /// The remote objects of each target's latest walked observation.
    pub held: crate::browser::observe::held_refs::HeldRefs,
}

#[derive(Default)]
struct Inner {
    map: HashMap<ObservationId, Arc<Observation>>,
    order: VecDeque<ObservationId>,
    latest: HashMap<(String, String), ObservationId>,
    /// Observations invalidated before their document changed, and why.
    invalid: HashMap<ObservationId, StaleReason>,
    /// IDs of observations of earlier connection generations (only the
    /// IDs: their content is gone), oldest first.
    retired: VecDeque<ObservationId>,
    retired_set: std::collections::HashSet<ObservationId>,
    /// Workspaces whose latest observations were of an earlier generation.
    retired_workspaces: std::collections::HashSet<String>,
}

impl Observations {
    fn lock(&self) -> MutexGuard<'_, Inner> {
        self.inner.lock().unwrap_or_else(|p| p.into_inner())
    }

    /// Store `obs`, evicting the oldest beyond the cap.
    pub fn insert(&self, obs: Observation) {
        let mut inner = self.lock();
        inner.retired_workspaces.remove(&obs.workspace_id);
        inner.latest.insert(
            (obs.workspace_id.clone(), obs.raw_target.to_string()),
            obs.id.clone(),
        );
        inner.order.push_back(obs.id.clone());
        inner.map.insert(obs.id.clone(), Arc::new(obs));
        while inner.order.len() > MAX_OBSERVATIONS {
            if let Some(old) = inner.order.pop_front() {
                inner.map.remove(&old);
                inner.invalid.remove(&old);
            }
        }
    }

    pub fn get(&self, id: &str) -> Option<Arc<Observation>> {
        self.lock().map.get(id).cloned()
    }

    /// The newest observation a workspace took of a target.
    pub fn latest(&self, workspace_id: &str, raw_target: &str) -> Option<String> {
        self.lock()
            .latest
            .get(&(workspace_id.to_string(), raw_target.to_string()))
            .map(ToString::to_string)
    }

    /// The latest observation of (workspace, target), when it was taken in
    /// `frame`, becomes invalid (`frame_detached`); returns its ID.
    pub fn invalidate_frame(
        &self,
        workspace_id: &str,
        raw_target: &str,
        frame: &str,
    ) -> Option<String> {
        let mut inner = self.lock();
        let id = inner
            .latest
            .get(&(workspace_id.to_string(), raw_target.to_string()))
            .cloned()?;
        let scoped = inner.map.get(&id)?.frame_scope.as_deref() == Some(frame);
        scoped.then(|| {
            inner.invalid.insert(id.clone(), StaleReason::FrameDetached);
            id.into_string()
        })
    }

    /// Why an observation was invalidated, if it was.
    pub fn invalid_reason(&self, id: &str) -> Option<StaleReason> {
        self.lock().invalid.get(id).copied()
    }

    /// A new connection generation is up: every observation taken before
    /// is dropped, and only its ID is kept so a ref into it is answered
    /// `stale_ref` (`browser_reconnected`) rather than "unknown".
    pub fn retire_all(&self) {
        self.held.clear();
        let mut inner = self.lock();
        let Inner {
            map,
            order,
            latest,
            invalid,
            retired,
            retired_set,
            retired_workspaces,
        } = &mut *inner;
        retired_workspaces.extend(latest.keys().map(|(ws, _)| ws.clone()));
        for id in order.drain(..) {
            if retired_set.insert(id.clone()) {
                retired.push_back(id);
            }
        }
        while retired.len() > MAX_OBSERVATIONS {
            if let Some(old) = retired.pop_front() {
                retired_set.remove(&old);
            }
        }
        map.clear();
        latest.clear();
        invalid.clear();
    }

    /// Whether `id` was taken under an earlier connection generation.
    pub fn is_retired(&self, id: &str) -> bool {
        self.lock().retired_set.contains(id)
    }

    /// Whether a workspace's latest observations were retired by a
    /// reconnect and it has observed nothing since.
    pub fn workspace_retired(&self, workspace_id: &str) -> bool {
        self.lock().retired_workspaces.contains(workspace_id)
    }

    /// Forget every observation of a workspace.
    pub fn remove_workspace(&self, workspace_id: &str) {
        let mut inner = self.lock();
        inner.map.retain(|_, o| o.workspace_id != workspace_id);
        inner.latest.retain(|(ws, _), _| ws != workspace_id);
        let Inner {
            order,
            map,
            invalid,
            ..
        } = &mut *inner;
        order.retain(|id| map.contains_key(id.as_str()));
        invalid.retain(|id, _| map.contains_key(id.as_str()));
        inner.retired_workspaces.remove(workspace_id);
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn obs(id: &str, ws: &str) -> Observation {
        Observation {
            id: id.into(),
            workspace_id: ws.into(),
            lease_id: "l".into(),
            raw_target: "T".into(),
            generation: 1,
            session_serial: 1,
            doc_gen: 1,
            loader: None,
            created: Instant::now(),
            frame_scope: None,
            refs: Vec::new(),
        }
    }

    #[test]
    fn reconnect_retires_every_observation_but_keeps_its_id() {
        let store = Observations::default();
        store.insert(obs("o1", "ws1"));
        store.insert(obs("o2", "ws2"));
        store.retire_all();
        assert!(store.get("o1").is_none() && store.get("o2").is_none());
        assert!(store.is_retired("o1") && store.is_retired("o2"));
        assert!(!store.is_retired("o3"));
        assert!(store.latest("ws1", "T").is_none());
        assert!(store.workspace_retired("ws1"));
        // A new observation of the workspace clears the marker.
        store.insert(obs("o3", "ws1"));
        assert!(!store.workspace_retired("ws1"));
        assert!(store.workspace_retired("ws2"));
    }
}
