//! Events of one page (or out-of-process frame) session: frames, the main
//! document's lifecycle, downloads, requests and dialogs.

use super::{s, url_of, FrameState, NetEvent, PendingDialog, Registry, Signal, TargetState};
use crate::cdp::{page_legacy, webmcp, CdpEvent};
use chromiumoxide::cdp::browser_protocol::inspector::EventTargetCrashed;
use chromiumoxide::cdp::browser_protocol::log::EventEntryAdded;
use chromiumoxide::cdp::browser_protocol::{fetch, network as net, page as pg};
use chromiumoxide::cdp::js_protocol::runtime::{EventConsoleApiCalled, EventExceptionThrown};
use serde_json::Value;

/// Events an out-of-process frame's session reports for the page: its
/// requests, its dialogs (which pause the page's work as well) and the
/// tools it declares. Method-name prefixes (event families), used only to
/// route: the events themselves are matched by type below.
const FRAME_LEVEL: [&str; 4] = [
    "Network.",
    "Fetch.",
    "Page.javascriptDialog",
    "WebMCP.tools",
];

impl Registry {
    /// Apply an event of a page or frame session.
    pub(super) fn on_session_event(&self, ev: &CdpEvent) {
        let Some(session) = ev.session_id.as_deref() else {
            self.browser_fetch_event(ev);
            return;
        };
        let Some((raw, child)) = self.session_owner(session) else {
            self.unowned_event(session, ev);
            return;
        };
        if ev.is::<EventTargetCrashed>() && !child {
            self.update(&raw, |t| t.crashed = true);
            return;
        }
        let frame_event = matches!(
            ev.method.as_str(),
            pg::EventFrameAttached::IDENTIFIER | pg::EventFrameDetached::IDENTIFIER
        ) || (ev.is::<pg::EventFrameNavigated>()
            && ev.params["frame"].get("parentId").is_some());
        if frame_event {
            self.on_frame_event(&raw, ev);
        } else if !child || FRAME_LEVEL.iter().any(|p| ev.method.starts_with(p)) {
            self.on_page_event(raw, session, ev);
        }
    }

    /// The target a session belongs to, and whether it is a frame's.
    fn session_owner(&self, session: &str) -> Option<(String, bool)> {
        let inner = self.lock();
        if let Some(raw) = inner.by_session.get(session) {
            return Some((raw.to_string(), false));
        }
        inner
            .child_sessions
            .get(session)
            .map(|raw| (raw.to_string(), true))
    }

    /// A paused request of a session we no longer track (a frame just
    /// removed) must not hang: it has no owner, so it is let through.
    fn unowned_event(&self, session: &str, ev: &CdpEvent) {
        // The Fetch domain's events (a family prefix, for routing).
        if !ev.method.starts_with("Fetch.") {
            return;
        }
        if let Some(event) = net_event(&ev.method, &ev.params) {
            self.signal(Signal::Net {
                raw: String::new(),
                session: session.to_string(),
                event,
            });
        }
    }

    fn on_frame_event(&self, raw: &str, ev: &CdpEvent) {
        let p = &ev.params;
        match ev.method.as_str() {
            pg::EventFrameAttached::IDENTIFIER => {
                let (Some(id), Some(parent)) = (s(p, "frameId"), s(p, "parentFrameId")) else {
                    return;
                };
                self.update(raw, |t| {
                    t.frames.entry(id).or_insert_with(|| FrameState {
                        parent: Some(parent),
                        ..FrameState::default()
                    });
                });
            }
            pg::EventFrameNavigated::IDENTIFIER => self.frame_seen(raw, &p["frame"]),
            pg::EventFrameDetached::IDENTIFIER => {
                // `swap`: the frame moves to another process and lives on.
                if s(p, "reason").as_deref() == Some("swap") {
                    return;
                }
                let Some(id) = s(p, "frameId") else { return };
                let mut removed = Vec::new();
                self.update(raw, |t| removed = t.remove_frame(&id));
                self.frames_gone(raw, removed);
            }
            _ => {}
        }
    }

    fn on_page_event(&self, raw: String, session: &str, ev: &CdpEvent) {
        self.track_request(&raw, ev);
        let p = &ev.params;
        let is_main =
            |t: &TargetState, frame: Option<String>| frame.is_some() && frame == t.main_frame;
        match ev.method.as_str() {
            pg::EventFrameNavigated::IDENTIFIER => self.main_frame_navigated(raw, p),
            pg::EventNavigatedWithinDocument::IDENTIFIER => self.update(&raw, |t| {
                if is_main(t, s(p, "frameId")) {
                    t.url = url_of(p, "url").unwrap_or_default();
                    t.same_doc_navs += 1;
                }
            }),
            pg::EventFrameRequestedNavigation::IDENTIFIER
            | pg::EventFrameStartedLoading::IDENTIFIER => self.update(&raw, |t| {
                if is_main(t, s(p, "frameId")) {
                    t.loading = true;
                }
            }),
            pg::EventFrameStoppedLoading::IDENTIFIER => self.update(&raw, |t| {
                if is_main(t, s(p, "frameId")) {
                    t.loading = false;
                    t.leaving = false;
                    t.mark_loaded();
                }
            }),
            pg::EventLoadEventFired::IDENTIFIER => self.update(&raw, |t| {
                t.loading = false;
                t.mark_loaded();
            }),
            page_legacy::EventDownloadWillBegin::IDENTIFIER => self.download_began(raw, p),
            page_legacy::EventDownloadProgress::IDENTIFIER => self.download_progress(&raw, p),
            net::EventResponseReceived::IDENTIFIER => self.response_received(raw, session, ev),
            pg::EventJavascriptDialogOpening::IDENTIFIER => self.dialog_opening(raw, session, p),
            webmcp::EventToolsAdded::IDENTIFIER => self.page_tools_added(raw, session, p),
            webmcp::EventToolsRemoved::IDENTIFIER => self.page_tools_removed(raw, p),
            pg::EventJavascriptDialogClosed::IDENTIFIER => self.dialog_closed(raw, p),
            method @ (EventConsoleApiCalled::IDENTIFIER
            | EventExceptionThrown::IDENTIFIER
            | EventEntryAdded::IDENTIFIER) => {
                if let Some(message) = super::console_events::console_message(method, p) {
                    self.signal(Signal::Console { raw, message });
                }
            }
            method => {
                if let Some(event) = net_event(method, p) {
                    let session = session.to_string();
                    self.signal(Signal::Net {
                        raw,
                        session,
                        event,
                    });
                }
            }
        }
    }

    /// A response: the main document's status (for its navigation
    /// event), and the network journal's event.
    fn response_received(&self, raw: String, session: &str, ev: &CdpEvent) {
        let p = &ev.params;
        let is_main =
            |t: &TargetState, frame: Option<String>| frame.is_some() && frame == t.main_frame;
        // The main document's status, for its navigation event.
        if p["type"] == "Document" {
            let status = p["response"]["status"]
                .as_u64()
                .and_then(|s| u16::try_from(s).ok());
            if let (Some(loader), Some(status)) = (s(p, "loaderId"), status) {
                self.update(&raw, |t| {
                    if is_main(t, s(p, "frameId")) {
                        t.doc_response = Some((loader, status));
                    }
                });
            }
        }
        if let Some(event) = net_event(&ev.method, p) {
            let session = session.to_string();
            self.signal(Signal::Net {
                raw,
                session,
                event,
            });
        }
    }

    /// A JavaScript dialog closed; an accepted leave-page dialog lets the
    /// navigation it held go on.
    fn dialog_closed(&self, raw: String, p: &Value) {
        self.update(&raw, |t| {
            let beforeunload = t.dialog.as_ref().is_some_and(|d| d.kind == "beforeunload");
            t.leaving = beforeunload && p["result"].as_bool() == Some(true);
            t.dialog_open = false;
            t.dialog = None;
        });
        self.signal(Signal::Dialog { raw, opened: None });
    }

    /// The main frame navigated: a new loader is a new document, which has
    /// none of the old one's frames.
    fn main_frame_navigated(&self, raw: String, p: &Value) {
        let Some(frame) = p.get("frame") else { return };
        let mut committed = false;
        let mut status = None;
        let mut gone = Vec::new();
        self.update(&raw, |t| {
            t.main_frame = s(frame, "id");
            let loader = s(frame, "loaderId");
            status = match (&t.doc_response, &loader) {
                (Some((seen, code)), Some(l)) if seen == l => Some(*code),
                _ => None,
            };
            if loader != t.loader {
                t.doc_gen += 1;
                t.leaving = false;
                t.crashed = false;
                t.loader = loader;
                committed = true;
                gone = t.frames.drain().collect();
            }
            t.url = url_of(frame, "url").unwrap_or_default();
        });
        self.frames_gone(&raw, gone);
        if committed {
            let url = url_of(frame, "url").unwrap_or_default();
            self.signal(Signal::Navigated { raw, url, status });
        }
    }

    /// The browser started saving a download of `raw` to staging.
    fn download_began(&self, raw: String, p: &Value) {
        if let Some(guid) = s(p, "guid") {
            let filename = s(p, "suggestedFilename").unwrap_or_else(|| "download".to_string());
            let item = super::InFlight {
                raw,
                filename,
                url: s(p, "url").unwrap_or_default(),
                bytes: 0,
            };
            self.lock().downloads.insert(guid, item);
        }
    }

    /// A download progressed (checked against its bounds) or finished
    /// (handed to the artifact store).
    fn download_progress(&self, raw: &str, p: &Value) {
        let state = s(p, "state").unwrap_or_default();
        let Some(guid) = s(p, "guid") else { return };
        if state == "inProgress" {
            return self.download_grew(raw, guid, p);
        }
        let entry = self.lock().downloads.remove(&guid);
        let dir = self.with(raw, |t| t.download_dir.clone()).flatten();
        if let (
            Some(super::InFlight {
                raw, filename, url, ..
            }),
            Some(dir),
        ) = (entry, dir)
        {
            self.signal(Signal::Download {
                raw,
                filename,
                url,
                dir,
                state,
            });
        }
    }

    /// A download's bytes so far: past the per-item bound, or with all
    /// downloads in flight past the staging bound, it is stopped.
    fn download_grew(&self, raw: &str, guid: String, p: &Value) {
        let bytes = ["receivedBytes", "totalBytes"]
            .iter()
            .filter_map(|k| p[*k].as_f64())
            .fold(0f64, f64::max) as u64;
        let over = {
            let mut inner = self.lock();
            let (per_item, staging) = inner.download_bounds;
            let Some(item) = inner.downloads.get_mut(&guid) else {
                return;
            };
            item.bytes = item.bytes.max(bytes);
            let staged: u64 = inner.downloads.values().map(|d| d.bytes).sum();
            let over = if per_item > 0 && bytes > per_item {
                Some(("per-item", per_item))
            } else if staging > 0 && staged > staging {
                Some(("staging", staging))
            } else {
                None
            };
            over.and_then(|o| inner.downloads.remove(&guid).map(|d| (d, o)))
        };
        let Some((item, (bound, limit))) = over else {
            return;
        };
        let dir = self.with(raw, |t| t.download_dir.clone()).flatten();
        self.signal(Signal::DownloadOversized {
            raw: item.raw,
            guid,
            filename: item.filename,
            dir,
            bytes,
            bound,
            limit,
        });
    }

    fn dialog_opening(&self, raw: String, session: &str, p: &Value) {
        let dialog = PendingDialog {
            id: crate::ids::new_id("dlg"),
            kind: s(p, "type").unwrap_or_else(|| "alert".into()),
            message: s(p, "message").unwrap_or_default(),
            default_prompt: s(p, "defaultPrompt"),
            opened_at_ms: std::time::SystemTime::now()
                .duration_since(std::time::UNIX_EPOCH)
                .map(|d| d.as_millis() as u64)
                .unwrap_or(0),
            opened: std::time::Instant::now(),
            watchdog_sent: false,
            session: session.to_string(),
        };
        let info = (dialog.id.clone(), dialog.kind.clone());
        self.update(&raw, |t| {
            t.dialog_open = true;
            t.dialog = Some(dialog);
        });
        self.signal(Signal::Dialog {
            raw,
            opened: Some(info),
        });
    }
}

/// The network event a CDP event carries, if any. Matched by type, read
/// from the JSON: these events carry enums (resource types, blocked
/// reasons, initiators) that grow with each Chromium, and a typed read
/// would drop the whole event on a value it does not know.
pub(super) fn net_event(method: &str, p: &Value) -> Option<NetEvent> {
    let id = || s(p, "requestId");
    Some(match method {
        net::EventRequestWillBeSent::IDENTIFIER => NetEvent::Request {
            id: id()?,
            url: url_of(&p["request"], "url")?,
            method: s(&p["request"], "method").unwrap_or_default(),
            kind: s(p, "type").unwrap_or_else(|| "Other".into()),
            redirected_from: p["redirectResponse"]["status"]
                .as_u64()
                .map(|s| u16::try_from(s).unwrap_or(0)),
        },
        net::EventResponseReceived::IDENTIFIER => NetEvent::Response {
            id: id()?,
            status: p["response"]["status"].as_u64().unwrap_or(0) as u16,
        },
        net::EventLoadingFinished::IDENTIFIER => NetEvent::Finished { id: id()? },
        net::EventLoadingFailed::IDENTIFIER => NetEvent::Failed {
            id: id()?,
            blocked: p.get("blockedReason").is_some()
                || s(p, "errorText").is_some_and(|e| e.contains("BLOCKED_BY_CLIENT")),
        },
        fetch::EventRequestPaused::IDENTIFIER => NetEvent::Paused {
            fetch_id: id()?,
            network_id: s(p, "networkId"),
            url: url_of(&p["request"], "url")?,
            headers: p["request"]["headers"].clone(),
            resource_type: s(p, "resourceType").unwrap_or_default(),
            frame_id: s(p, "frameId"),
            redirect: p.get("redirectedRequestId").is_some(),
        },
        fetch::EventAuthRequired::IDENTIFIER => NetEvent::Auth {
            fetch_id: id()?,
            url: url_of(&p["request"], "url")?,
        },
        _ => return None,
    })
}
