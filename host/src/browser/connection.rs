//! One browser connection: CDP transport, target registry, attach and tab
//! creation. Opening one never attaches to user tabs; a target is attached
//! only when a lease first acts on it.

use super::registry::{PageToolPath, Registry};
use crate::cdp::launch::LaunchedBrowser;
use crate::cdp::{page_legacy, webmcp, Cdp, CdpEvent};
use crate::error::BpResult;
use chromiumoxide::cdp::browser_protocol::browser::{
    GetWindowForTargetParams, SetContentsSizeParams,
};
use chromiumoxide::cdp::browser_protocol::fetch::{self, RequestPattern, RequestStage};
use chromiumoxide::cdp::browser_protocol::target::{
    AttachToTargetParams, CloseTargetParams, CreateTargetParams, DetachFromTargetParams,
    FilterEntry, GetTargetsParams, SessionId, SetAutoAttachParams, SetDiscoverTargetsParams,
    TargetFilter, TargetId,
};
use chromiumoxide::cdp::browser_protocol::{network, page};
use chromiumoxide::cdp::js_protocol::runtime::RunIfWaitingForDebuggerParams;
use serde_json::json;
use std::sync::Arc;

/// Auto-attach, flat, to out-of-process frames and to every other child
/// target (workers of all kinds, worklets). A new out-of-process frame
/// waits until its session is set up (see `enable_frame_session`), so
/// network rules cover its first request. A child that waits for the
/// debugger because auto-attach is on must never be left waiting (a
/// filtered-out worker could stay paused forever), so everything but pages
/// is attached, and what is not a frame is resumed and detached at once
/// (`release_worker`).
fn auto_attach() -> SetAutoAttachParams {
    let exclude = |kind: &str| FilterEntry {
        exclude: Some(true),
        r#type: Some(kind.to_string()),
    };
    let everything_else = FilterEntry {
        exclude: None,
        r#type: None,
    };
    SetAutoAttachParams {
        auto_attach: true,
        wait_for_debugger_on_start: true,
        flatten: Some(true),
        filter: Some(TargetFilter::new(vec![
            exclude("page"),
            exclude("tab"),
            exclude("browser"),
            everything_else,
        ])),
    }
}

/// `Network.enable` for the request journal: no post data is kept.
fn network_enable() -> network::EnableParams {
    network::EnableParams {
        max_post_data_size: Some(0),
        ..Default::default()
    }
}

/// How long `WebMCP.enable` may take before the browser is taken not to
/// serve the domain (it never answers then).
const PAGE_TOOLS_ENABLE_WAIT: std::time::Duration = std::time::Duration::from_secs(3);

/// Whether the browser's WebMCP domain can call tools itself, from its
/// answer to an invocation of no tool: a command it does not have is
/// refused as not found (JSON-RPC -32601); any other answer means it has
/// it.
async fn invoke_path(rx: crate::cdp::Pending) -> PageToolPath {
    match Cdp::reply_to::<webmcp::InvokeToolParams>(rx, PAGE_TOOLS_ENABLE_WAIT).await {
        Err(e) if e.message.contains("wasn't found") => PageToolPath::Testing,
        _ => PageToolPath::Domain,
    }
}

/// `Fetch.enable` for request interception (request stage, with auth).
pub fn fetch_enable() -> fetch::EnableParams {
    fetch::EnableParams {
        patterns: Some(vec![RequestPattern {
            url_pattern: Some("*".into()),
            resource_type: None,
            request_stage: Some(RequestStage::Request),
        }]),
        handle_auth_requests: Some(true),
    }
}

/// [`fetch_enable`] on the wire.
#[cfg(test)]
fn fetch_params() -> serde_json::Value {
    serde_json::to_value(fetch_enable()).unwrap_or_default()
}

/// The broker's live browser connection.
pub struct BrowserConn {
    pub cdp: Cdp,
    pub registry: Arc<Registry>,
    pub endpoint: String,
    pub generation: u64,
    pub launched: Option<LaunchedBrowser>,
    /// Closes the tabs the broker opened in a user's browser if the broker
    /// dies (none for a broker-launched browser, which dies with it).
    pub janitor: Option<crate::system::janitor::Janitor>,
    /// Root of the private download staging directories.
    downloads: std::path::PathBuf,
}

impl BrowserConn {
    /// Connect to `ws_url` and start target discovery.
    pub async fn open(
        ws_url: &str,
        launched: Option<LaunchedBrowser>,
        generation: u64,
        signals: tokio::sync::mpsc::UnboundedSender<super::registry::Signal>,
        downloads: std::path::PathBuf,
    ) -> BpResult<Self> {
        let registry = Arc::new(Registry::with_signals(signals));
        let sink_registry = registry.clone();
        let sink = Arc::new(move |ev: &CdpEvent| {
            if ev.method == crate::cdp::event::DISCONNECTED {
                sink_registry.close_all();
            } else {
                sink_registry.on_event(ev);
            }
        });
        let cdp = Cdp::connect(ws_url, sink).await?;
        let discover = SetDiscoverTargetsParams {
            discover: true,
            filter: None,
        };
        cdp.send(&discover, None).await?;
        Ok(Self {
            cdp,
            registry,
            endpoint: ws_url.to_string(),
            generation,
            launched,
            janitor: None,
            downloads,
        })
    }

    /// Attach to `raw_id` (flat session) if not attached; returns the session.
    /// Callers hold the target's lane.
    pub async fn attach(&self, raw_id: &str) -> BpResult<String> {
        if let Some(Some(session)) = self.registry.with(raw_id, |t| t.session.clone()) {
            return Ok(session);
        }
        let attach = AttachToTargetParams {
            target_id: TargetId::new(raw_id),
            flatten: Some(true),
        };
        let session: String = self.cdp.send(&attach, None).await?.session_id.into();
        self.registry.set_session(raw_id, &session);
        let s = Some(session.as_str());
        self.cdp.send(&page::EnableParams::default(), s).await?;
        self.enable_page_tools(raw_id, &session, true);
        self.stage_downloads(raw_id, &session).await;
        // The request journal; header values and bodies are never kept.
        self.cdp.send(&network_enable(), s).await?;
        // The console journal is enabled later, and only for tabs of
        // workspaces that use the console (`enable_console`).
        // Frames known from an earlier session are not trusted (cleared
        // before auto-attach records the out-of-process ones).
        self.registry.update(raw_id, |t| t.frames.clear());
        // Out-of-process (cross-site) frames get sessions of their own.
        self.cdp.send(&auto_attach(), s).await?;
        // Raw: a frame carries enums (secure context, ad status, gated
        // features) that grow with each Chromium; only IDs and URLs are read.
        let tree = self.cdp.send_raw(&page::GetFrameTreeParams {}, s).await?;
        self.registry.frame_tree_seen(raw_id, &tree["frameTree"]);
        let frame = &tree["frameTree"]["frame"];
        self.registry.update(raw_id, |t| {
            t.main_frame = frame["id"].as_str().map(str::to_string);
            if t.loader.is_none() {
                t.loader = frame["loaderId"].as_str().map(str::to_string);
                t.mark_loaded();
            }
            if let Some(url) = frame["url"].as_str() {
                t.url = url.to_string();
            }
        });
        Ok(session)
    }

    /// The console journal of `raw`'s session (see console_enable.rs);
    /// `true` when it was enabled now.
    pub async fn enable_console(&self, raw_id: &str) -> bool {
        super::console_enable::enable(&self.cdp, &self.registry, raw_id).await
    }

    /// Ask for the tools the page's frames declare (`WebMCP.enable`, which
    /// replays those already there). A browser without the domain never
    /// answers, so the answer is awaited off the attach path, bounded.
    /// `report`: record whether it answered (the page's session).
    fn enable_page_tools(&self, raw_id: &str, session: &str, report: bool) {
        let registry = self.registry.clone();
        let raw = raw_id.to_string();
        let pending = self
            .cdp
            .send_typed_now(&webmcp::EnableParams {}, Some(session));
        // Sent now, with the enable, so no command of this set-up goes
        // out later, in the middle of some other call.
        let probe =
            (report && self.registry.page_tool_path() == PageToolPath::Unknown).then(|| {
                let nothing = webmcp::InvokeToolParams {
                    tool_name: String::new(),
                    frame_id: String::new(),
                    input: json!({}),
                };
                self.cdp.send_typed_now(&nothing, Some(session))
            });
        tokio::spawn(async move {
            let on = match pending {
                Ok(rx) => Cdp::reply_to::<webmcp::EnableParams>(rx, PAGE_TOOLS_ENABLE_WAIT)
                    .await
                    .is_ok(),
                Err(_) => false,
            };
            if !report {
                return;
            }
            if let (true, Some(Ok(rx))) = (on, probe) {
                registry.set_page_tool_path(invoke_path(rx).await);
            }
            registry.set_page_tool_support(&raw, on);
        });
    }

    /// Enable what an out-of-process frame's new session needs: its frame
    /// events, its requests in the journal, and its own nested frames.
    pub async fn enable_frame_session(&self, raw_id: &str, session: &str) {
        let s = Some(session);
        let _ = self.cdp.send(&page::EnableParams::default(), s).await;
        // The page's own enable says whether the browser serves it.
        self.enable_page_tools(raw_id, session, false);
        let _ = self.cdp.send(&network_enable(), s).await;
        let _ = self.cdp.send(&auto_attach(), s).await;
        // Requests of a page whose workspace has rules pass the broker too.
        if self
            .registry
            .with(raw_id, |t| t.intercepting)
            .unwrap_or(false)
        {
            let _ = self.cdp.send(&fetch_enable(), s).await;
        }
        // Always let the frame run, whatever failed above.
        let _ = self.cdp.send(&RunIfWaitingForDebuggerParams {}, s).await;
        // Raw, as at attach.
        if let Ok(tree) = self.cdp.send_raw(&page::GetFrameTreeParams {}, s).await {
            // Unless the frame went away meanwhile.
            if self.registry.child_session_live(raw_id, session) {
                self.registry.frame_tree_seen(raw_id, &tree["frameTree"]);
            }
        }
    }

    /// Let an auto-attached worker run and detach from it: attaching must
    /// never change how a page runs.
    pub async fn release_worker(&self, parent: &str, session: &str) {
        let _ = self
            .cdp
            .send(&RunIfWaitingForDebuggerParams {}, Some(session))
            .await;
        let detach = DetachFromTargetParams {
            session_id: Some(SessionId::new(session)),
        };
        let _ = self.cdp.send(&detach, Some(parent)).await;
    }

    /// Refresh every target's URL and title from the browser.
    pub async fn refresh_targets(&self) -> BpResult<()> {
        // Raw: the registry reads a target's info with the same reader as
        // the target events that carry it.
        let reply = self
            .cdp
            .send_raw(&GetTargetsParams::default(), None)
            .await?;
        for info in reply["targetInfos"].as_array().into_iter().flatten() {
            self.registry.apply_info(info);
        }
        Ok(())
    }

    /// Send this target's downloads to a private staging directory. Only
    /// this target's session is configured: the browser-wide (user default
    /// context) download behaviour is never touched. When the browser
    /// refuses, download capture is simply unavailable for the target.
    async fn stage_downloads(&self, raw_id: &str, session: &str) {
        let dir = self.downloads.join(crate::ids::new_id("dl"));
        if crate::system::paths::ensure_private_dir(&dir).is_err() {
            return;
        }
        let stage = page_legacy::SetDownloadBehaviorParams {
            behavior: "allow".into(),
            download_path: Some(dir.clone()),
        };
        match self.cdp.send(&stage, Some(session)).await {
            Ok(_) => self.registry.update(raw_id, |t| t.download_dir = Some(dir)),
            Err(e) => {
                tracing::info!("download capture unavailable for a target: {}", e.message);
                let _ = std::fs::remove_dir_all(&dir);
            }
        }
    }

    /// Open a new tab at `about:blank` (in a new window with
    /// `new_window`); returns its raw target ID.
    pub async fn create_tab(&self, new_window: bool) -> BpResult<String> {
        let create = CreateTargetParams {
            new_window: Some(new_window),
            ..CreateTargetParams::new("about:blank")
        };
        let raw: String = self.cdp.send(&create, None).await?.target_id.into();
        if let Some(janitor) = &self.janitor {
            janitor.track(&raw);
        }
        if new_window {
            self.size_window(&raw).await;
        }
        // The targetCreated event normally arrived first; make sure the
        // registry knows the tab even if it did not.
        self.registry.update(&raw, |t| {
            if t.kind.is_empty() {
                t.kind = "page".into();
                t.url = "about:blank".into();
            }
        });
        Ok(raw)
    }

    /// Open the broker's Pilot tab (BR-7) at `url`, in the background of
    /// the browser's last active window (the one just made for a
    /// workspace), marked so that it is never an agent's tab. Returns its
    /// raw ID.
    pub async fn create_pilot_tab(&self, url: &str) -> BpResult<String> {
        let create = CreateTargetParams {
            new_window: Some(false),
            background: Some(true),
            ..CreateTargetParams::new(url)
        };
        let raw: String = self.cdp.send(&create, None).await?.target_id.into();
        self.registry.update(&raw, |t| {
            t.pilot = true;
            t.kind = "page".into();
        });
        Ok(raw)
    }

    /// Give a launched browser's new window the page area it was launched
    /// with: `--window-size` sizes the whole window, and a headless window
    /// keeps part of it for a browser frame it does not draw. Best effort:
    /// a browser without `Browser.setContentsSize` keeps the switch's size.
    async fn size_window(&self, raw_id: &str) {
        let Some(size) = self.launched.as_ref().map(|l| l.window) else {
            return;
        };
        let window = GetWindowForTargetParams {
            target_id: Some(TargetId::new(raw_id)),
        };
        let Ok(window) = self.cdp.send(&window, None).await else {
            return;
        };
        let contents = SetContentsSizeParams {
            window_id: window.window_id,
            width: Some(i64::from(size.width)),
            height: Some(i64::from(size.height)),
        };
        if let Err(e) = self.cdp.send(&contents, None).await {
            tracing::info!("could not size a new window's page area: {}", e.message);
        }
    }

    /// Close a target.
    pub async fn close_target(&self, raw_id: &str) -> BpResult<()> {
        self.cdp
            .send(&CloseTargetParams::new(TargetId::new(raw_id)), None)
            .await
            .map(|_| ())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The typed set-up commands send exactly what the string calls sent.
    #[test]
    fn set_up_commands_serialise_as_the_string_calls_did() {
        let wire = |v: Result<serde_json::Value, serde_json::Error>| v.unwrap();
        assert_eq!(
            wire(serde_json::to_value(auto_attach())),
            json!({"autoAttach": true, "waitForDebuggerOnStart": true, "flatten": true,
                   "filter": [{"type": "page", "exclude": true},
                              {"type": "tab", "exclude": true},
                              {"type": "browser", "exclude": true},
                              {}]})
        );
        assert_eq!(
            wire(serde_json::to_value(network_enable())),
            json!({"maxPostDataSize": 0})
        );
        assert_eq!(
            fetch_params(),
            json!({"patterns": [{"urlPattern": "*", "requestStage": "Request"}],
                   "handleAuthRequests": true})
        );
        let create = CreateTargetParams {
            new_window: Some(false),
            background: Some(true),
            ..CreateTargetParams::new("about:blank")
        };
        assert_eq!(
            wire(serde_json::to_value(create)),
            json!({"url": "about:blank", "newWindow": false, "background": true})
        );
        assert_eq!(
            wire(serde_json::to_value(page::EnableParams::default())),
            json!({})
        );
    }
}
