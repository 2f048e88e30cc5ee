//! Reading the accessibility tree of a target across its frames: the tree
//! of the selected frame (the main frame by default), with each child
//! frame's tree, same-process or out-of-process, spliced in under its
//! `<iframe>` element. Open shadow roots are part of the accessibility tree
//! already. For an observation, each document's elements that take clicks
//! without an interactive role and its scroll containers are named as the
//! page walk names them (`observe/frame_extras.rs`).

use crate::browser::call::TargetCall;
use crate::browser::observe::frame_extras::Extras;
use crate::browser::observe::walk::normalize_name;
use crate::browser::types::{AxNode, AxSnapshot};
use crate::error::{BpError, BpResult, StaleReason};
use crate::ids::SessionId;
use chromiumoxide::cdp::browser_protocol::accessibility::GetFullAxTreeParams;
use chromiumoxide::cdp::browser_protocol::page::FrameId;
use serde_json::Value;
use std::collections::HashMap;

/// Frames read at most in one observation.
const MAX_FRAMES: usize = 32;

/// The accessibility nodes of one frame document.
struct FrameTree {
    /// `None`: the main frame; else the frame and its loader when read.
    frame: Option<(String, Option<String>)>,
    session: String,
    nodes: Vec<Value>,
    index: HashMap<String, usize>,
    /// `<iframe>` backend node -> the child frame it shows.
    owners: HashMap<i64, String>,
    /// What the page walk lists by itself in this document (read for
    /// observations only).
    extras: Extras,
}

impl FrameTree {
    fn root(&self) -> usize {
        self.nodes
            .iter()
            .position(|n| n.get("parentId").is_none())
            .unwrap_or(0)
    }
}

/// A node's role as observations name it: a `<summary>` (Chromium's
/// `DisclosureTriangle`) is the disclosure button it acts as.
pub(in crate::browser) fn role_of(n: &Value) -> String {
    match n["role"]["value"].as_str().unwrap_or_default() {
        "DisclosureTriangle" => "button".to_string(),
        role => role.to_string(),
    }
}

fn as_str(v: &Value) -> String {
    v.as_str().unwrap_or_default().to_string()
}

impl TargetCall {
    /// The accessibility nodes of `frame` and which child frame each
    /// `<iframe>` element shows.
    async fn frame_tree(&mut self, frame: Option<String>, extras: bool) -> BpResult<FrameTree> {
        let (session, own_session, children, loader) = self
            .registry
            .with(&self.raw_id, |t| {
                let parent = frame.clone().or_else(|| t.main_frame.clone());
                let children: Vec<String> = t
                    .frames
                    .iter()
                    .filter(|(_, f)| f.parent.is_some() && f.parent == parent)
                    .map(|(id, _)| id.clone())
                    .collect();
                let own = frame
                    .as_ref()
                    .and_then(|f| t.frames.get(f))
                    .is_some_and(|f| f.session.is_some());
                let loader = frame
                    .as_ref()
                    .and_then(|f| t.frames.get(f))
                    .and_then(|f| f.loader.clone());
                (t.session_for(frame.as_deref()), own, children, loader)
            })
            .unwrap_or((None, false, Vec::new(), None));
        let session = session.unwrap_or_else(|| self.session.to_string());
        // A frame with its own session is that session's root document.
        let tree = GetFullAxTreeParams {
            frame_id: match &frame {
                Some(f) if !own_session => Some(FrameId::new(f.as_str())),
                _ => None,
            },
            ..Default::default()
        };
        // Accessibility nodes are read as JSON: their enums drift.
        let mut reply = self.cmd_on_raw(&session, &tree).await?;
        // Taken, not cloned: a large page's tree is tens of megabytes.
        let nodes = match reply["nodes"].take() {
            Value::Array(nodes) => nodes,
            _ => Vec::new(),
        };
        let index = nodes
            .iter()
            .enumerate()
            .filter_map(|(i, n)| n["nodeId"].as_str().map(|id| (id.to_string(), i)))
            .collect();
        let mut owners = HashMap::new();
        for child in children {
            if let Some(b) = self.frame_owner(&session, &child).await {
                owners.insert(b, child);
            }
        }
        let mut tree = FrameTree {
            frame: frame.map(|f| (f, loader)),
            session,
            nodes,
            index,
            owners,
            extras: Extras::new(),
        };
        if extras {
            let document = tree
                .nodes
                .get(tree.root())
                .and_then(|n| n["backendDOMNodeId"].as_i64());
            let session = tree.session.clone();
            tree.extras = self.frame_extras(&session, document).await;
        }
        Ok(tree)
    }

    /// The selected frame (`None`: the main frame). A selected frame that
    /// is gone is `stale-ref` `frame_detached`; the broker clears the
    /// selection and announces it when it processes the detach.
    pub(in crate::browser) fn selected_frame(&self) -> BpResult<Option<String>> {
        let ws = &self.caller.workspace_id;
        let Some(selected) = self.frames.selected(ws, &self.raw_id) else {
            return Ok(None);
        };
        let alive = self
            .registry
            .with(&self.raw_id, |t| t.frames.contains_key(&selected))
            .unwrap_or(false);
        if alive {
            Ok(Some(selected))
        } else {
            Err(BpError::stale(StaleReason::FrameDetached))
        }
    }

    pub async fn accessibility_tree(
        &mut self,
        max_depth: u32,
        max_nodes: u32,
    ) -> BpResult<AxSnapshot> {
        let snapshot = self.read_tree(max_depth, max_nodes, false).await;
        // The raw trees are gone now; hand their memory back to the system
        // so one large page does not leave the broker hundreds of MB big.
        crate::system::heap::trim();
        snapshot
    }

    /// [`Self::accessibility_tree`] for an observation: elements that take
    /// clicks without an interactive role and scroll containers are listed
    /// as `clickable` and `scrollable`, named as the page walk names them.
    pub(in crate::browser) async fn observed_tree(
        &mut self,
        max_depth: u32,
        max_nodes: u32,
    ) -> BpResult<AxSnapshot> {
        let snapshot = self.read_tree(max_depth, max_nodes, true).await;
        crate::system::heap::trim();
        snapshot
    }

    async fn read_tree(
        &mut self,
        max_depth: u32,
        max_nodes: u32,
        extras: bool,
    ) -> BpResult<AxSnapshot> {
        self.check()?;
        let info = self.current_page().await?;
        let (doc_gen, loader, ..) = self.doc();
        let scope = self.selected_frame()?;
        let mut trees = vec![self.frame_tree(scope.clone(), extras).await?];
        let mut out = Vec::new();
        let (mut depth_limited, mut node_limited) = (false, false);
        let mut stack = vec![(0usize, trees[0].root(), 0u32)];
        while let Some((ti, i, depth)) = stack.pop() {
            let Some(n) = trees.get(ti).and_then(|t| t.nodes.get(i)) else {
                continue;
            };
            if depth > max_depth {
                depth_limited = true;
                continue;
            }
            let extra = n["backendDOMNodeId"]
                .as_i64()
                .and_then(|b| trees[ti].extras.get(&b).cloned());
            if extra.is_some() || !n["ignored"].as_bool().unwrap_or(false) {
                if out.len() >= max_nodes as usize {
                    node_limited = true;
                    break;
                }
                let (frame, session) = (trees[ti].frame.clone(), trees[ti].session.clone());
                let mut node = self.ax_node(n, depth, frame, SessionId::from(session));
                if let Some((kind, name)) = extra {
                    node.role = kind;
                    node.name = normalize_name(&name);
                }
                out.push(node);
            }
            if let Some(children) = n["childIds"].as_array() {
                for c in children.iter().rev() {
                    if let Some(&ci) = c.as_str().and_then(|id| trees[ti].index.get(id)) {
                        stack.push((ti, ci, depth + 1));
                    }
                }
            }
            // An <iframe>: its document follows it, one level deeper.
            let child = n["backendDOMNodeId"]
                .as_i64()
                .and_then(|b| trees[ti].owners.get(&b).cloned());
            if let Some(child) = child.filter(|_| trees.len() < MAX_FRAMES) {
                // A frame that went away meanwhile is simply left out.
                if depth + 1 > max_depth {
                    depth_limited = true;
                } else if let Ok(tree) = self.frame_tree(Some(child), extras).await {
                    let root = tree.root();
                    trees.push(tree);
                    stack.push((trees.len() - 1, root, depth + 1));
                }
            }
        }
        self.observe.tree_doc = Some((doc_gen, loader, scope));
        crate::browser::observe::walk_facts::gather_options(&mut out);
        crate::browser::observe::walk_facts::tidy_links(&mut out, &info.url);
        Ok(AxSnapshot {
            info,
            nodes: out,
            depth_limited,
            node_limited,
        })
    }

    pub(in crate::browser) fn ax_node(
        &mut self,
        n: &Value,
        depth: u32,
        frame: Option<(String, Option<String>)>,
        session: SessionId,
    ) -> AxNode {
        let prop = |name: &str| {
            n["properties"]
                .as_array()
                .and_then(|ps| ps.iter().find(|p| p["name"] == name))
                .map(|p| p["value"]["value"].clone())
        };
        let value = match &n["value"]["value"] {
            Value::String(s) => Some(s.clone()),
            Value::Number(num) => Some(num.to_string()),
            _ => None,
        };
        let protected = value
            .as_deref()
            .is_some_and(|v| !v.is_empty() && v.chars().all(|c| c == '•'));
        let checked = prop("checked").map(|v| match v {
            Value::String(s) => s,
            other => other.to_string(),
        });
        let handle = n["backendDOMNodeId"]
            .as_i64()
            .map(|b| self.new_handle(b, frame, session));
        AxNode {
            handle,
            role: role_of(n),
            name: normalize_name(&as_str(&n["name"]["value"])),
            value: if protected { None } else { value },
            checked,
            disabled: prop("disabled").and_then(|v| v.as_bool()).unwrap_or(false),
            protected,
            depth,
            expanded: prop("expanded").and_then(|v| v.as_bool()),
            focused: prop("focused").and_then(|v| v.as_bool()).unwrap_or(false),
            facts: crate::browser::observe::walk_facts::ax_facts(n, None),
        }
    }
}
