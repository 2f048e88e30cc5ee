//! The WIT `Host` impl of `state-load`.

use super::StateLoadView;
use crate::error::BpResult;
use crate::wit::state_load::{self, LoadedState};

impl state_load::Host for StateLoadView<'_> {
    async fn load(&mut self, artifact_id: String) -> BpResult<LoadedState> {
        let l = self.workspace()?.load_state(&artifact_id).await?;
        Ok(LoadedState {
            cookies: l.cookies,
            origins: l.origins,
            items: l.items,
        })
    }
}
