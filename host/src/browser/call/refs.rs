//! Observations and refs of a [`TargetCall`]: recording an observation
//! of the elements a call read (and holding its walk's objects,
//! `observe/held_refs.rs`), and turning an observation's ref back into a node
//! handle once every check on the observation has passed.

use crate::browser::call::TargetCall;
use crate::browser::observe::held_refs::{HeldGroup, MAX_KNOWN};
use crate::browser::observe::observations::{Observation, RefNode, OBSERVATION_TTL};
use crate::browser::types::{NodeHandle, ObservedElement};
use crate::error::{BpError, BpResult, Code, StaleReason};
use crate::ids::ObservationId;
use serde_json::json;
use std::sync::Arc;

/// The one answer for a ref this caller cannot see: it does not tell an
/// unknown observation from another workspace's or another target's.
fn no_such_ref() -> BpError {
    BpError::new(
        Code::StaleRef,
        "no such observation ref for this workspace and target",
    )
}

impl TargetCall {
    /// Record the observation; its ID as the WIT edge names it, a string.
    pub fn record_observation(&mut self, elements: &[ObservedElement]) -> BpResult<String> {
        self.check()?;
        let (doc_gen, loader, ..) = self.doc();
        let Some((tree_gen, tree_loader, frame_scope)) = self.observe.tree_doc.clone() else {
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
        let id = ObservationId::fresh();
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
        let walked_group = self.observe.refs_group.take();
        let release = match walked_group.or(self.observe.inherited_group.take()) {
            Some(group) => {
                let mut known = std::mem::take(&mut self.observe.walked);
                if known.len() > MAX_KNOWN {
                    // Too many to pass back; the refs still use them.
                    known.clear();
                }
                let held = HeldGroup {
                    observation: id.to_string(),
                    session: self.session.to_string(),
                    group,
                    known: Arc::new(known),
                    roles: Arc::new(std::mem::take(&mut self.observe.walked_roles)),
                    agent: self.observe.agent.take(),
                    doc_gen,
                };
                self.observe.held_count += 1;
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
        Ok(id.into_string())
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
    pub(in crate::browser) fn ref_handle(
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
        Ok((
            self.new_handle(node.backend, node.frame, session.into()),
            held,
        ))
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
            return Ok(self.session.to_string());
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
}
