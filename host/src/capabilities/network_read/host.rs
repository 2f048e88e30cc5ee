//! The WIT `Host` impl of `network-read`.

use super::NetworkReadView;
use crate::error::BpResult;
use crate::wit::network_read::{self, JournalPage};

impl network_read::Host for NetworkReadView<'_> {
    async fn read_journal(&mut self, only: bool, since: u64, limit: u32) -> BpResult<JournalPage> {
        self.workspace()?
            .read_journal(only, since, limit)
            .map(Into::into)
    }
}
