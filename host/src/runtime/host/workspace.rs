//! Workspace capabilities: their imports see only a [`WorkspaceView`], the
//! calling workspace with no tab, so they work with no tab open and for
//! any lease of the workspace. Arguments and results cross between WIT
//! and domain types here (see `host/convert.rs`).

use crate::error::BpResult;
use crate::runtime::bindings::artifacts::{self, ArtifactRef, NewArtifact, UploadFile};
use crate::runtime::bindings::dialogs::{self, DialogInfo};
use crate::runtime::bindings::network_modify::{self, Rule, RuleAction};
use crate::runtime::bindings::network_read::{self, JournalPage};
use crate::runtime::bindings::tabs_manage::{self, TabInfo};
use crate::runtime::host::convert::all;
use crate::runtime::host::views::WorkspaceView;

impl artifacts::Host for WorkspaceView<'_> {
    async fn create(&mut self, artifact: NewArtifact) -> BpResult<ArtifactRef> {
        self.call()?
            .create_artifact(artifact.into())
            .map(Into::into)
    }

    async fn lookup_upload(&mut self, artifact_id: String) -> BpResult<UploadFile> {
        self.call()?.upload_file(&artifact_id).map(Into::into)
    }
}

impl network_read::Host for WorkspaceView<'_> {
    async fn read_journal(&mut self, only: bool, since: u64, limit: u32) -> BpResult<JournalPage> {
        self.call()?
            .read_journal(only, since, limit)
            .map(Into::into)
    }
}

impl network_modify::Host for WorkspaceView<'_> {
    async fn add_rule(
        &mut self,
        pattern: String,
        action: RuleAction,
        only: bool,
    ) -> BpResult<String> {
        self.call()?.add_rule(pattern, action.into(), only).await
    }

    async fn remove_rule(&mut self, rule_id: String) -> BpResult<()> {
        self.call()?.remove_rule(&rule_id)
    }

    async fn list_rules(&mut self) -> BpResult<Vec<Rule>> {
        self.call()?.list_rules().map(all)
    }

    async fn set_auth(
        &mut self,
        origin: String,
        username: String,
        password: String,
    ) -> BpResult<()> {
        self.call()?.set_auth(&origin, &username, &password).await
    }

    async fn clear_auth(&mut self, origin: Option<String>) -> BpResult<u32> {
        self.call()?.clear_auth(origin.as_deref())
    }
}

impl dialogs::Host for WorkspaceView<'_> {
    async fn pending(&mut self, only: bool) -> BpResult<Vec<DialogInfo>> {
        self.call()?.pending_dialogs(only).map(all)
    }

    async fn respond(&mut self, id: String, accept: bool, text: Option<String>) -> BpResult<()> {
        self.call()?.respond_dialog(&id, accept, text).await
    }
}

impl tabs_manage::Host for WorkspaceView<'_> {
    async fn open(&mut self, url: Option<String>) -> BpResult<TabInfo> {
        let tabs = self.call()?.tabs();
        tabs.open(url).await.map(Into::into)
    }

    async fn close(&mut self, target_id: String) -> BpResult<Vec<String>> {
        let tabs = self.call()?.tabs();
        tabs.close(target_id).await
    }

    async fn close_managed(&mut self) -> BpResult<Vec<String>> {
        let tabs = self.call()?.tabs();
        tabs.close_managed().await
    }
}
