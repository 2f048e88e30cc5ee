//! Emulation overrides outlive no lease: once no lease controls a tab
//! (the workspace released it, its lease ended or expired), the size and
//! media overrides made on it are removed, so a user's own tab goes back
//! to how the user sees it. Run after a release and by the sweeper.

use crate::broker::Broker;
use crate::browser::call::emulation::clear_overrides;
use std::collections::HashSet;

impl Broker {
    /// Remove the overrides of every tab no lease controls.
    pub(in crate::broker) async fn clear_released_overrides(&self) {
        let Ok(conn) = self.browser().await else {
            return;
        };
        let controlled: HashSet<String> = {
            let mut st = self.state();
            st.expire_leases();
            st.controllers.keys().map(|r| r.to_string()).collect()
        };
        let cleared =
            clear_overrides(&conn.cdp, &conn.registry, |raw| controlled.contains(raw)).await;
        if !cleared.is_empty() {
            tracing::debug!("emulation overrides removed from {} tab(s)", cleared.len());
        }
    }
}
