//! The workspace's console journal, read by the `console` capability.

use super::workspace_call::WorkspaceCall;
use crate::console::Page;
use crate::error::BpResult;

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
