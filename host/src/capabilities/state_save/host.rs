//! The WIT `Host` impl of `state-save`.

use super::StateSaveView;
use crate::error::BpResult;
use crate::wit::state_save::{self, SavedState};

impl state_save::Host for StateSaveView<'_> {
    async fn save(&mut self) -> BpResult<SavedState> {
        let s = self.workspace()?.save_state().await?;
        Ok(SavedState {
            artifact_id: s.artifact_id,
            bytes: s.bytes,
            cookies: s.cookies,
            origins: s.origins,
        })
    }
}
