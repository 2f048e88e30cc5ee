//! Browser changes (from the target registry) turned into workspace events.

use super::Broker;
use crate::browser::registry::Signal;
use serde_json::json;
use std::sync::Arc;
use tokio::sync::mpsc::UnboundedReceiver;

/// Publish events for every signal of one browser connection.
pub async fn pump(broker: Arc<Broker>, mut rx: UnboundedReceiver<Signal>) {
    while let Some(signal) = rx.recv().await {
        // Wait for any tab creation in flight to record its owner.
        let _settled = broker.creation.lock().await;
        let mut st = broker.state();
        match signal {
            Signal::Navigated { raw, url } => {
                for ws in st.workspaces_mapping(&raw) {
                    st.publish(&ws, "navigation", None, Some(&raw), json!({"url": url}));
                    st.publish(
                        &ws,
                        "document.changed",
                        None,
                        Some(&raw),
                        json!({"url": url}),
                    );
                    if let Some(obs) = broker.observations.latest(&ws, &raw) {
                        let payload = json!({"observationId": obs, "reason": "navigation"});
                        st.publish(&ws, "observation.invalidated", None, Some(&raw), payload);
                    }
                }
            }
            Signal::Created { raw } => {
                let all: Vec<String> = st
                    .workspaces
                    .keys()
                    .filter(|ws| !st.managed_elsewhere(&raw, ws))
                    .cloned()
                    .collect();
                for ws in all {
                    st.publish(&ws, "target.attached", None, Some(&raw), json!({}));
                }
            }
            Signal::Destroyed { raw } => {
                if let Some(lease) = st.controllers.get(&raw).cloned() {
                    st.release_target(&lease, &raw);
                }
                for ws in st.workspaces_mapping(&raw) {
                    st.publish(
                        &ws,
                        "target.detached",
                        None,
                        Some(&raw),
                        json!({"reason": "target_closed"}),
                    );
                }
            }
            Signal::Disconnected => {
                let all: Vec<String> = st.workspaces.keys().cloned().collect();
                for ws in all {
                    st.publish(&ws, "connection.lost", None, None, json!({}));
                }
            }
        }
    }
}

/// A new connection generation is up: stamp events with it and tell every
/// workspace.
pub fn connection_restored(broker: &Broker, generation: u64) {
    let mut st = broker.state();
    st.generation = generation;
    let all: Vec<String> = st.workspaces.keys().cloned().collect();
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
