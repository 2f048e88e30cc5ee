//! Requests paused by the browser-wide interception an origin scope arms
//! (`Fetch.enable` on the browser session): the one path that sees a
//! popup's first request, before any session of the popup exists. Each
//! becomes a network signal of the tab whose frame asked for it (the frame
//! ID of a tab's main frame is its target ID), with no session: its answer
//! goes to the browser session.

use super::page_events::net_event;
use super::{Registry, Signal};
use crate::cdp::CdpEvent;
use chromiumoxide::cdp::browser_protocol::fetch::EventRequestPaused;

impl Registry {
    /// A browser-session event: only paused requests are ours.
    pub(super) fn browser_fetch_event(&self, ev: &CdpEvent) {
        if !ev.is::<EventRequestPaused>() {
            return;
        }
        let Some(event) = net_event(&ev.method, &ev.params) else {
            return;
        };
        let frame = ev.params["frameId"].as_str().unwrap_or_default();
        self.signal(Signal::Net {
            raw: self.tab_of_frame(frame),
            session: String::new(),
            event,
        });
    }

    /// The tab a frame belongs to: the tab itself for its main frame, the
    /// tab that lists it for a child frame, else the frame ID as it is (a
    /// tab the registry has not seen yet).
    fn tab_of_frame(&self, frame: &str) -> String {
        let inner = self.lock();
        if inner.targets.contains_key(frame) {
            return frame.to_string();
        }
        inner
            .targets
            .iter()
            .find(|(_, t)| t.frames.contains_key(frame))
            .map(|(raw, _)| raw.to_string())
            .unwrap_or_else(|| frame.to_string())
    }
}
