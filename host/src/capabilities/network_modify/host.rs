//! The WIT `Host` impl of `network-modify`.

use super::NetworkModifyView;
use crate::error::BpResult;
use crate::wit::network_modify::{self, Rule, RuleAction};
use crate::wit::typed::all;

impl network_modify::Host for NetworkModifyView<'_> {
    async fn add_rule(
        &mut self,
        pattern: String,
        action: RuleAction,
        only: bool,
    ) -> BpResult<String> {
        let ws = self.workspace()?;
        ws.add_rule(pattern, action.into(), only).await
    }

    async fn remove_rule(&mut self, rule_id: String) -> BpResult<()> {
        self.workspace()?.remove_rule(&rule_id)
    }

    async fn list_rules(&mut self) -> BpResult<Vec<Rule>> {
        self.workspace()?.list_rules().map(all)
    }

    async fn set_auth(
        &mut self,
        origin: String,
        username: String,
        password: String,
    ) -> BpResult<()> {
        let ws = self.workspace()?;
        ws.set_auth(&origin, &username, &password).await
    }

    async fn clear_auth(&mut self, origin: Option<String>) -> BpResult<u32> {
        self.workspace()?.clear_auth(origin.as_deref())
    }
}
