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
//! full tree (`axtree.rs`), which splices frames in; so is any page where
//! the walk fails.

use super::axtree::normalize_name;
use super::call::TargetCall;
use super::types::{AxNode, AxSnapshot, PageInfo};
use crate::error::BpResult;
use serde_json::{json, Value};

/// The page-side walk.
const WALK: &str = include_str!("interactive_walk.js");
/// The page-side description of plain candidates.
const FAST: &str = include_str!("interactive_fast.js");
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
                for (candidate, read) in self.read_candidates(chunk).await? {
                    let Some(mut node) = self.candidate_node(&candidate, read, roles) else {
                        continue;
                    };
                    if candidate.cover {
                        // A covering layer acts as a dialog, whatever its role.
                        node.role = "dialog".into();
                    }
                    if candidate.password {
                        node.protected = true;
                        node.value = None;
                    }
                    if let Some(h) = node.handle {
                        self.set_object(h, candidate.object.clone());
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
        let expression = format!("(function (FAST) {{ return ({WALK})({cap}); }})({FAST})");
        // The candidates go in a group of their own, which the recorded
        // observation keeps (`held_refs.rs`).
        let group = self
            .refs_group
            .get_or_insert_with(|| format!("{}-refs", self.group))
            .clone();
        let reply = self
            .send(
                "Runtime.evaluate",
                json!({"expression": expression, "objectGroup": group, "returnByValue": false}),
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
        let fast: Vec<Value> = serde_json::from_str(&fact("fast")).unwrap_or_default();
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
                plain: fast.get(i).and_then(Plain::from_page),
            })
            .collect();
        Ok((candidates, facts))
    }

    /// What the browser adds to each candidate, requests in flight
    /// together: the node ID of a plain one, the accessibility node of any
    /// other.
    async fn read_candidates(&self, candidates: &[Candidate]) -> BpResult<Vec<(Candidate, Value)>> {
        let replies = futures::future::join_all(candidates.iter().map(|c| {
            let (method, params) = match c.plain {
                Some(_) => ("DOM.describeNode", json!({"objectId": c.object})),
                None => (
                    "Accessibility.getPartialAXTree",
                    json!({"objectId": c.object, "fetchRelatives": false}),
                ),
            };
            self.send(method, params)
        }))
        .await;
        let by_page = candidates.iter().filter(|c| c.plain.is_some()).count() as u64;
        self.registry
            .count_described(by_page, candidates.len() as u64 - by_page);
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
            });
        }
        let role = read["role"]["value"].as_str().unwrap_or_default();
        let wanted = candidate.cover
            || (!read["ignored"].as_bool().unwrap_or(false) && roles.iter().any(|r| r == role));
        wanted.then(|| self.ax_node(&read, candidate.depth, None, session))
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
    /// Role, name and state as the page described them, for a plain one.
    plain: Option<Plain>,
}

/// A candidate the page described itself (`interactive_fast.js`).
#[derive(Clone, Debug, PartialEq)]
struct Plain {
    role: String,
    name: String,
    value: Option<String>,
    checked: Option<String>,
    disabled: bool,
    focused: bool,
}

impl Plain {
    /// `[role, name, value | null, checked | null, disabled, focused]`, or
    /// `0` for a candidate the page left to Chromium.
    fn from_page(v: &Value) -> Option<Self> {
        let text = |i: usize| v.get(i).and_then(Value::as_str).map(str::to_string);
        Some(Self {
            role: text(0)?,
            name: text(1)?,
            value: text(2),
            checked: text(3),
            disabled: v.get(4).and_then(Value::as_i64)? != 0,
            focused: v.get(5).and_then(Value::as_i64) == Some(1),
        })
    }
}

#[cfg(test)]
mod tests {
    use super::Plain;
    use serde_json::json;

    #[test]
    fn page_descriptions_parse_or_fall_back() {
        let p = Plain::from_page(&json!(["textbox", "Note 1", "x", null, 1, 0])).unwrap();
        assert_eq!(p.role, "textbox");
        assert!(!p.focused);
        assert_eq!(p.value.as_deref(), Some("x"));
        assert!(p.checked.is_none() && p.disabled);
        let c = Plain::from_page(&json!(["checkbox", "Pick", null, "mixed", 0, 1])).unwrap();
        assert_eq!(c.checked.as_deref(), Some("mixed"));
        assert!(!c.disabled && c.focused);
        // Left to Chromium, or malformed: no description.
        assert!(Plain::from_page(&json!(0)).is_none());
        assert!(Plain::from_page(&json!(["button"])).is_none());
        assert!(Plain::from_page(&json!([1, "x", null, null, 0])).is_none());
    }
}
