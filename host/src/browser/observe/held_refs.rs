//! The remote objects of the latest walked observation of each target,
//! kept past the observe call so that resolving one of its refs can read
//! the node at once, without `DOM.resolveNode` first.
//!
//! The page walk returns its candidates as remote objects anyway; they
//! are put in an object group of their own (`<call group>-refs<n>`) rather
//! than the call's, and that group is handed to this store when the
//! observation is recorded. One group is held per target: the next
//! observation of the target releases the one before, so an older
//! observation's refs go back to being resolved by backend node. A held
//! object is only a shortcut to the same node the backend ID names; if
//! it cannot be used, the ref is resolved the usual way.

use std::collections::{HashMap, VecDeque};
use std::sync::{Arc, Mutex, MutexGuard};

/// Targets whose latest group is held at most (older ones are released).
const MAX_HELD: usize = 256;

/// Known elements passed to the page at most (each is one argument of a
/// function call; beyond this the walk is done afresh, `observe/rewalk.rs`, and
/// an observation that identified more holds none for the next walk,
/// `call/refs.rs`).
pub(in crate::browser) const MAX_KNOWN: usize = 20_000;

/// A held object group: the observation it belongs to, the session its
/// objects live in, its name, the elements the observation's walk
/// identified in it, and the roles that walk was asked for.
#[derive(Debug, Clone, PartialEq)]
pub struct HeldGroup {
    pub observation: String,
    pub session: String,
    pub group: String,
    pub known: Arc<Vec<Known>>,
    pub roles: Arc<Vec<String>>,
    /// The page's walk agent, an object of this group (`observe/walk_agent.rs`).
    pub agent: Option<String>,
    /// The document generation it was walked in.
    pub doc_gen: u64,
}

impl HeldGroup {
    /// Whether its objects went with their document: a group of the
    /// tab's page session (`session`) walked in an earlier document than
    /// `doc_gen`. The objects lived in that document's contexts, so
    /// there is nothing left to release. (That holds for a document kept
    /// in the back/forward cache too: the session's objects are dropped
    /// when the tab leaves it, and are unknown once it is restored.)
    pub fn went_with_document(&self, session: &str, doc_gen: u64) -> bool {
        self.session == session && self.doc_gen != doc_gen
    }
}

/// One element a walk identified.
#[derive(Debug, Clone, PartialEq)]
pub struct Known {
    pub backend: i64,
    /// Its remote object in the held group.
    pub object: String,
    /// Whether it counted toward the limit (a control of a wanted role,
    /// not ignored, not a dialog).
    pub counted: bool,
}

#[derive(Default)]
pub struct HeldRefs {
    inner: Mutex<Inner>,
}

#[derive(Default)]
struct Inner {
    by_target: HashMap<String, HeldGroup>,
    /// Targets in the order their group was held, oldest first.
    order: VecDeque<String>,
}

impl HeldRefs {
    fn lock(&self) -> MutexGuard<'_, Inner> {
        self.inner.lock().unwrap_or_else(|p| p.into_inner())
    }

    /// Hold `group` as `target`'s; returns the groups to release now (the
    /// target's previous one unless it is the same group again, and the
    /// oldest beyond the cap).
    pub fn hold(&self, target: &str, group: HeldGroup) -> Vec<HeldGroup> {
        let mut inner = self.lock();
        let mut release = Vec::new();
        let name = group.group.clone();
        if let Some(old) = inner.by_target.insert(target.to_string(), group) {
            if old.group != name {
                release.push(old);
            }
            inner.order.retain(|t| t != target);
        }
        inner.order.push_back(target.to_string());
        while inner.order.len() > MAX_HELD {
            let Some(oldest) = inner.order.pop_front() else {
                break;
            };
            release.extend(inner.by_target.remove(&oldest));
        }
        release
    }

    /// The group held for `target`.
    pub fn get(&self, target: &str) -> Option<HeldGroup> {
        self.lock().by_target.get(target).cloned()
    }

    /// The held object of `backend`'s node, if `observation` is the one
    /// whose objects `target` holds.
    pub fn object_of(&self, target: &str, observation: &str, backend: i64) -> Option<String> {
        let inner = self.lock();
        let group = inner
            .by_target
            .get(target)
            .filter(|g| g.observation == observation)?;
        group
            .known
            .iter()
            .find(|k| k.backend == backend)
            .map(|k| k.object.clone())
    }

    /// Stop holding `target`'s group, and return it (to release, unless
    /// the tab is gone and its objects with it).
    pub fn forget(&self, target: &str) -> Option<HeldGroup> {
        let mut inner = self.lock();
        let old = inner.by_target.remove(target)?;
        inner.order.retain(|t| t != target);
        Some(old)
    }

    /// Forget every group (the connection they lived on is gone).
    pub fn clear(&self) {
        let mut inner = self.lock();
        inner.by_target.clear();
        inner.order.clear();
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn group(obs: &str) -> HeldGroup {
        HeldGroup {
            observation: obs.into(),
            session: "s".into(),
            group: format!("{obs}-refs"),
            known: Arc::new(vec![Known {
                backend: 7,
                object: format!("{obs}-object"),
                counted: true,
            }]),
            roles: Arc::new(vec!["button".into()]),
            doc_gen: 1,
            agent: Some(format!("{obs}-agent")),
        }
    }

    #[test]
    fn a_new_observation_of_a_target_releases_the_one_before() {
        let held = HeldRefs::default();
        assert!(held.hold("t1", group("o1")).is_empty());
        assert!(held.hold("t2", group("o2")).is_empty());
        assert_eq!(held.object_of("t1", "o1", 7).as_deref(), Some("o1-object"));
        assert_eq!(held.object_of("t1", "o1", 8), None);
        assert_eq!(held.object_of("t1", "o2", 7), None);
        assert_eq!(held.hold("t1", group("o3")), vec![group("o1")]);
        assert!(held.object_of("t1", "o1", 7).is_none());
        assert!(held.object_of("t1", "o3", 7).is_some());
        assert!(held.object_of("t2", "o2", 7).is_some());
        // The same group held again by a newer observation stays.
        let mut again = group("o4");
        again.group = "o3-refs".into();
        assert!(held.hold("t1", again.clone()).is_empty());
        assert_eq!(held.get("t1"), Some(again));
        assert_eq!(held.forget("t2"), Some(group("o2")));
        assert!(held.get("t2").is_none());
        held.clear();
        assert!(held.object_of("t1", "o4", 7).is_none());
    }

    #[test]
    fn targets_beyond_the_cap_release_their_groups_oldest_first() {
        let held = HeldRefs::default();
        for i in 0..MAX_HELD {
            assert!(held
                .hold(&format!("t{i}"), group(&format!("o{i}")))
                .is_empty());
        }
        // Holding t0 again moves it to the back; t1 is now the oldest.
        assert_eq!(held.hold("t0", group("again")), vec![group("o0")]);
        assert_eq!(held.hold("new", group("n")), vec![group("o1")]);
        assert!(held.object_of("t0", "again", 7).is_some());
        assert!(held.object_of("t1", "o1", 7).is_none());
    }

    #[test]
    fn a_group_of_an_earlier_document_needs_no_release() {
        let held = group("obs_1");
        // Same page session, later document: gone with its document.
        assert!(held.went_with_document("s", 2));
        // Same document: its objects are alive and must be released.
        assert!(!held.went_with_document("s", 1));
        // Another session (a frame's, or the tab reattached): released.
        assert!(!held.went_with_document("t", 2));
    }
}
