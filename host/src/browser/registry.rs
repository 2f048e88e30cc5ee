//! What the broker knows about each physical target, kept current by the
//! CDP event sink (which runs before later responses are delivered).

use crate::cdp::CdpEvent;
use serde_json::Value;
use std::collections::HashMap;
use std::sync::{Arc, Mutex, MutexGuard};
use tokio::sync::watch;

mod console_events;
mod page_events;
mod page_tools;

pub use page_tools::{
    DeclaredTool, Gone as PageToolGone, InvokePath as PageToolPath, Support as PageToolSupport,
};

/// Live state of one physical target.
#[derive(Debug)]
pub struct TargetState {
    pub raw_id: String,
    pub kind: String,
    pub url: String,
    pub title: String,
    pub opener: Option<String>,
    pub closed: bool,
    /// The renderer crashed (reported on the broker's session, so only
    /// while attached); cleared when a new document commits (a
    /// navigation or reload recovers the tab) or the session detaches.
    pub crashed: bool,
    /// Flat session while attached.
    pub session: Option<String>,
    /// Increments on every attach; observations record it.
    pub session_serial: u64,
    pub main_frame: Option<String>,
    /// Increments whenever the main frame commits a new document.
    pub doc_gen: u64,
    /// Increments whenever the main frame moves within its document (a
    /// fragment, `pushState`, history between such entries).
    pub same_doc_navs: u64,
    pub loader: Option<String>,
    /// The loader whose load event (or stop) was seen last.
    pub loaded_loader: Option<String>,
    /// The last few loaders seen loaded, newest last: a navigation's own
    /// load still counts when the page replaced its document at once
    /// (a reload in the load handler) before the waiter looked.
    pub recent_loaded: std::collections::VecDeque<String>,
    /// A main-frame navigation was requested or is loading.
    pub loading: bool,
    /// The main-frame document response last seen: (loader, HTTP status).
    pub doc_response: Option<(String, u16)>,
    pub dialog_open: bool,
    /// A `beforeunload` dialog was accepted and the navigation it held
    /// has not committed (or stopped) yet: the document it leaves is
    /// still the page's. A navigation sent meanwhile can be left waiting
    /// forever by Chromium for that leaving document's `beforeunload`.
    pub leaving: bool,
    /// Where this target's downloads are staged, when capture is set up.
    pub download_dir: Option<std::path::PathBuf>,
    /// The pending JavaScript dialog, if any.
    pub dialog: Option<PendingDialog>,
    /// Fetch interception is enabled on the current session.
    pub intercepting: bool,
    /// An emulation override (size, media) may be in place.
    pub emulated: bool,
    /// The tools the page's frames declare (WebMCP).
    pub page_tools: page_tools::PageTools,
    /// Child frames (not the main frame) by raw frame ID.
    pub frames: HashMap<String, FrameState>,
    /// Recently removed frames, which a late snapshot must not revive.
    gone_frames: std::collections::HashSet<String>,
    /// Bumped on every change above; waiters watch it.
    changed: watch::Sender<u64>,
    /// Serialises commands on this target (its command lane).
    pub lane: Arc<tokio::sync::Mutex<()>>,
}

impl TargetState {
    fn new(raw_id: &str) -> Self {
        Self {
            raw_id: raw_id.to_string(),
            kind: String::new(),
            url: String::new(),
            title: String::new(),
            opener: None,
            closed: false,
            crashed: false,
            session: None,
            session_serial: 0,
            main_frame: None,
            doc_gen: 0,
            same_doc_navs: 0,
            loader: None,
            loaded_loader: None,
            recent_loaded: Default::default(),
            loading: false,
            doc_response: None,
            dialog_open: false,
            leaving: false,
            download_dir: None,
            dialog: None,
            intercepting: false,
            emulated: false,
            page_tools: Default::default(),
            frames: HashMap::new(),
            gone_frames: Default::default(),
            changed: watch::channel(0).0,
            lane: Arc::new(tokio::sync::Mutex::new(())),
        }
    }

    fn bump(&self) {
        self.changed.send_modify(|v| *v += 1);
    }

    /// Whether agents may see and control this target.
    pub fn eligible(&self) -> bool {
        let internal = [
            "devtools://",
            "chrome://",
            "chrome-extension://",
            "chrome-untrusted://",
            "edge://",
        ];
        !self.closed && self.kind == "page" && !internal.iter().any(|p| self.url.starts_with(p))
    }
}

/// Removed frame IDs remembered per target at most.
const MAX_GONE_FRAMES: usize = 1024;

/// A child frame of a page target.
#[derive(Debug, Clone, Default)]
pub struct FrameState {
    pub parent: Option<String>,
    pub url: String,
    pub name: String,
    /// Changes when the frame commits a new document.
    pub loader: Option<String>,
    /// The flat session of an out-of-process frame (its own CDP target);
    /// `None` for a frame rendered with its parent.
    pub session: Option<String>,
}

impl TargetState {
    /// The current loader has loaded (its load event, or its stop).
    pub fn mark_loaded(&mut self) {
        self.loaded_loader = self.loader.clone();
        if let Some(l) = &self.loader {
            if !self.recent_loaded.contains(l) {
                if self.recent_loaded.len() >= 8 {
                    self.recent_loaded.pop_front();
                }
                self.recent_loaded.push_back(l.clone());
            }
        }
    }

    /// The CDP session that renders `frame` (`None` = the main frame):
    /// the nearest out-of-process ancestor-or-self, else the page's.
    pub fn session_for(&self, frame: Option<&str>) -> Option<String> {
        let main = self.main_frame.as_deref();
        let mut cur = frame.filter(|f| Some(*f) != main).map(str::to_string);
        for _ in 0..64 {
            let Some(f) = cur else { break };
            let state = self.frames.get(&f)?;
            if let Some(s) = &state.session {
                return Some(s.clone());
            }
            cur = state
                .parent
                .clone()
                .filter(|p| Some(p) != self.main_frame.as_ref());
        }
        self.session.clone()
    }

    /// The out-of-process frame whose session is `session`, if any.
    pub fn frame_of_session(&self, session: &str) -> Option<String> {
        self.frames
            .iter()
            .find(|(_, f)| f.session.as_deref() == Some(session))
            .map(|(id, _)| id.clone())
    }

    /// Remove `frame` and its descendants; returns them.
    fn remove_frame(&mut self, frame: &str) -> Vec<(String, FrameState)> {
        let mut removed = self.remove_descendants(frame);
        if let Some(state) = self.frames.remove(frame) {
            removed.push((frame.to_string(), state));
        }
        removed
    }

    /// Remove the descendants of `frame`; returns them.
    fn remove_descendants(&mut self, frame: &str) -> Vec<(String, FrameState)> {
        let mut removed = Vec::new();
        let mut parents = vec![frame.to_string()];
        while let Some(p) = parents.pop() {
            let children: Vec<String> = self
                .frames
                .iter()
                .filter(|(_, s)| s.parent.as_deref() == Some(p.as_str()))
                .map(|(id, _)| id.clone())
                .collect();
            for c in children {
                if let Some(state) = self.frames.remove(&c) {
                    removed.push((c.clone(), state));
                    parents.push(c);
                }
            }
        }
        removed
    }
}

/// Changes the broker turns into workspace events.
#[derive(Debug)]
pub enum Signal {
    /// A page target's main frame committed a new document.
    /// A new main document committed; `status` is its HTTP status when
    /// the response was seen.
    Navigated {
        raw: String,
        url: String,
        status: Option<u16>,
    },
    /// A new page target appeared.
    Created { raw: String },
    /// A target went away.
    Destroyed { raw: String },
    /// A download passed its bound while it transferred: cancel it and
    /// remove what was staged.
    DownloadOversized {
        raw: String,
        guid: String,
        filename: String,
        dir: Option<std::path::PathBuf>,
        bytes: u64,
        /// `per-item` or `staging`.
        bound: &'static str,
        limit: u64,
    },
    /// A download of a controlled target ended.
    Download {
        raw: String,
        filename: String,
        /// The staging directory it was saved in.
        dir: std::path::PathBuf,
        /// `completed`, `canceled` or `interrupted`.
        state: String,
    },
    /// A dialog opened (`Some` id) or closed (`None`).
    Dialog {
        raw: String,
        opened: Option<(String, String)>,
    },
    /// A console message, uncaught exception or browser log entry of an
    /// attached page.
    Console {
        raw: String,
        message: crate::console::Message,
    },
    /// Network activity of an attached target (journal and interception).
    Net {
        raw: String,
        session: String,
        event: NetEvent,
    },
    /// Tools declared by the page's frames appeared or went away (refs,
    /// with the annotations each declares, and whether this browser
    /// reports annotations at all).
    PageTools {
        raw: String,
        added: Vec<(String, Value)>,
        removed: Vec<(String, Value)>,
        annotations_reported: bool,
    },
    /// A child frame went away (removed, or its parent navigated).
    FrameDetached { raw: String, frame: String },
    /// An out-of-process frame of `raw` got its own session, which still
    /// needs its domains enabled.
    FrameSession { raw: String, session: String },
    /// A worker (or worklet) was auto-attached under one of our sessions,
    /// maybe paused waiting for a debugger: it must be let run and detached.
    Worker { parent: String, session: String },
    /// The browser connection closed.
    Disconnected {
        /// The connection's download staging directories: once the
        /// signals before this one are handled, nothing in them can
        /// still become an artifact.
        staging: Vec<std::path::PathBuf>,
    },
}

/// The network events the broker acts on.
#[derive(Debug)]
pub enum NetEvent {
    Request {
        id: String,
        url: String,
        method: String,
        kind: String,
        /// The status of the hop this request follows: a redirect keeps
        /// the request's ID, and its `requestWillBeSent` carries the
        /// previous hop's response (`redirectResponse`) and nothing else.
        redirected_from: Option<u16>,
    },
    Response {
        id: String,
        status: u16,
    },
    Finished {
        id: String,
    },
    Failed {
        id: String,
        blocked: bool,
    },
    /// `Fetch.requestPaused` (request stage).
    Paused {
        fetch_id: String,
        network_id: Option<String>,
        url: String,
        headers: Value,
    },
    /// `Fetch.authRequired`.
    Auth {
        fetch_id: String,
        url: String,
    },
}

/// A JavaScript dialog waiting for an answer.
#[derive(Debug, Clone)]
pub struct PendingDialog {
    pub id: String,
    pub kind: String,
    pub message: String,
    pub default_prompt: Option<String>,
    pub opened_at_ms: u64,
    pub opened: std::time::Instant,
    /// The unhandled-dialog watchdog already fired for it.
    pub watchdog_sent: bool,
    /// The session it opened on (an out-of-process frame's, or the page's).
    pub session: String,
}

/// Every target of one browser connection.
#[derive(Default)]
pub struct Registry {
    inner: Mutex<Inner>,
    /// How the browser calls page tools (`page_tools.rs`).
    page_tool_path: Mutex<page_tools::InvokePath>,
    /// Whether pages of this browser have the WebMCP API (`None`: not
    /// read yet).
    page_tool_api: Mutex<Option<bool>>,
    signals: Option<tokio::sync::mpsc::UnboundedSender<Signal>>,
    /// Observed elements described by the page itself, and by Chromium's
    /// accessibility tree, since the connection began; those whose node
    /// an earlier observation had already identified; and those whose
    /// node ID came in the page walk's own answer.
    described: [std::sync::atomic::AtomicU64; 4],
    /// Refs resolved through the observation's held object, and by
    /// backend node ID, since the connection began.
    refs_resolved: [std::sync::atomic::AtomicU64; 2],
    /// Page walks sent as source (making the walk agent), and calls of
    /// an agent made before, since the connection began.
    walks: [std::sync::atomic::AtomicU64; 2],
    /// Per [`Proof`](super::proof::Proof): reads sent with an input
    /// and taken, those made again once the input was answered, and
    /// those sent again before that (`proved_read.rs`), since the
    /// connection began.
    readbacks: [[std::sync::atomic::AtomicU64; 3]; 3],
}

#[derive(Default)]
struct Inner {
    targets: HashMap<String, TargetState>,
    by_session: HashMap<String, String>,
    /// Sessions of out-of-process frames -> their page target.
    child_sessions: HashMap<String, String>,
    /// Downloads in flight, by GUID. Private.
    downloads: HashMap<String, InFlight>,
    /// Largest download, and most bytes staged at once (0: no bound).
    download_bounds: (u64, u64),
}

/// A download the browser is writing to staging.
pub(crate) struct InFlight {
    pub raw: String,
    pub filename: String,
    /// Bytes received so far (the larger of received and announced total).
    pub bytes: u64,
}

fn s(v: &Value, key: &str) -> Option<String> {
    v.get(key).and_then(Value::as_str).map(str::to_string)
}

/// A URL field, with any credentials in it redacted.
fn url_of(v: &Value, key: &str) -> Option<String> {
    s(v, key).map(|u| crate::redact::url(&u))
}

impl Registry {
    /// Bound downloads while they transfer: none may pass `per_item`
    /// bytes, and all in flight together may not pass `staging`.
    pub fn set_download_bounds(&self, per_item: u64, staging: u64) {
        self.lock().download_bounds = (per_item, staging);
    }

    /// A registry that reports changes on `signals`.
    pub fn with_signals(signals: tokio::sync::mpsc::UnboundedSender<Signal>) -> Self {
        Self {
            signals: Some(signals),
            ..Self::default()
        }
    }

    /// Count elements an observation described: `by_page` by the page's
    /// own markup, `by_accessibility` through Chromium's tree.
    /// `known` of them were identified by an earlier observation, and
    /// `with_walk` got their node ID in the walk's own answer.
    pub fn count_described(&self, by_page: u64, by_accessibility: u64, known: u64, with_walk: u64) {
        use std::sync::atomic::Ordering::Relaxed;
        for (counter, n) in self
            .described
            .iter()
            .zip([by_page, by_accessibility, known, with_walk])
        {
            counter.fetch_add(n, Relaxed);
        }
    }

    /// (by the page, by accessibility, already identified, node ID with
    /// the walk) since the connection began.
    pub fn described(&self) -> [u64; 4] {
        use std::sync::atomic::Ordering::Relaxed;
        self.described.each_ref().map(|c| c.load(Relaxed))
    }

    /// Count a ref resolved through a held object or by backend node ID.
    pub fn count_ref_resolved(&self, held: bool) {
        use std::sync::atomic::Ordering::Relaxed;
        self.refs_resolved[usize::from(!held)].fetch_add(1, Relaxed);
    }

    /// (through held objects, by backend node) since the connection began.
    pub fn refs_resolved(&self) -> (u64, u64) {
        use std::sync::atomic::Ordering::Relaxed;
        (
            self.refs_resolved[0].load(Relaxed),
            self.refs_resolved[1].load(Relaxed),
        )
    }

    /// Whether the target's renderer crashed and no navigation has
    /// recovered it since.
    pub fn crashed(&self, raw_id: &str) -> bool {
        self.with(raw_id, |t| t.crashed).unwrap_or(false)
    }

    /// Count a page walk: sent as source, or a call of the walk agent.
    pub fn count_walk(&self, by_agent: bool) {
        use std::sync::atomic::Ordering::Relaxed;
        self.walks[usize::from(by_agent)].fetch_add(1, Relaxed);
    }

    /// (sent as source, by agent) since the connection began.
    pub fn walks(&self) -> (u64, u64) {
        use std::sync::atomic::Ordering::Relaxed;
        (self.walks[0].load(Relaxed), self.walks[1].load(Relaxed))
    }

    /// A read sent with an input (`proved_read.rs`): taken, or made again.
    pub fn count_readback(&self, proof: super::proof::Proof, taken: bool) {
        use std::sync::atomic::Ordering::Relaxed;
        self.readbacks[proof as usize][usize::from(!taken)].fetch_add(1, Relaxed);
    }

    /// Reads sent again with an input still unanswered, the one before
    /// having come back too early (`proved_read.rs`).
    pub fn count_early_retries(&self, proof: super::proof::Proof, retried: u64) {
        use std::sync::atomic::Ordering::Relaxed;
        self.readbacks[proof as usize][2].fetch_add(retried, Relaxed);
    }

    /// (taken from a read sent with the input, read again once it was
    /// answered, sent again before that) since the connection began.
    pub fn readback_counts(&self, proof: super::proof::Proof) -> [u64; 3] {
        use std::sync::atomic::Ordering::Relaxed;
        self.readbacks[proof as usize]
            .each_ref()
            .map(|c| c.load(Relaxed))
    }

    fn signal(&self, s: Signal) {
        if let Some(tx) = &self.signals {
            let _ = tx.send(s);
        }
    }

    fn lock(&self) -> MutexGuard<'_, Inner> {
        self.inner.lock().unwrap_or_else(|p| p.into_inner())
    }

    /// Run `f` on the target's state.
    pub fn with<R>(&self, raw_id: &str, f: impl FnOnce(&TargetState) -> R) -> Option<R> {
        self.lock().targets.get(raw_id).map(f)
    }

    /// Run `f` on the target's state, mutably, and wake waiters.
    pub fn update(&self, raw_id: &str, f: impl FnOnce(&mut TargetState)) {
        let mut inner = self.lock();
        let t = inner
            .targets
            .entry(raw_id.to_string())
            .or_insert_with(|| TargetState::new(raw_id));
        f(t);
        t.bump();
    }

    /// Record the session of a target we attached to.
    pub fn set_session(&self, raw_id: &str, session: &str) {
        let mut inner = self.lock();
        inner
            .by_session
            .insert(session.to_string(), raw_id.to_string());
        let t = inner
            .targets
            .entry(raw_id.to_string())
            .or_insert_with(|| TargetState::new(raw_id));
        if t.session.as_deref() != Some(session) {
            tracing::debug!(target = raw_id, old = ?t.session, new = session, "page session set");
            t.session = Some(session.to_string());
            t.session_serial += 1;
            t.intercepting = false;
            t.page_tools.session_replaced();
        }
        t.bump();
    }

    /// A receiver that changes whenever the target's state does.
    pub fn watch(&self, raw_id: &str) -> Option<watch::Receiver<u64>> {
        self.lock()
            .targets
            .get(raw_id)
            .map(|t| t.changed.subscribe())
    }

    /// Raw IDs of eligible targets, in a stable order.
    pub fn eligible_ids(&self) -> Vec<String> {
        let mut ids: Vec<String> = self
            .lock()
            .targets
            .values()
            .filter(|t| t.eligible())
            .map(|t| t.raw_id.clone())
            .collect();
        ids.sort();
        ids
    }

    /// Open eligible targets, and the targets the broker holds a session
    /// on (what a leak check counts).
    pub fn counts(&self) -> (usize, usize) {
        let inner = self.lock();
        let open = inner.targets.values().filter(|t| t.eligible()).count();
        let attached = inner
            .targets
            .values()
            .filter(|t| !t.closed && t.session.is_some())
            .count();
        (open, attached)
    }

    /// Dialogs pending longer than `after` whose watchdog has not fired;
    /// marks them fired.
    pub fn overdue_dialogs(&self, after: std::time::Duration) -> Vec<(String, String)> {
        let mut out = Vec::new();
        for t in self.lock().targets.values_mut() {
            if let Some(d) = t
                .dialog
                .as_mut()
                .filter(|d| !d.watchdog_sent && d.opened.elapsed() >= after)
            {
                d.watchdog_sent = true;
                out.push((t.raw_id.clone(), d.id.clone()));
            }
        }
        out
    }

    /// Mark every target closed (the connection is gone).
    pub fn close_all(&self) {
        let mut staging = Vec::new();
        {
            let mut inner = self.lock();
            for t in inner.targets.values_mut() {
                t.closed = true;
                t.session = None;
                t.bump();
                staging.extend(t.download_dir.clone());
            }
            inner.downloads.clear();
        }
        self.signal(Signal::Disconnected { staging });
    }

    /// Apply a `TargetInfo` (from an event or `Target.getTargets`);
    /// returns the target ID.
    pub fn apply_info(&self, info: &Value) -> Option<String> {
        let id = s(info, "targetId")?;
        self.update(&id, |t| {
            t.kind = s(info, "type").unwrap_or_default();
            t.url = url_of(info, "url").unwrap_or_default();
            t.title = s(info, "title").unwrap_or_default();
            if t.opener.is_none() {
                t.opener = s(info, "openerId");
            }
        });
        Some(id)
    }

    /// Apply one CDP event.
    pub fn on_event(&self, ev: &CdpEvent) {
        let p = &ev.params;
        match ev.method.as_str() {
            "Target.targetCreated" | "Target.targetInfoChanged" | "Target.attachedToTarget" => {
                let Some(info) = p.get("targetInfo") else {
                    return;
                };
                if ev.method == "Target.attachedToTarget"
                    && (self.attach_worker(ev, info) || self.attach_frame(ev, info))
                {
                    return;
                }
                let known =
                    s(info, "targetId").is_some_and(|id| self.lock().targets.contains_key(&id));
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
            "Target.targetDestroyed" => {
                if let Some(id) = s(p, "targetId") {
                    self.update(&id, |t| {
                        t.closed = true;
                        t.session = None;
                    });
                    self.signal(Signal::Destroyed { raw: id });
                }
            }
            "Target.detachedFromTarget" => {
                let Some(session) = s(p, "sessionId") else {
                    return;
                };
                let child = self.lock().child_sessions.remove(&session);
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
                let raw = self.lock().by_session.remove(&session);
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
    fn attach_worker(&self, ev: &CdpEvent, info: &Value) -> bool {
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
    fn attach_frame(&self, ev: &CdpEvent, info: &Value) -> bool {
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
            .insert(child.clone(), raw.clone());
        self.update(&raw, |t| {
            let f = t.frames.entry(frame).or_insert_with(FrameState::default);
            f.session = Some(child.clone());
            if let Some(url) = url_of(info, "url").filter(|u| !u.is_empty()) {
                f.url = url;
            }
        });
        self.signal(Signal::FrameSession {
            raw,
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
    fn frames_gone(&self, raw: &str, gone: Vec<(String, FrameState)>) {
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
                self.lock().child_sessions.remove(&session);
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
        self.lock().child_sessions.get(session).map(String::as_str) == Some(raw)
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

#[cfg(test)]
mod crash_tests {
    use super::*;
    use serde_json::json;

    fn ev(method: &str, params: Value, session: Option<&str>) -> CdpEvent {
        CdpEvent {
            method: method.into(),
            params,
            session_id: session.map(str::to_string),
        }
    }

    fn navigated(loader: &str) -> CdpEvent {
        let frame = json!({"frame": {"id": "t1", "loaderId": loader, "url": "http://127.0.0.1/"}});
        ev("Page.frameNavigated", frame, Some("s1"))
    }

    #[test]
    fn a_crash_on_the_session_marks_the_tab_until_a_new_document_or_a_detach() {
        let r = Registry::default();
        let info = json!({"targetId": "t1", "type": "page", "url": "about:blank", "title": ""});
        r.on_event(&ev(
            "Target.attachedToTarget",
            json!({"sessionId": "s1", "targetInfo": info}),
            None,
        ));
        r.on_event(&navigated("l1"));
        assert!(!r.crashed("t1"));
        r.on_event(&ev("Inspector.targetCrashed", json!({}), Some("s1")));
        assert!(r.crashed("t1"));
        // The same document reported again does not recover it.
        r.on_event(&navigated("l1"));
        assert!(r.crashed("t1"));
        r.on_event(&navigated("l2"));
        assert!(!r.crashed("t1"));
        r.on_event(&ev("Inspector.targetCrashed", json!({}), Some("s1")));
        r.on_event(&ev(
            "Target.detachedFromTarget",
            json!({"sessionId": "s1"}),
            None,
        ));
        assert!(!r.crashed("t1"));
        // A crash on a session the broker does not hold marks nothing.
        r.on_event(&ev("Inspector.targetCrashed", json!({}), Some("other")));
        assert!(!r.crashed("t1") && !r.crashed("other"));
    }
}
