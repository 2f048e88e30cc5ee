//! Target and frame events: attaches of workers and out-of-process
//! frames, frames seen and gone, and the frame tree read at attach.

use super::*;
use chromiumoxide::cdp::browser_protocol::target::{
    EventAttachedToTarget, EventDetachedFromTarget, EventTargetCreated, EventTargetDestroyed,
    EventTargetInfoChanged,
};

impl Registry {
    /// Apply one CDP event.
    pub fn on_event(&self, ev: &CdpEvent) {
        let p = &ev.params;
        match ev.method.as_str() {
            // The target info is read from the JSON: one reader for these
            // events and `Target.getTargets` (see `apply_info`).
            EventTargetCreated::IDENTIFIER
            | EventTargetInfoChanged::IDENTIFIER
            | EventAttachedToTarget::IDENTIFIER => {
                let Some(info) = p.get("targetInfo") else {
                    return;
                };
                if ev.is::<EventAttachedToTarget>()
                    && (self.attach_worker(ev, info) || self.attach_frame(ev, info))
                {
                    return;
                }
                let known = s(info, "targetId")
                    .is_some_and(|id| self.lock().targets.contains_key(id.as_str()));
                let Some(id) = self.apply_info(info) else {
                    return;
                };
                if !known && s(info, "type").as_deref() == Some("page") {
                    self.signal(Signal::Created { raw: id.clone() });
                }
                if let Some(session) = s(p, "sessionId") {
                    self.set_session(&id, &session);
                }
            }
            EventTargetDestroyed::IDENTIFIER => {
                if let Some(gone) = ev.parse::<EventTargetDestroyed>() {
                    let id: String = gone.target_id.into();
                    self.update(&id, |t| {
                        t.closed = true;
                        t.session = None;
                    });
                    self.signal(Signal::Destroyed { raw: id });
                }
            }
            EventDetachedFromTarget::IDENTIFIER => {
                let Some(detached) = ev.parse::<EventDetachedFromTarget>() else {
                    return;
                };
                let session: String = detached.session_id.into();
                let child = self.lock().child_sessions.remove(session.as_str());
                if let Some(raw) = child {
                    // The frame's own removal is reported by its parent
                    // (`Page.frameDetached`, which comes first); here it
                    // may just be moving back into its parent's process.
                    // What its session rendered below it is gone.
                    let mut gone = Vec::new();
                    self.update(&raw, |t| {
                        if let Some(frame) = t.frame_of_session(&session) {
                            gone = t.remove_descendants(&frame);
                            if let Some(f) = t.frames.get_mut(&frame) {
                                f.session = None;
                            }
                        }
                    });
                    self.frames_gone(&raw, gone);
                    return;
                }
                let raw = self.lock().by_session.remove(session.as_str());
                tracing::debug!(?raw, session = %session, "session detached");
                if let Some(raw) = raw {
                    self.update(&raw, |t| {
                        if t.session.as_deref() == Some(session.as_str()) {
                            t.session = None;
                            t.crashed = false;
                        }
                    });
                }
            }
            _ => self.on_session_event(ev),
        }
    }

    /// A child other than a frame (a worker of any kind, a worklet)
    /// auto-attached under one of our sessions: never ours to drive, so it
    /// is only let run and detached.
    pub(super) fn attach_worker(&self, ev: &CdpEvent, info: &Value) -> bool {
        let kind = s(info, "type").unwrap_or_default();
        if matches!(kind.as_str(), "iframe" | "page" | "tab" | "browser") || ev.session_id.is_none()
        {
            return false;
        }
        if let (Some(parent), Some(session)) = (ev.session_id.clone(), s(&ev.params, "sessionId")) {
            self.signal(Signal::Worker { parent, session });
        }
        true
    }

    /// An out-of-process frame attached under one of our page sessions
    /// (auto-attach): remember its session on the page's frame.
    pub(super) fn attach_frame(&self, ev: &CdpEvent, info: &Value) -> bool {
        if s(info, "type").as_deref() != Some("iframe") {
            return false;
        }
        let (Some(parent), Some(child), Some(frame)) = (
            ev.session_id.as_deref(),
            s(&ev.params, "sessionId"),
            s(info, "targetId"),
        ) else {
            return false;
        };
        let page = {
            let inner = self.lock();
            inner
                .by_session
                .get(parent)
                .or_else(|| inner.child_sessions.get(parent))
                .cloned()
        };
        let Some(raw) = page else { return false };
        self.lock()
            .child_sessions
            .insert(SessionId::new(child.as_str()), raw.clone());
        self.update(&raw, |t| {
            let f = t.frames.entry(frame).or_insert_with(FrameState::default);
            f.session = Some(child.clone());
            if let Some(url) = url_of(info, "url").filter(|u| !u.is_empty()) {
                f.url = url;
            }
        });
        self.signal(Signal::FrameSession {
            raw: raw.into_string(),
            session: child,
        });
        true
    }

    /// Record a child frame (from an event or a frame tree).
    pub fn frame_seen(&self, raw: &str, frame: &Value) {
        let (Some(id), Some(parent)) = (s(frame, "id"), s(frame, "parentId")) else {
            return;
        };
        let loader = s(frame, "loaderId");
        let mut gone = Vec::new();
        self.update(raw, |t| {
            let known = t.frames.get(&id).map(|f| f.loader.clone());
            if matches!(&known, Some(Some(old)) if loader.as_ref() != Some(old)) {
                // A new document in the frame has none of the old frames.
                gone = t.remove_descendants(&id);
            }
            let f = t.frames.entry(id).or_insert_with(FrameState::default);
            f.parent = Some(parent);
            f.url = url_of(frame, "url").unwrap_or_default();
            f.name = s(frame, "name").unwrap_or_default();
            f.loader = loader;
        });
        self.frames_gone(raw, gone);
    }

    /// Forget the sessions of removed frames and report each one.
    pub(super) fn frames_gone(&self, raw: &str, gone: Vec<(String, FrameState)>) {
        if !gone.is_empty() {
            self.update(raw, |t| {
                if t.gone_frames.len() > MAX_GONE_FRAMES {
                    t.gone_frames.clear();
                }
                t.gone_frames.extend(gone.iter().map(|(id, _)| id.clone()));
            });
        }
        for (frame, state) in gone {
            if let Some(session) = state.session {
                self.lock().child_sessions.remove(session.as_str());
            }
            self.signal(Signal::FrameDetached {
                raw: raw.to_string(),
                frame,
            });
        }
    }

    /// Whether `session` is still the live session of an out-of-process
    /// frame of `raw`.
    pub fn child_session_live(&self, raw: &str, session: &str) -> bool {
        self.lock()
            .child_sessions
            .get(session)
            .map(RawTargetId::as_str)
            == Some(raw)
    }

    /// Record the child frames of a `Page.getFrameTree` result that are
    /// not known yet. A snapshot can be older than events already applied,
    /// so it never changes a known frame or revives a removed one.
    pub fn frame_tree_seen(&self, raw: &str, tree: &Value) {
        let mut stack = vec![tree];
        while let Some(node) = stack.pop() {
            let frame = &node["frame"];
            let Some(id) = s(frame, "id") else { continue };
            let known = self.with(raw, |t| {
                (t.frames.contains_key(&id), t.gone_frames.contains(&id))
            });
            match known {
                Some((false, false)) => self.frame_seen(raw, frame),
                // Known only from its session's attach: fill in the rest.
                Some((true, _)) => self.update(raw, |t| {
                    if let Some(f) = t.frames.get_mut(&id).filter(|f| f.parent.is_none()) {
                        f.parent = s(frame, "parentId");
                        f.url = url_of(frame, "url").unwrap_or_default();
                        f.name = s(frame, "name").unwrap_or_default();
                        f.loader = s(frame, "loaderId");
                    }
                }),
                _ => {}
            }
            stack.extend(node["childFrames"].as_array().into_iter().flatten());
        }
    }
}
