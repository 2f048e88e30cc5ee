//! Browser changes (from the target registry) turned into workspace events.

pub(in crate::broker) mod consoleflow;
pub(in crate::broker) mod events;
pub(in crate::broker) mod fetch_answer;
pub(in crate::broker) mod hints;
pub(in crate::broker) mod netflow;
pub(in crate::broker) mod overrides;
pub(in crate::broker) mod scopeflow;

use crate::broker::state::State;
use crate::broker::Broker;
use crate::browser::caller::{PageToolAccess, PageToolLevel};
use crate::browser::connection::BrowserConn;
use crate::browser::page_tools::Effect;
use crate::browser::registry::Signal;
use serde_json::json;
use std::sync::{Arc, Weak};
use tokio::sync::mpsc::UnboundedReceiver;

/// Publish events for every signal of one browser connection. The pump
/// holds its connection weakly (the connection owns the signal sender), and
/// signals of a superseded generation are dropped: they describe a browser
/// connection the broker no longer uses.
pub async fn pump(broker: Arc<Broker>, conn: Arc<BrowserConn>, mut rx: UnboundedReceiver<Signal>) {
    let generation = conn.generation;
    let conn: Weak<BrowserConn> = Arc::downgrade(&conn);
    while let Some(signal) = rx.recv().await {
        // Every earlier download signal has been handled: what is still
        // staged for this connection is a partial file nobody will get.
        if let Signal::Disconnected { staging } = &signal {
            for dir in staging {
                let _ = std::fs::remove_dir_all(dir);
            }
        }
        if broker.generation() != generation {
            continue;
        }
        match conn.upgrade() {
            Some(conn) => on_signal(&broker, conn, signal).await,
            // Gone: only its disconnect is left to report.
            None if matches!(signal, Signal::Disconnected { .. }) => lost(&broker),
            None => {}
        }
    }
}

/// Act on one signal of a live connection: browser work is handed off,
/// everything else becomes workspace events.
async fn on_signal(broker: &Broker, conn: Arc<BrowserConn>, signal: Signal) {
    match signal {
        Signal::Net {
            raw,
            session,
            event,
        } => crate::broker::watch::netflow::handle(broker, raw, session, event).await,
        Signal::Console { raw, message } => {
            crate::broker::watch::consoleflow::handle(broker, &raw, message)
        }
        Signal::FrameSession { raw, session } => {
            tokio::spawn(async move { conn.enable_frame_session(&raw, &session).await });
        }
        Signal::Worker { parent, session } => {
            tokio::spawn(async move { conn.release_worker(&parent, &session).await });
        }
        Signal::Disconnected { .. } => lost(broker),
        Signal::Flush(done) => {
            let _ = done.send(());
        }
        signal @ Signal::DownloadOversized { .. } => oversized(broker, &conn, signal).await,
        Signal::Created { raw } => {
            // The opener is reported by the browser, not the page.
            let opener = conn.registry.with(&raw, |t| t.opener.clone()).flatten();
            // Wait for any tab creation in flight to record its owner.
            let _settled = broker.creation.lock().await;
            // The broker's own Pilot tab is nobody's to hear of.
            let pilot = conn.registry.with(&raw, |t| t.pilot).unwrap_or(false);
            let popup = !pilot && announce_tab(&mut broker.state(), &raw, opener.as_deref());
            // A popup adopted into a ManagedTabSet is the janitor's to close.
            if let (true, Some(janitor)) = (popup, conn.janitor.as_ref()) {
                janitor.track(&raw);
            }
        }
        signal => {
            let _settled = broker.creation.lock().await;
            publish(broker, &mut broker.state(), signal);
        }
    }
}

/// A download passed its bound while it transferred: cancel it, remove
/// what was staged, and tell the workspace that controls its tab.
async fn oversized(broker: &Broker, conn: &BrowserConn, signal: Signal) {
    let Signal::DownloadOversized {
        raw,
        guid,
        filename,
        dir,
        bytes,
        bound,
        limit,
    } = signal
    else {
        return;
    };
    let cancel = chromiumoxide::cdp::browser_protocol::browser::CancelDownloadParams::new(guid);
    let _ = conn.cdp.send(&cancel, None).await;
    // Whatever the browser left of it in staging goes too.
    if let Some(dir) = dir {
        for name in [filename.clone(), format!("{filename}.crdownload")] {
            let _ = std::fs::remove_file(dir.join(name));
        }
    }
    let e = crate::error::BpError::new(
        crate::error::Code::ResultTooLarge,
        format!("the download passed the {bound} bound of {limit} bytes while it transferred; it was cancelled"),
    )
    .with_context(json!({"quota": bound, "limitBytes": limit, "bytes": bytes}));
    let payload =
        json!({"state": "oversized", "filename": filename, "bytes": bytes, "error": e.to_json()});
    let mut st = broker.state();
    if let Some((lease, ws)) = st.controller_of(&raw) {
        st.publish(&ws, "download", Some(&lease), Some(&raw), payload);
    }
}

/// The events of a signal that changes what workspaces see.
fn publish(broker: &Broker, st: &mut State, signal: Signal) {
    match signal {
        Signal::Navigated { raw, url, status } => navigated(broker, st, &raw, &url, status),
        Signal::Destroyed { raw } => {
            // Its objects went with it.
            let _ = broker.observations.held.forget(&raw);
            destroyed(st, &raw)
        }
        Signal::Download {
            raw,
            filename,
            url,
            dir,
            state,
        } => {
            let controller = st.controller_of(&raw);
            let staged = staged_file(&dir, &filename);
            let mut payload = match (&controller, state.as_str(), &staged) {
                (Some((_, ws)), "completed", Some(path)) => ingest(broker, ws, &filename, path),
                _ => json!({"state": state, "filename": filename}),
            };
            if let Some(id) = payload["artifactId"].as_str() {
                broker.artifacts.set_source(id, &url);
            }
            payload["url"] = json!(url);
            if let Some(path) = staged {
                let _ = std::fs::remove_file(path);
            }
            if let Some((lease, ws)) = controller {
                st.publish(&ws, "download", Some(&lease), Some(&raw), payload);
            }
        }
        Signal::Dialog { raw, opened } => {
            if let Some((lease, ws)) = st.controller_of(&raw) {
                let (kind, payload) = match opened {
                    Some((id, t)) => ("dialog.opened", json!({"dialogId": id, "type": t})),
                    None => ("dialog.closed", json!({})),
                };
                st.publish(&ws, kind, Some(&lease), Some(&raw), payload);
            }
        }
        Signal::PageTools {
            raw,
            added,
            removed,
            annotations_reported,
        } => {
            if let Some((lease, ws)) = st.controller_of(&raw) {
                let level = broker.runtime.page_tool_level();
                let effects = |tools: Vec<(String, serde_json::Value)>| -> Vec<(String, Effect)> {
                    tools
                        .into_iter()
                        .map(|(r, a)| (r, Effect::of(&a, annotations_reported)))
                        .collect()
                };
                let payload = page_tools_changed(level, &effects(added), &effects(removed));
                st.publish(&ws, "page_tools.changed", Some(&lease), Some(&raw), payload);
            }
        }
        Signal::FrameDetached { raw, frame } => {
            for (ws, frame_id) in broker.frames.detached(&raw, &frame) {
                let payload = json!({"frameId": frame_id, "reason": "frame_detached"});
                st.publish(&ws, "watchdog.frame_detached", None, Some(&raw), payload);
                if let Some(obs) = broker.observations.invalidate_frame(&ws, &raw, &frame) {
                    let payload = json!({"observationId": obs, "reason": "frame_detached"});
                    st.publish(&ws, "observation.invalidated", None, Some(&raw), payload);
                }
            }
        }
        Signal::Created { .. }
        | Signal::Net { .. }
        | Signal::Console { .. }
        | Signal::FrameSession { .. }
        | Signal::Worker { .. }
        | Signal::Flush(_)
        | Signal::DownloadOversized { .. }
        | Signal::Disconnected { .. } => {}
    }
}

/// The lease controlling a tab, and its workspace.
/// A tab committed a new document: it ends every no-progress streak on
/// the tab, and a refused main document (403, 429) is flagged.
/// Most refs one `page_tools.changed` event names per direction.
const MAX_EVENT_REFS: usize = 100;

/// A `page_tools.changed` payload. Events reach the workspace's journal,
/// whoever reads it, so they name only the tools any client may see at
/// this broker's level without a grant. The others are only counted, in
/// `hidden` (a client with `page.consequential` lists to see them).
fn page_tools_changed(
    level: PageToolLevel,
    added: &[(String, Effect)],
    removed: &[(String, Effect)],
) -> serde_json::Value {
    let access = PageToolAccess {
        level,
        consequential_granted: false,
    };
    let visible = |tools: &[(String, Effect)]| -> Vec<String> {
        tools
            .iter()
            .filter(|(_, e)| access.admits(*e).is_ok())
            .map(|(r, _)| r.clone())
            .collect()
    };
    let (seen_added, seen_removed) = (visible(added), visible(removed));
    let hidden = added.len() + removed.len() - seen_added.len() - seen_removed.len();
    json!({"added": seen_added.len(), "removed": seen_removed.len(), "hidden": hidden,
           "addedRefs": &seen_added[..seen_added.len().min(MAX_EVENT_REFS)],
           "removedRefs": &seen_removed[..seen_removed.len().min(MAX_EVENT_REFS)]})
}

fn navigated(broker: &Broker, st: &mut State, raw: &str, url: &str, status: Option<u16>) {
    broker.progress.reset_target(raw);
    let mut payload = json!({"url": url});
    if let Some(code) = status {
        payload["status"] = json!(code);
        if crate::broker::watch::hints::is_blocked(code) {
            crate::broker::watch::hints::add(
                &mut payload,
                crate::broker::watch::hints::access_blocked(code),
            );
        }
    }
    for ws in st.workspaces_mapping(raw) {
        st.publish(&ws, "navigation", None, Some(raw), payload.clone());
        st.publish(
            &ws,
            "document.changed",
            None,
            Some(raw),
            json!({"url": url}),
        );
        if let Some(obs) = broker.observations.latest(&ws, raw) {
            let payload = json!({"observationId": obs, "reason": "navigation"});
            st.publish(&ws, "observation.invalidated", None, Some(raw), payload);
        }
    }
}

/// A tab closed: its control is released and it leaves its ManagedTabSet.
fn destroyed(st: &mut State, raw: &str) {
    if let Some(lease) = st.controllers.get(raw).cloned() {
        st.release_target(&lease, raw);
    }
    for ws in st.workspaces.values_mut() {
        ws.managed.remove(raw);
        ws.popups.remove(raw);
    }
    for ws in st.workspaces_mapping(raw) {
        let payload = json!({"reason": "target_closed"});
        st.publish(&ws, "target.detached", None, Some(raw), payload);
    }
}

/// Tell every workspace the browser connection is gone.
fn lost(broker: &Broker) {
    let mut st = broker.state();
    let all: Vec<String> = st.workspaces.keys().map(|w| w.to_string()).collect();
    for ws in all {
        st.publish(&ws, "connection.lost", None, None, json!({}));
    }
}

/// Announce a new tab. A popup whose opener is in a workspace's
/// ManagedTabSet joins that set (`managed_popup`) and only that workspace
/// hears of it; every member of the set joined by browser creation or this
/// same check, so the opener chain is verified all the way to the set. Any
/// other tab (a user tab's popup too) is an ordinary user tab for all; a
/// tab the broker created is announced only to its own workspace.
/// Returns whether the tab joined a ManagedTabSet as a popup.
fn announce_tab(st: &mut State, raw: &str, opener: Option<&str>) -> bool {
    let owner = opener.and_then(|o| {
        st.workspaces
            .values()
            .find(|w| w.managed.contains(o))
            .map(|w| w.id.clone())
    });
    if let (Some(ws_id), Some(opener)) = (owner, opener) {
        let Some(ws) = st.workspaces.get_mut(&ws_id) else {
            return false;
        };
        ws.managed.insert(raw.to_string());
        ws.popups.insert(raw.to_string());
        let opener_id = ws.public_id(opener);
        let payload = json!({"origin": "managed_popup", "openerTargetId": opener_id,
                             "managedTabSetId": ws.tab_set_id(raw)});
        st.publish(&ws_id, "target.attached", None, Some(raw), payload);
        return true;
    }
    let all: Vec<String> = st
        .workspaces
        .keys()
        .filter(|ws| !st.managed_elsewhere(raw, ws))
        .map(|ws| ws.to_string())
        .collect();
    for ws_id in all {
        let mut payload = json!({"origin": "user_tab"});
        if let Some(ws) = st.workspaces.get_mut(ws_id.as_str()) {
            // The workspace that created this tab hears of it as managed.
            payload["origin"] = json!(ws.origin(raw));
            if let Some(set) = ws.tab_set_id(raw) {
                payload["managedTabSetId"] = json!(set);
            }
            if let Some(o) = opener.filter(|o| ws.by_raw.contains_key(*o)) {
                payload["openerTargetId"] = json!(ws.public_id(o));
            }
        }
        st.publish(&ws_id, "target.attached", None, Some(raw), payload);
    }
    false
}

/// The staged file of a finished download: the suggested name, or the
/// newest file when the browser had to pick another name.
fn staged_file(dir: &std::path::Path, filename: &str) -> Option<std::path::PathBuf> {
    let direct = dir.join(filename);
    if direct.is_file() {
        return Some(direct);
    }
    std::fs::read_dir(dir)
        .ok()?
        .flatten()
        .filter(|e| e.path().is_file())
        .max_by_key(|e| e.metadata().and_then(|m| m.modified()).ok())
        .map(|e| e.path())
}

/// Turn a completed download into a workspace artifact (before the event
/// announcing it is published); returns the event payload.
fn ingest(
    broker: &Broker,
    workspace_id: &str,
    filename: &str,
    path: &std::path::Path,
) -> serde_json::Value {
    let data = match std::fs::read(path) {
        Ok(d) => d,
        Err(_) => return json!({"state": "failed", "filename": filename}),
    };
    let new = crate::store::artifacts::NewArtifact {
        workspace_id,
        kind: "download",
        mime: "application/octet-stream",
        filename: Some(filename.to_string()),
        width: None,
        height: None,
        preview_of: None,
    };
    match broker.artifacts.create(new, &data) {
        Ok(d) => json!({
            "state": "completed",
            "filename": filename,
            "bytes": data.len(),
            "artifactId": d["artifactId"],
            "hints": [{"code": "download", "source": "event", "confidence": "high",
                       "recommendedAction": "artifacts/get", "artifactId": d["artifactId"]}],
        }),
        Err(e) => {
            json!({"state": "oversized", "filename": filename, "bytes": data.len(), "error": e.to_json()})
        }
    }
}

/// How long a dialog may stay pending before the watchdog speaks (once).
pub const DIALOG_WATCHDOG: std::time::Duration = std::time::Duration::from_secs(5);

/// Publish `watchdog.dialog_unhandled` for dialogs pending too long.
pub async fn dialog_watchdog(broker: &Broker) {
    let Ok(conn) = broker.browser().await else {
        return;
    };
    let overdue = conn.registry.overdue_dialogs(DIALOG_WATCHDOG);
    if overdue.is_empty() {
        return;
    }
    let mut st = broker.state();
    for (raw, dialog) in overdue {
        if let Some((lease, ws)) = st.controller_of(&raw) {
            let payload =
                json!({"dialogId": dialog, "pendingMs": DIALOG_WATCHDOG.as_millis() as u64});
            st.publish(
                &ws,
                "watchdog.dialog_unhandled",
                Some(&lease),
                Some(&raw),
                payload,
            );
        }
    }
}

/// A new connection generation is up: stamp events with it and tell every
/// workspace.
pub fn connection_restored(broker: &Broker, generation: u64) {
    let mut st = broker.state();
    st.generation = generation;
    let all: Vec<String> = st.workspaces.keys().map(|w| w.to_string()).collect();
    for ws in all {
        st.publish(
            &ws,
            "connection.restored",
            None,
            None,
            json!({"generation": generation}),
        );
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_page_tools_event_names_only_what_a_client_without_a_grant_may_see() {
        let tools = [
            ("pt_r".to_string(), Effect::Read),
            ("pt_w".to_string(), Effect::Write),
            ("pt_c".to_string(), Effect::Consequential),
            ("pt_u".to_string(), Effect::Unknown),
        ];
        let v = page_tools_changed(PageToolLevel::ReadOnly, &tools, &tools[1..2]);
        assert_eq!(v["addedRefs"], json!(["pt_r"]));
        assert_eq!(v["removedRefs"], json!([]));
        assert_eq!(
            (
                v["added"].clone(),
                v["removed"].clone(),
                v["hidden"].clone()
            ),
            (json!(1), json!(0), json!(4))
        );
        let v = page_tools_changed(PageToolLevel::All, &tools, &[]);
        assert_eq!(v["addedRefs"], json!(["pt_r", "pt_w"]));
        assert_eq!(v["hidden"], json!(2));
    }
}
