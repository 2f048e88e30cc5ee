//! The WIT `Host` impl of `dialogs`.

use super::{answer, DialogsView};
use crate::error::BpResult;
use crate::wit::dialogs::{self, DialogInfo};
use crate::wit::typed::all;

impl dialogs::Host for DialogsView<'_> {
    async fn pending(&mut self, only: bool) -> BpResult<Vec<DialogInfo>> {
        answer::pending(self.workspace()?, only).map(all)
    }

    async fn respond(&mut self, id: String, accept: bool, text: Option<String>) -> BpResult<()> {
        answer::respond(self.workspace()?, &id, accept, text).await
    }
}
