//! The fast observation read: the first interactive elements of a page,
//! with the cost following the number asked for, not the page's size.
//!
//! A page-side walk picks candidates in document order (through open
//! shadow roots) and stops early. Candidates whose role, name and state
//! follow from plain markup (a native link, button or field named by
//! aria-label, plain text or one plain label; `interactive_fast.js`) are
//! described by the page itself and only their node IDs are asked for.
//! Every other candidate gets its role and name from Chromium's
//! accessibility tree (`Accessibility.getPartialAXTree` per element,
//! pipelined). Both give what the full tree gives: tests compare them on
//! the same markup. Ignored nodes and roles outside the caller's set are
//! dropped; the walk widens until enough remain or the page is exhausted.
//!
//! Pages with child frames, or with a frame selected, are read with the
//! full tree (`observe/axtree.rs`), which splices frames in; so is any page where
//! the walk fails.

use crate::browser::call::wire::Wire;
use crate::browser::call::TargetCall;
use crate::browser::observe::held_refs::Known;
use crate::browser::observe::walk::{
    normalize_name, page_unreachable, serialized_ids, Candidate, WalkFacts, Walked,
};
use crate::browser::types::{AxNode, AxSnapshot, PageInfo};
use crate::error::BpResult;
use chromiumoxide::cdp::browser_protocol::accessibility::GetPartialAxTreeParams;
use chromiumoxide::cdp::browser_protocol::dom::DescribeNodeParams;
use chromiumoxide::cdp::js_protocol::runtime::{GetPropertiesParams, RemoteObjectId};
use serde_json::{json, Value};

/// Accessibility reads in flight at once.
const BATCH: usize = 256;

impl TargetCall {
    /// Up to `limit` + 1 interactive elements whose role is in `roles`, in
    /// document order (the extra one tells the caller the list was cut).
    /// Falls back to the full tree (all nodes) where the walk does not
    /// apply.
    pub async fn interactive_nodes(
        &mut self,
        roles: &[String],
        limit: u32,
        max_depth: u32,
        max_nodes: u32,
    ) -> BpResult<AxSnapshot> {
        self.check()?;
        let framed = self.selected_frame()?.is_some()
            || self
                .registry
                .with(&self.raw_id, |t| !t.frames.is_empty())
                .unwrap_or(true);
        if !framed {
            let (doc_gen, loader, dialog_open, _) = self.doc();
            match self.walk(roles, limit as usize + 1).await {
                Ok((mut nodes, (url, title))) => {
                    self.observe.tree_doc = Some((doc_gen, loader, None));
                    crate::browser::observe::walk_facts::tidy_links(&mut nodes, &url);
                    let info = PageInfo {
                        url: crate::sanitize::redact::url(&url),
                        title,
                        document_generation: doc_gen,
                        dialog_open,
                    };
                    return Ok(AxSnapshot {
                        info,
                        nodes,
                        depth_limited: false,
                        node_limited: false,
                    });
                }
                Err(e) if page_unreachable(&e) => return Err(e),
                Err(e) => {
                    // Its objects may be gone with the walk's group.
                    self.observe.agent = None;
                    tracing::debug!(
                        "fast observation unavailable ({}); reading the full tree",
                        e.message
                    )
                }
            }
        }
        let mut snapshot = self.observed_tree(max_depth, max_nodes).await?;
        crate::browser::observe::walk_facts::drop_table_rows(&mut snapshot.nodes);
        Ok(snapshot)
    }

    /// Walk with a growing cap until `want` nodes of `roles` are found or
    /// the page has no more candidates.
    async fn walk(
        &mut self,
        roles: &[String],
        want: usize,
    ) -> BpResult<(Vec<AxNode>, (String, String))> {
        let mut cap = (want * 2).max(64);
        let mut seen = 0;
        let mut counted = 0;
        let mut nodes = Vec::new();
        self.observe.walked.clear();
        self.observe.walked_roles = roles.to_vec();
        loop {
            let walked = self.candidates(cap, roles, want).await?;
            let elements = walked.elements;
            for chunk in elements[seen.min(elements.len())..].chunks(BATCH) {
                for (candidate, read) in self.read_candidates(chunk).await? {
                    let backend = read["backendNodeId"]
                        .as_i64()
                        .or_else(|| read["backendDOMNodeId"].as_i64());
                    let node = self.candidate_node(&candidate, read, roles);
                    // Surfaces come along for context; only controls
                    // count toward the limit. (A covering layer acts as a
                    // dialog, whatever its role.)
                    let counts = node.as_ref().is_some_and(|n| {
                        !candidate.cover
                            && !matches!(
                                n.role.as_str(),
                                "dialog" | "alertdialog" | "group" | "radiogroup"
                            )
                    });
                    // The node's identity, for the next observation.
                    if let (Some(b), false) = (backend, candidate.object.is_empty()) {
                        self.observe.walked.push(Known {
                            backend: b,
                            object: candidate.object.clone(),
                            counted: counts,
                        });
                    }
                    let Some(mut node) = node else {
                        continue;
                    };
                    if candidate.cover {
                        node.role = "dialog".into();
                    }
                    if candidate.password {
                        node.protected = true;
                        node.value = None;
                    }
                    if let Some(h) = node.handle {
                        self.set_object(h, candidate.object.clone());
                    }
                    counted += usize::from(counts);
                    nodes.push(node);
                    if counted >= want {
                        return Ok((nodes, walked.facts));
                    }
                }
            }
            if walked.page_counted.is_some_and(|c| counted < c) {
                // The page counted known elements that no longer count
                // (Chromium ignores them now): start again, afresh.
                self.observe.rewalk_off = true;
                self.observe.walked.clear();
                self.observe.inherited_group = None;
                nodes.clear();
                (seen, counted) = (0, 0);
                continue;
            }
            if !walked.more {
                return Ok((nodes, walked.facts));
            }
            seen = elements.len();
            cap *= 4;
        }
    }

    /// The first `cap` candidates, in document order, and the page's URL
    /// and title: from the elements a recent observation identified when
    /// they suffice (`observe/rewalk.rs`), else from a fresh walk.
    async fn candidates(&mut self, cap: usize, roles: &[String], want: usize) -> BpResult<Walked> {
        if self.observe.agent.is_none() {
            self.observe.agent = self.held_agent();
        }
        if !self.observe.rewalk_off && self.observe.agent.is_some() {
            if let Some(held) = self.known_elements(roles) {
                match self.rewalk(cap, roles, want, &held).await {
                    Ok(walked) => return Ok(walked),
                    Err(e) => {
                        self.observe.rewalk_off = true;
                        tracing::debug!("walking with known elements failed ({})", e.message);
                    }
                }
            }
        }
        let group = self.fresh_refs_group();
        let reply = self.agent_walk(cap, &group).await?;
        if reply.get("exceptionDetails").is_some() {
            return Err(crate::error::BpError::internal("the page walk threw"));
        }
        self.candidates_of(&reply["result"], cap, &[]).await
    }

    /// The object group the page walk puts its candidates in: one of this
    /// call's own, which the recorded observation keeps (`observe/held_refs.rs`).
    pub(in crate::browser) fn fresh_refs_group(&mut self) -> String {
        let name = self.fresh_group_name();
        self.observe.refs_group.get_or_insert(name).clone()
    }

    /// The name of this call's group for walked elements (a new one
    /// after each recorded observation, whose group is then held).
    pub(in crate::browser) fn fresh_group_name(&self) -> String {
        format!("{}-refs{}", self.group, self.observe.held_count)
    }

    /// The candidates in the page-side list `list` (the walk's answer: its
    /// remote object, serialized with node IDs, `observe/walk_agent.rs`), with the
    /// backend node of those at an index of `known` (its `ix`).
    pub(in crate::browser) async fn candidates_of(
        &mut self,
        list: &Value,
        cap: usize,
        known: &[Known],
    ) -> BpResult<Walked> {
        let array = list["objectId"]
            .as_str()
            .ok_or_else(|| crate::error::BpError::internal("the page walk returned no list"))?;
        let serialized = serialized_ids(list);
        let mut properties = GetPropertiesParams::new(RemoteObjectId::new(array));
        properties.own_properties = Some(true);
        properties.generate_preview = Some(false);
        // Remote objects: read as JSON (their enums drift).
        let props = self.cmd_raw(&properties).await?;
        let props: &[Value] = props["result"].as_array().map_or(&[], Vec::as_slice);
        let fact = |name: &str| {
            props
                .iter()
                .find(|p| p["name"] == name)
                .and_then(|p| p["value"]["value"].as_str())
                .unwrap_or_default()
                .to_string()
        };
        let mut objects: Vec<(usize, String)> = props
            .iter()
            .filter_map(|p| {
                let index = p["name"].as_str()?.parse::<usize>().ok()?;
                Some((index, p["value"]["objectId"].as_str()?.to_string()))
            })
            .collect();
        objects.sort_unstable_by_key(|(i, _)| *i);
        // The walk agent, in this list's group (`observe/walk_agent.rs`).
        self.observe.agent = props
            .iter()
            .find(|p| p["name"] == "agent")
            .and_then(|p| p["value"]["objectId"].as_str())
            .map(str::to_string);
        let more = objects.len() >= cap;
        let facts = WalkFacts::read(fact);
        let ix = facts.known_indices();
        let elements = objects
            .into_iter()
            .map(|(i, object)| {
                let backend = ix.get(i).and_then(|k| known.get(*k)).map(|k| k.backend);
                let mut candidate = facts.candidate(i, object, backend);
                candidate.serialized = serialized.get(i).copied().flatten();
                candidate
            })
            .collect();
        Ok(Walked {
            elements,
            facts: facts.page(),
            more,
            page_counted: None,
        })
    }

    /// What the browser adds to each candidate, requests in flight
    /// together: the node ID of a plain one (unless already known), the
    /// accessibility node of any other.
    async fn read_candidates(&self, candidates: &[Candidate]) -> BpResult<Vec<(Candidate, Value)>> {
        let replies = futures::future::join_all(candidates.iter().map(|c| async move {
            let object = Some(RemoteObjectId::new(c.object.as_str()));
            // DOM and accessibility nodes are read as JSON: their enums drift.
            let read = match (&c.plain, c.backend.or(c.serialized)) {
                (Some(_), Some(b)) => return Ok(json!({"node": {"backendNodeId": b}})),
                // Left out of a walk over known elements: its role is not
                // wanted, so it is dropped without its node.
                (Some(_), None) if c.object.is_empty() => return Ok(json!({"node": {}})),
                (Some(_), None) => Wire::of(&DescribeNodeParams {
                    object_id: object,
                    ..Default::default()
                })?,
                (None, _) => Wire::of(&GetPartialAxTreeParams {
                    object_id: object,
                    fetch_relatives: Some(false),
                    ..Default::default()
                })?,
            };
            self.send_wire(read).await
        }))
        .await;
        let by_page = candidates.iter().filter(|c| c.plain.is_some()).count() as u64;
        let known = candidates.iter().filter(|c| c.backend.is_some()).count() as u64;
        let with_walk = candidates
            .iter()
            .filter(|c| c.plain.is_some() && c.backend.is_none() && c.serialized.is_some())
            .count() as u64;
        self.registry
            .count_described(by_page, candidates.len() as u64 - by_page, known, with_walk);
        let mut out = Vec::with_capacity(candidates.len());
        for (candidate, reply) in candidates.iter().zip(replies) {
            // An element removed meanwhile is simply not there any more.
            let Ok(mut reply) = reply else { continue };
            let read = match candidate.plain {
                Some(_) => reply["node"].take(),
                None => match reply["nodes"].get_mut(0) {
                    Some(node) => node.take(),
                    None => continue,
                },
            };
            out.push((candidate.clone(), read));
        }
        Ok(out)
    }

    /// The observed node of a candidate, if it counts: `read` is its DOM
    /// node (plain candidates) or its accessibility node.
    fn candidate_node(
        &mut self,
        candidate: &Candidate,
        read: Value,
        roles: &[String],
    ) -> Option<AxNode> {
        let session = self.session.clone();
        if let Some(plain) = &candidate.plain {
            if !roles.contains(&plain.role) {
                return None;
            }
            let backend = read["backendNodeId"].as_i64()?;
            return Some(AxNode {
                handle: Some(self.new_handle(backend, None, session)),
                role: plain.role.clone(),
                name: normalize_name(&plain.name),
                value: plain.value.clone(),
                checked: plain.checked.clone(),
                disabled: plain.disabled,
                protected: false,
                depth: candidate.depth,
                expanded: None,
                focused: plain.focused,
                facts: candidate.facts.clone(),
            });
        }
        let role = crate::browser::observe::axtree::role_of(&read);
        let wanted = candidate.cover
            || (!read["ignored"].as_bool().unwrap_or(false) && roles.contains(&role));
        wanted.then(|| {
            let mut node = self.ax_node(&read, candidate.depth, None, session);
            node.facts =
                crate::browser::observe::walk_facts::ax_facts(&read, Some(candidate.facts.clone()));
            node
        })
    }
}
