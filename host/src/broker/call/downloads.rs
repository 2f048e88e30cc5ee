//! Step 5b: the `download` signal of an action. A download the action's
//! tab started during the call is named in the action's evidence: with
//! its artifact ID once the file is complete (waited for, briefly), or as
//! `started` with its name when it is still transferring (the journal's
//! `download` event tells the rest).

use super::types::{Bound, CallScope};
use crate::broker::Broker;
use serde_json::{json, Value};
use std::collections::HashSet;
use std::time::{Duration, Instant};

/// How long an action's result waits for a download it started.
const DOWNLOAD_WAIT: Duration = Duration::from_millis(1500);
/// How long a link's click that changed nothing but focus waits for a
/// download to begin (the browser announces one a moment after the click
/// returned).
const BEGIN_GRACE: Duration = Duration::from_millis(300);
/// How often it looks.
const LOOK_EVERY: Duration = Duration::from_millis(50);

/// What a target call's tab had before the call: the journal's cursor and
/// the downloads already under way.
pub(super) struct Before {
    cursor: String,
    /// GUIDs and names of the downloads already under way: theirs are not
    /// this call's.
    in_flight: HashSet<String>,
    earlier_names: Vec<String>,
}

impl Before {
    pub(super) fn take(broker: &Broker, scope: &CallScope, bound: &Bound) -> Option<Self> {
        let Bound::Target { conn, raw, .. } = bound else {
            return None;
        };
        let (in_flight, earlier_names) = conn.registry.downloads_of(raw).into_iter().unzip();
        Some(Self {
            cursor: broker.state().cursor(&scope.workspace_id),
            in_flight,
            earlier_names,
        })
    }

    /// `download` events of the tab since the call began.
    fn ended(&self, broker: &Broker, scope: &CallScope, public: &str) -> Vec<Value> {
        let st = broker.state();
        let Some(journal) = st.journals.get(scope.workspace_id.as_str()) else {
            return Vec::new();
        };
        let Ok(page) = journal.poll(&self.cursor, 500) else {
            return Vec::new();
        };
        page["events"]
            .as_array()
            .into_iter()
            .flatten()
            .filter(|e| e["type"] == "download" && e["targetId"] == public)
            .map(|e| e["payload"].clone())
            .filter(|p| {
                let name = p["filename"].as_str().unwrap_or_default();
                !self.earlier_names.iter().any(|n| n == name)
            })
            .collect()
    }

    /// Add the signal to an action's evidence, if the call started a
    /// download.
    pub(super) async fn attach(
        self,
        broker: &Broker,
        scope: &CallScope,
        name: &str,
        bound: &Bound,
        value: &mut Value,
    ) {
        let Bound::Target {
            conn, raw, public, ..
        } = bound
        else {
            return;
        };
        if !value["evidence"].is_object() {
            return;
        }
        let started_at = Instant::now();
        // Only a link's click whose evidence shows no effect but focus
        // waits for a download to begin: other clicks, and links that
        // changed the page, must not be slowed.
        let signals = value["evidence"]["signals"].as_array();
        let quiet = name == "browser.click"
            && value["evidence"]["link"] == true
            && signals.is_none_or(|s| s.iter().all(|x| x == "focus_changed"));
        let grace = if quiet { BEGIN_GRACE } else { Duration::ZERO };
        let mut seen: HashSet<String> = HashSet::new();
        let (ended, running) = loop {
            let running: Vec<(String, String)> = conn
                .registry
                .downloads_of(raw)
                .into_iter()
                .filter(|d| !self.in_flight.contains(&d.0))
                .collect();
            seen.extend(running.iter().map(|d| d.0.clone()));
            let ended = self.ended(broker, scope, public);
            let idle = running.is_empty() && ended.len() >= seen.len();
            let waiting_for_begin = seen.is_empty() && started_at.elapsed() < grace;
            if (idle && !waiting_for_begin) || started_at.elapsed() >= DOWNLOAD_WAIT {
                break (ended, running);
            }
            tokio::time::sleep(LOOK_EVERY).await;
        };
        let signal = match (ended.first(), running.first()) {
            (Some(done), _) => signal_of(done),
            (None, Some((_, filename))) => json!({"state": "started", "filename": filename}),
            (None, None) => return,
        };
        let evidence = &mut value["evidence"];
        match evidence["signals"].as_array_mut() {
            Some(list) => list.push(json!("download")),
            None => evidence["signals"] = json!(["download"]),
        }
        evidence["download"] = signal;
    }
}

/// The evidence's `download` from a `download` event's payload.
fn signal_of(payload: &Value) -> Value {
    let mut out = json!({"state": payload["state"], "filename": payload["filename"]});
    for key in ["artifactId", "bytes", "url"] {
        if let Some(v) = payload.get(key) {
            out[key] = v.clone();
        }
    }
    out
}
