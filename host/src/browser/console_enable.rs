//! The console journal's domains (`Runtime`, `Log`), enabled per page
//! session only for tabs of workspaces that use the console: a tab nobody
//! reads the console of pays nothing for it on attach or navigation.
//! Enabling replays what the current document logged before, as far as
//! the browser keeps it; messages of earlier documents are gone.

use crate::browser::registry::Registry;
use crate::cdp::Cdp;
use chromiumoxide::cdp::browser_protocol::log;
use chromiumoxide::cdp::js_protocol::runtime;
use std::time::Duration;

/// How long a console read waits for the replayed messages to be
/// journaled (they are queued before the enable answers).
pub const REPLAY_WAIT: Duration = Duration::from_secs(2);

/// Enable the console domains on `raw`'s session, once per session.
/// `true` when they were sent now (the caller may wait for the replay).
pub async fn enable(cdp: &Cdp, registry: &Registry, raw_id: &str) -> bool {
    let Some(session) = registry.claim_console(raw_id) else {
        return false;
    };
    let s = Some(session.as_str());
    let runtime = cdp.send(&runtime::EnableParams::default(), s).await;
    let log = cdp.send(&log::EnableParams::default(), s).await;
    if runtime.is_err() || log.is_err() {
        // Tried again by the next call (unless the session is gone).
        registry.update(raw_id, |t| {
            if t.session.as_deref() == Some(session.as_str()) {
                t.console_on = false;
            }
        });
    }
    true
}

/// Enable the console of each of `raws` that needs it, then wait until
/// what the enables replayed is journaled.
pub async fn enable_all(cdp: &Cdp, registry: &Registry, raws: &[String]) {
    let mut sent = false;
    for raw in raws {
        sent |= enable(cdp, registry, raw).await;
    }
    if sent {
        registry.flush_signals(REPLAY_WAIT).await;
    }
}
