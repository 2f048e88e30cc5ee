//! The WIT `Host` impl of `dialogs`.

use super::DialogsView;
use crate::error::BpResult;
use crate::wit::dialogs::{self, DialogInfo};
use crate::wit::typed::all;

impl dialogs::Host for DialogsView<'_> {
    async fn pending(&mut self, only: bool) -> BpResult<Vec<DialogInfo>> {
        self.workspace()?.pending_dialogs(only).map(all)
    }

    async fn respond(&mut self, id: String, accept: bool, text: Option<String>) -> BpResult<()> {
        let ws = self.workspace()?;
        ws.respond_dialog(&id, accept, text).await
    }
}
