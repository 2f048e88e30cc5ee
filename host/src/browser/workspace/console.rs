//! The workspace's console journal, read by the `console` capability.

use crate::browser::workspace::WorkspaceCall;
use crate::error::BpResult;
use crate::store::console::Page;

impl WorkspaceCall {
    /// The calling workspace's console entries after `since` whose level
    /// is in `levels` (all when empty), at most `limit`.
    pub fn read_console(&self, since: u64, levels: &[&str], limit: u32) -> BpResult<Page> {
        self.check()?;
        Ok(self
            .console
            .read(&self.caller.workspace_id, since, levels, limit as usize))
    }
}
