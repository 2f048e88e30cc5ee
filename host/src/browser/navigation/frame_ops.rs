//! Frame operations of a [`TargetCall`]: listing and selecting frames,
//! and the geometry that maps a frame's coordinates to the top-level
//! viewport (input always goes to the page's own session).

use crate::browser::call::TargetCall;
use crate::browser::types::{FrameInfo, Point};
use crate::error::{BpError, BpResult, StaleReason};
use crate::ids::SessionId;
use chromiumoxide::cdp::browser_protocol::dom::{
    BackendNodeId, DescribeNodeParams, GetBoxModelParams, GetFrameOwnerParams,
};
use chromiumoxide::cdp::browser_protocol::page::FrameId;
use chromiumoxide::cdp::js_protocol::runtime::{EvaluateParams, RemoteObjectId};

/// Nesting followed at most when adding up frame offsets.
const MAX_NESTING: usize = 16;

impl TargetCall {
    /// The `<iframe>` element (backend node in `parent_session`, the
    /// session rendering the frame's parent) that shows `frame`. Asked
    /// once per call and frame.
    pub(in crate::browser) async fn frame_owner(
        &mut self,
        parent_session: &str,
        frame: &str,
    ) -> Option<i64> {
        let key = (parent_session.to_string(), frame.to_string());
        if let Some(owner) = self.frame_owners.get(&key) {
            return Some(*owner);
        }
        let owner = GetFrameOwnerParams::new(FrameId::new(frame));
        let reply = self.cmd_on(parent_session, &owner).await.ok()?;
        let owner = *reply.backend_node_id.inner();
        self.frame_owners.insert(key, owner);
        Some(owner)
    }

    /// Where `frame`'s viewport origin lies in the top-level viewport
    /// (`None`: the main frame, at the origin).
    pub(in crate::browser) async fn frame_offset(
        &mut self,
        frame: Option<&str>,
    ) -> BpResult<Point> {
        let mut total = Point { x: 0.0, y: 0.0 };
        let mut cur = frame.map(str::to_string);
        for _ in 0..MAX_NESTING {
            let Some(f) = cur else { return Ok(total) };
            let parent_session = self
                .registry
                .with(&self.raw_id, |t| {
                    let parent = t.frames.get(&f)?.parent.clone();
                    t.session_for(parent.as_deref())
                })
                .flatten()
                .ok_or_else(|| BpError::stale(StaleReason::FrameDetached))?;
            let owner = self
                .frame_owner(&parent_session, &f)
                .await
                .ok_or_else(|| BpError::stale(StaleReason::FrameDetached))?;
            let box_model = GetBoxModelParams {
                backend_node_id: Some(BackendNodeId::new(owner)),
                ..Default::default()
            };
            let model = self
                .cmd_on(&parent_session, &box_model)
                .await
                .map_err(|_| BpError::stale(StaleReason::FrameDetached))?;
            let content = model.model.content.inner();
            total.x += content.first().copied().unwrap_or(0.0);
            total.y += content.get(1).copied().unwrap_or(0.0);
            // That box is relative to the parent session's root frame.
            cur = self.session_root(&parent_session);
        }
        Ok(total)
    }

    /// The frame a session renders as its root (`None`: the page's).
    fn session_root(&self, session: &str) -> Option<String> {
        if *self.session == *session {
            return None;
        }
        self.registry
            .with(&self.raw_id, |t| t.frame_of_session(session))
            .flatten()
    }

    /// Where the root viewport of `session` lies in the top-level viewport.
    pub(in crate::browser) async fn session_offset(&mut self, session: &str) -> BpResult<Point> {
        match self.session_root(session) {
            None => Ok(Point { x: 0.0, y: 0.0 }),
            Some(root) => self.frame_offset(Some(&root)).await,
        }
    }

    pub fn list_frames(&self) -> BpResult<Vec<FrameInfo>> {
        self.check()?;
        let ws = &self.caller.workspace_id;
        // A selected frame that is gone shows as the main frame here.
        let selected = self.selected_frame().unwrap_or(None);
        let (main, main_url, mut frames) = self
            .registry
            .with(&self.raw_id, |t| {
                let frames: Vec<(String, crate::browser::registry::FrameState)> = t
                    .frames
                    .iter()
                    .map(|(id, f)| (id.clone(), f.clone()))
                    .collect();
                (t.main_frame.clone(), t.url.clone(), frames)
            })
            .ok_or_else(|| BpError::stale(StaleReason::TargetClosed))?;
        let main = main.ok_or_else(|| BpError::stale(StaleReason::DocumentReplaced))?;
        // Parents before children: order by depth, then by ID.
        let depth = |id: &str, frames: &[(String, crate::browser::registry::FrameState)]| {
            let mut d = 0;
            let mut cur = id.to_string();
            while let Some((_, f)) = frames.iter().find(|(i, _)| *i == cur) {
                match &f.parent {
                    Some(p) if d < MAX_NESTING => {
                        d += 1;
                        cur = p.clone();
                    }
                    _ => break,
                }
            }
            d
        };
        let snapshot = frames.clone();
        frames.sort_by_key(|(id, _)| (depth(id, &snapshot), id.clone()));
        let mut out = vec![FrameInfo {
            frame_id: self.frames.public_id(ws, &self.raw_id, &main),
            url: main_url,
            name: None,
            parent_frame_id: None,
            selected: selected.is_none(),
        }];
        for (id, f) in frames {
            out.push(FrameInfo {
                frame_id: self.frames.public_id(ws, &self.raw_id, &id),
                url: f.url,
                name: Some(f.name).filter(|n| !n.is_empty()),
                parent_frame_id: f
                    .parent
                    .map(|p| self.frames.public_id(ws, &self.raw_id, &p)),
                selected: selected.as_deref() == Some(id.as_str()),
            });
        }
        Ok(out)
    }

    pub fn select_frame(&mut self, frame: Option<&str>) -> BpResult<String> {
        self.check()?;
        let ws = self.caller.workspace_id.clone();
        let main = self
            .registry
            .with(&self.raw_id, |t| t.main_frame.clone())
            .flatten()
            .ok_or_else(|| BpError::stale(StaleReason::DocumentReplaced))?;
        let unknown = || BpError::invalid("no such frame on this target; list frames again");
        let raw = match frame {
            None => main.clone(),
            Some(public) => self
                .frames
                .raw_id(&ws, &self.raw_id, public)
                .ok_or_else(unknown)?,
        };
        if raw == main {
            self.frames.select(&ws, &self.raw_id, None);
        } else {
            let alive = self
                .registry
                .with(&self.raw_id, |t| t.frames.contains_key(&raw))
                .unwrap_or(false);
            if !alive {
                return Err(unknown());
            }
            self.frames.select(&ws, &self.raw_id, Some(raw.clone()));
        }
        Ok(self.frames.public_id(&ws, &self.raw_id, &raw))
    }
}

impl TargetCall {
    /// An identity of the deep composed active element: the backend node
    /// in each session along the way (`""`: nothing focused).
    pub async fn active_element(&mut self) -> BpResult<String> {
        self.check()?;
        // Right after input this read is the barrier that settles the page.
        let pending = std::mem::take(&mut self.input.unsettled);
        if pending && self.doc().2 {
            return Err(crate::browser::call::dialog_open());
        }
        let read = self.active_element_now().await;
        if pending && self.load_after_input().await {
            return self.active_element_now().await;
        }
        read
    }

    /// A new token for the active element `object` of the page's own
    /// session, kept with it for the next read to confirm.
    pub(in crate::browser) fn name_active(&mut self, object: String) -> String {
        self.input.active_reads += 1;
        let token = format!("o{}/", self.input.active_reads);
        self.input.last_active = Some((token.clone(), object));
        token
    }

    async fn active_element_now(&mut self) -> BpResult<String> {
        // Just found by the page call that focused it, nothing sent since?
        if let Some((sent, token)) = self.input.active_known.take() {
            if sent == self.cdp.commands_sent() {
                return Ok(token);
            }
        }
        // Still the element read last? One page call instead of two.
        if let Some((token, _)) = self.input.last_active.clone() {
            let read = match self.first_active_read() {
                Ok(first) => self.send_or_ahead(first).await,
                Err(e) => Err(e),
            };
            let confirmed = read
                .as_ref()
                .map_or(&serde_json::Value::Null, |r| &r["result"]["value"]);
            if confirmed["same"] == true {
                // (Nothing was sent since this read: a key sent next
                // compares its own focus read's count with this one.)
                self.input.keyups_seen = confirmed["keyups"]
                    .as_u64()
                    .map(|n| (n, self.cdp.commands_sent()));
                return Ok(token);
            }
            self.input.last_active = None;
        }
        let mut token = String::new();
        let mut session = self.session.clone();
        for _ in 0..MAX_NESTING {
            let reply = if session == self.session {
                let first = self.first_active_read()?;
                self.send_or_ahead(first).await?
            } else {
                // A read by reference: its object is the call's.
                self.group_sessions.insert(session.clone());
                let mut read = EvaluateParams::new(crate::browser::js::ACTIVE_ELEMENT);
                read.object_group = Some(self.group.clone());
                self.cmd_on_raw(&session, &read).await?
            };
            let Some(object) = reply["result"]["objectId"].as_str() else {
                return Ok(token);
            };
            // (Released with the call's object group when the call ends.)
            let class = reply["result"]["className"].as_str().unwrap_or_default();
            if session == self.session && !matches!(class, "HTMLIFrameElement" | "HTMLFrameElement")
            {
                // Nothing to descend into: the element itself is the
                // identity, kept for the next read to confirm.
                token.push_str(&self.name_active(object.to_string()));
                return Ok(token);
            }
            let describe = DescribeNodeParams {
                object_id: Some(RemoteObjectId::new(object)),
                ..Default::default()
            };
            // A DOM node is read as JSON: its enums drift.
            let node = self.cmd_on_raw(&session, &describe).await?;
            let backend = node["node"]["backendNodeId"].as_i64().unwrap_or(0);
            token.push_str(&format!("{backend}/"));
            // Focus inside an out-of-process frame: continue in its session.
            let is_frame = matches!(
                node["node"]["nodeName"].as_str(),
                Some("IFRAME") | Some("FRAME")
            );
            let child = if is_frame {
                self.oop_frame_owned_by(&session, backend).await
            } else {
                None
            };
            match child {
                Some(s) => session = SessionId::from(s),
                None => return Ok(token),
            }
        }
        Ok(token)
    }

    /// The session of the out-of-process frame shown by the `<iframe>`
    /// `owner` (a backend node in `session`), if any.
    async fn oop_frame_owned_by(&mut self, session: &str, owner: i64) -> Option<String> {
        let candidates: Vec<(String, String)> = self
            .registry
            .with(&self.raw_id, |t| {
                t.frames
                    .iter()
                    .filter_map(|(id, f)| f.session.clone().map(|s| (id.clone(), s)))
                    .collect()
            })
            .unwrap_or_default();
        for (frame, child) in candidates {
            if self.frame_owner(session, &frame).await == Some(owner) {
                return Some(child);
            }
        }
        None
    }
}
