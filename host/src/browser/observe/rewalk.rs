//! Observing a document again: the elements a recent observation of the
//! tab identified are passed to the page walk, so those found again need
//! no browser round trip to be named.
//!
//! The walk itself always runs afresh: what it returns is the page as it
//! is now, in document order, described now. What is reused is only the
//! identity of elements already seen, as the pairs (backend node, remote
//! object) kept with the tab's latest observation (`observe/held_refs.rs`). The
//! page matches its candidates against those objects by identity.
//!
//! When every candidate up to the requested count is known (or is plain
//! markup of a role not asked for), the page answers with one string and
//! the observation takes one round trip: no list to fetch, no node IDs to
//! ask for. Otherwise it answers with the list as a fresh walk does, and
//! only the candidates it does not know get their node IDs read. Known
//! elements that need Chromium's tree are still read from it. The page
//! counts a known element as it counted last time (same roles asked for);
//! if the host counts fewer (Chromium ignores it now), the walk is done
//! afresh from the start.

use crate::browser::call::TargetCall;
use crate::browser::observe::held_refs::{HeldGroup, MAX_KNOWN};
use crate::browser::observe::walk::{WalkFacts, Walked};
use crate::error::{BpError, BpResult};
use serde_json::{json, Value};

impl TargetCall {
    /// The tab's latest observation's held group, if it was taken of the
    /// document shown now in this session.
    pub(in crate::browser) fn held_here(&self) -> Option<HeldGroup> {
        let held = self.observations.held.get(&self.raw_id)?;
        let obs = self.observations.get(&held.observation)?;
        let (doc_gen, loader, ..) = self.doc();
        let same = *held.session == *self.session
            && obs.generation == self.generation
            && obs.session_serial == self.session_serial
            && obs.doc_gen == doc_gen
            && obs.loader == loader
            && obs.frame_scope.is_none();
        same.then_some(held)
    }

    /// That held group, with the elements its walk identified (`known`:
    /// backend node, remote object), if the walk was asked for `roles`.
    pub(in crate::browser) fn known_elements(&self, roles: &[String]) -> Option<HeldGroup> {
        self.held_here().filter(|held| {
            held.roles.as_slice() == roles
                && !held.known.is_empty()
                && held.known.len() <= MAX_KNOWN
        })
    }

    /// Walk the page with the known elements at hand (see the module
    /// notes).
    pub(in crate::browser) async fn rewalk(
        &mut self,
        cap: usize,
        roles: &[String],
        want: usize,
        held: &HeldGroup,
    ) -> BpResult<Walked> {
        let known = held.known.as_slice();
        let counts: String = known
            .iter()
            .map(|k| if k.counted { '1' } else { '0' })
            .collect();
        let mut args = vec![
            json!({"value": cap}),
            json!({"value": roles}),
            json!({"value": want}),
            json!({"value": counts}),
        ];
        args.extend(known.iter().map(|k| json!({"objectId": k.object})));
        // A list goes in a fresh group; a string answer makes no objects.
        let group = self
            .observe
            .refs_group
            .clone()
            .unwrap_or_else(|| self.fresh_group_name());
        let reply = self.agent_rewalk(args, &group).await?;
        if reply.get("exceptionDetails").is_some() {
            // (The exception is an object of that group.)
            self.observe.refs_group = Some(group);
            return Err(BpError::internal("the page walk threw"));
        }
        let result = &reply["result"];
        if result["objectId"].is_string() {
            self.observe.refs_group = Some(group);
            return self.candidates_of(result, cap, known).await;
        }
        let answer: Value = result["value"]
            .as_str()
            .and_then(|s| serde_json::from_str(s).ok())
            .ok_or_else(|| BpError::internal("the page walk returned neither list nor answer"))?;
        let facts = WalkFacts::read(|name| match &answer[name] {
            Value::String(s) => s.clone(),
            other => other.to_string(),
        });
        let elements = facts
            .known_indices()
            .into_iter()
            .enumerate()
            .map(|(i, k)| match known.get(k) {
                Some(k) => facts.candidate(i, k.object.clone(), Some(k.backend)),
                None => facts.candidate(i, String::new(), None),
            })
            .collect();
        // The observation keeps the same held objects.
        self.observe.inherited_group = Some(held.group.clone());
        Ok(Walked {
            elements,
            facts: facts.page(),
            more: answer["more"] == json!(true),
            page_counted: answer["count"].as_u64().map(|c| c as usize),
        })
    }
}
