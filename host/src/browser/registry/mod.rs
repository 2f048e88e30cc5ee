//! What the broker knows about each physical target, kept current by the
//! CDP event sink (which runs before later responses are delivered).

use crate::cdp::CdpEvent;
use crate::ids::{RawTargetId, SessionId};
use serde_json::Value;
use std::collections::HashMap;
use std::sync::{Arc, Mutex, MutexGuard};
use tokio::sync::watch;

mod browser_fetch;
mod console_events;
mod in_flight;
mod page_events;
pub use in_flight::RequestsInFlight;
#[cfg(test)]
mod crash_tests;
mod page_tools;
mod state;
mod target_events;

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
    /// `Runtime` and `Log` are enabled on the current session (the console
    /// journal; only for tabs of workspaces that use the console).
    pub console_on: bool,
    /// An emulation override (size, media) may be in place.
    pub emulated: bool,
    /// The broker's own Pilot tab (BR-7): never an agent's tab, never
    /// listed, announced or controlled.
    pub pilot: bool,
    /// The tools the page's frames declare (WebMCP).
    pub page_tools: page_tools::PageTools,
    /// Requests in flight (`registry/in_flight.rs`).
    pub requests: RequestsInFlight,
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
            console_on: false,
            emulated: false,
            pilot: false,
            page_tools: Default::default(),
            requests: Default::default(),
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
        !self.closed
            && !self.pilot
            && self.kind == "page"
            && !internal.iter().any(|p| self.url.starts_with(p))
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
        /// The URL it was fetched from.
        url: String,
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
        message: crate::store::console::Message,
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
    /// Answered once every signal sent before it has been handled.
    Flush(tokio::sync::oneshot::Sender<()>),
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
        /// Its resource type (`Document`, `Image`, ...).
        resource_type: String,
        /// The frame that asked for it.
        frame_id: Option<String>,
        /// A redirect's next hop.
        redirect: bool,
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
    /// How the browser calls page tools (`page_tools/mod.rs`).
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
    /// those sent again before that (`observe/proved_read.rs`), since the
    /// connection began.
    readbacks: [[std::sync::atomic::AtomicU64; 3]; 3],
}

#[derive(Default)]
struct Inner {
    targets: HashMap<RawTargetId, TargetState>,
    /// Page sessions -> their target.
    by_session: HashMap<SessionId, RawTargetId>,
    /// Sessions of out-of-process frames -> their page target.
    child_sessions: HashMap<SessionId, RawTargetId>,
    /// Downloads in flight, by GUID. Private.
    downloads: HashMap<String, InFlight>,
    /// Largest download, and most bytes staged at once (0: no bound).
    download_bounds: (u64, u64),
}

/// A download the browser is writing to staging.
pub(crate) struct InFlight {
    pub raw: String,
    pub filename: String,
    /// The URL it is fetched from.
    pub url: String,
    /// Bytes received so far (the larger of received and announced total).
    pub bytes: u64,
}

fn s(v: &Value, key: &str) -> Option<String> {
    v.get(key).and_then(Value::as_str).map(str::to_string)
}

/// A URL field, with any credentials in it redacted.
fn url_of(v: &Value, key: &str) -> Option<String> {
    s(v, key).map(|u| crate::sanitize::redact::url(&u))
}
