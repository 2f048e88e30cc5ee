//! The fast observation read: the first interactive elements of a page,
//! with the cost following the number asked for, not the page's size.
//!
//! A page-side walk picks candidates in document order (through open
//! shadow roots) and stops early; Chromium's accessibility tree then gives
//! each candidate its role and name (`Accessibility.getPartialAXTree` per
//! element, pipelined), so roles and names are exactly those of the full
//! tree. Ignored nodes and roles outside the caller's set are dropped; the
//! walk widens until enough remain or the page is exhausted.
//!
//! Pages with child frames, or with a frame selected, are read with the
//! full tree (`axtree.rs`), which splices frames in; so is any page where
//! the walk fails.

use super::call::TargetCall;
use super::types::{AxNode, AxSnapshot, PageInfo};
use crate::error::BpResult;
use serde_json::{json, Value};

/// The page-side walk.
const WALK: &str = include_str!("interactive_walk.js");
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
                Ok((nodes, (url, title))) => {
                    self.tree_doc = Some((doc_gen, loader, None));
                    let info = PageInfo {
                        url: crate::redact::url(&url),
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
                Err(e) => tracing::debug!(
                    "fast observation unavailable ({}); reading the full tree",
                    e.message
                ),
            }
        }
        self.accessibility_tree(max_depth, max_nodes).await
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
        loop {
            let (elements, facts) = self.candidates(cap).await?;
            for chunk in elements[seen.min(elements.len())..].chunks(BATCH) {
                for (candidate, ax) in self.partial_nodes(chunk).await? {
                    let role = ax["role"]["value"].as_str().unwrap_or_default();
                    let wanted = candidate.cover
                        || (!ax["ignored"].as_bool().unwrap_or(false)
                            && roles.iter().any(|r| r == role));
                    if !wanted {
                        continue;
                    }
                    let session = self.session.clone();
                    let mut node = self.ax_node(&ax, candidate.depth, None, session);
                    if candidate.cover {
                        // A covering layer acts as a dialog, whatever its role.
                        node.role = "dialog".into();
                    }
                    if candidate.password {
                        node.protected = true;
                        node.value = None;
                    }
                    if let Some(h) = node.handle {
                        self.set_object(h, candidate.object);
                    }
                    // Surfaces come along for context; only controls
                    // count toward the limit.
                    if !matches!(node.role.as_str(), "dialog" | "alertdialog") {
                        counted += 1;
                    }
                    nodes.push(node);
                    if counted >= want {
                        return Ok((nodes, facts));
                    }
                }
            }
            if elements.len() < cap {
                return Ok((nodes, facts));
            }
            seen = elements.len();
            cap *= 4;
        }
    }

    /// The first `cap` candidates, in document order, and the page's URL
    /// and title.
    async fn candidates(&mut self, cap: usize) -> BpResult<(Vec<Candidate>, (String, String))> {
        let expression = format!("({WALK})({cap})");
        let reply = self
            .send(
                "Runtime.evaluate",
                json!({"expression": expression, "objectGroup": self.group, "returnByValue": false}),
            )
            .await?;
        let array = reply["result"]["objectId"]
            .as_str()
            .filter(|_| reply.get("exceptionDetails").is_none())
            .ok_or_else(|| crate::error::BpError::internal("the page walk returned no list"))?
            .to_string();
        let props = self
            .send(
                "Runtime.getProperties",
                json!({"objectId": array, "ownProperties": true, "generatePreview": false}),
            )
            .await?;
        let props: &[Value] = props["result"].as_array().map_or(&[], Vec::as_slice);
        let fact = |name: &str| {
            props
                .iter()
                .find(|p| p["name"] == name)
                .and_then(|p| p["value"]["value"].as_str())
                .unwrap_or_default()
                .to_string()
        };
        let facts = (fact("href"), fact("title"));
        let passwords: std::collections::HashSet<usize> = fact("pw")
            .split(',')
            .filter_map(|i| i.parse().ok())
            .collect();
        let cover: Option<usize> = fact("cover").parse().ok();
        let depths: Vec<u32> = fact("depths")
            .split(',')
            .map(|d| d.parse().unwrap_or(0))
            .collect();
        let mut indexed: Vec<(usize, String)> = props
            .iter()
            .filter_map(|p| {
                let index = p["name"].as_str()?.parse::<usize>().ok()?;
                Some((index, p["value"]["objectId"].as_str()?.to_string()))
            })
            .collect();
        indexed.sort_unstable_by_key(|(i, _)| *i);
        let candidates = indexed
            .into_iter()
            .map(|(i, object)| Candidate {
                object,
                password: passwords.contains(&i),
                depth: depths.get(i).copied().unwrap_or(0),
                cover: cover == Some(i),
            })
            .collect();
        Ok((candidates, facts))
    }

    /// The accessibility node of each element, requests in flight together.
    async fn partial_nodes(&self, candidates: &[Candidate]) -> BpResult<Vec<(Candidate, Value)>> {
        let replies = futures::future::join_all(candidates.iter().map(|c| {
            self.send(
                "Accessibility.getPartialAXTree",
                json!({"objectId": c.object, "fetchRelatives": false}),
            )
        }))
        .await;
        let mut out = Vec::with_capacity(candidates.len());
        for (candidate, reply) in candidates.iter().zip(replies) {
            // An element removed meanwhile is simply not there any more.
            let Ok(mut reply) = reply else { continue };
            if let Some(node) = reply["nodes"].get_mut(0).map(Value::take) {
                out.push((candidate.clone(), node));
            }
        }
        Ok(out)
    }
}

/// One element the page-side walk picked.
#[derive(Clone)]
struct Candidate {
    object: String,
    /// An `<input type=password>`.
    password: bool,
    /// How many dialogs (or covering layers) enclose it.
    depth: u32,
    /// The layer covering most of the viewport.
    cover: bool,
}
