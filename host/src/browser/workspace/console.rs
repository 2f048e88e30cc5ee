//! The workspace's console journal, read by the `console` capability.

use crate::browser::workspace::WorkspaceCall;
use crate::error::BpResult;
use crate::store::console::Page;

impl WorkspaceCall {
    /// The calling workspace's console entries after `since` whose level
    /// is in `levels` (all when empty), at most `limit`. The first read
    /// makes the workspace a console user: its tabs' console is enabled
    /// now (replaying what their current documents logged) and on every
    /// later attach.
    pub async fn read_console(&self, since: u64, levels: &[&str], limit: u32) -> BpResult<Page> {
        self.check()?;
        self.console.start_using(&self.caller.workspace_id);
        let raws: Vec<String> = self.controlled.iter().map(|(r, _)| r.clone()).collect();
        crate::browser::console_enable::enable_all(&self.cdp, &self.registry, &raws).await;
        Ok(self
            .console
            .read(&self.caller.workspace_id, since, levels, limit as usize))
    }
}
