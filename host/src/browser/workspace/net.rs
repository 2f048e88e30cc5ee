//! The workspace's network operations: the request journal, request rules
//! (block, mock, headers) and HTTP credentials. They belong to the
//! workspace, not to a tab: any lease of it may use them with no tab open.
//! A target call routes its tab's requests through the broker here.

use crate::browser::call::TargetCall;
use crate::browser::types::{Header, JournalPage, MockResponse, RequestEntry, Rule, RuleAction};
use crate::browser::workspace::WorkspaceCall;
use crate::error::BpResult;
use crate::store::network::{self, Action};

fn pairs(h: &[Header]) -> Vec<(String, String)> {
    h.iter()
        .map(|h| (h.name.clone(), h.value.clone()))
        .collect()
}

fn headers(p: &[(String, String)]) -> Vec<Header> {
    p.iter()
        .map(|(n, v)| Header {
            name: n.clone(),
            value: v.clone(),
        })
        .collect()
}

impl TargetCall {
    /// Make sure this target's requests pass through the broker (the
    /// workspace's rules and credentials apply to it).
    pub async fn ensure_interception(&self) -> BpResult<()> {
        super::enable_interception(&self.cdp, &self.registry, &self.raw_id).await
    }
}

impl WorkspaceCall {
    pub fn read_journal(
        &mut self,
        only_this: bool,
        since: u64,
        limit: u32,
    ) -> BpResult<JournalPage> {
        self.check()?;
        let raw = self.current_raw(only_this)?;
        let (entries, next) = self.network.read(
            &self.caller.workspace_id,
            raw.as_deref(),
            since,
            limit as usize,
        );
        let requests = entries
            .into_iter()
            .map(|e| RequestEntry {
                seq: e.seq,
                target_id: e.target_id,
                url: e.url,
                method: e.method,
                status: e.status,
                resource_type: e.resource_type,
                outcome: e.outcome,
                rule_id: e.rule_id,
            })
            .collect();
        Ok(JournalPage {
            requests,
            next_seq: next,
        })
    }

    pub async fn add_rule(
        &mut self,
        pattern: String,
        action: RuleAction,
        only_this: bool,
    ) -> BpResult<String> {
        self.check()?;
        let action = match action {
            RuleAction::Block => Action::Block,
            RuleAction::Mock(MockResponse {
                status,
                headers,
                body,
            }) => Action::Mock {
                status,
                headers: pairs(&headers),
                body,
            },
            RuleAction::Headers(h) => Action::Headers(pairs(&h)),
        };
        let target = self.current_raw(only_this)?;
        let target_id = target
            .as_ref()
            .and_then(|_| self.current.clone().map(|(_, p)| p));
        let rule = network::Rule {
            id: crate::ids::new_id("rule"),
            pattern,
            action,
            target,
            target_id,
            lease: self.caller.lease_id.clone(),
        };
        let id = self.network.add_rule(&self.caller.workspace_id, rule)?;
        self.intercept_controlled().await?;
        Ok(id)
    }

    pub fn remove_rule(&mut self, id: &str) -> BpResult<()> {
        self.check()?;
        self.network.remove_rule(&self.caller.workspace_id, id)
    }

    pub fn list_rules(&mut self) -> BpResult<Vec<Rule>> {
        self.check()?;
        Ok(self
            .network
            .rules(&self.caller.workspace_id)
            .into_iter()
            .map(|r| Rule {
                rule_id: r.id,
                pattern: r.pattern,
                action: match r.action {
                    Action::Block => RuleAction::Block,
                    Action::Mock {
                        status,
                        headers: h,
                        body,
                    } => RuleAction::Mock(MockResponse {
                        status,
                        headers: headers(&h),
                        body,
                    }),
                    Action::Headers(h) => RuleAction::Headers(headers(&h)),
                },
                target_id: r.target_id,
            })
            .collect())
    }

    pub async fn set_auth(&mut self, origin: &str, user: &str, password: &str) -> BpResult<()> {
        self.check()?;
        self.network
            .set_auth(&self.caller.workspace_id, origin, user, password);
        self.intercept_controlled().await
    }

    pub fn clear_auth(&mut self, origin: Option<&str>) -> BpResult<u32> {
        self.check()?;
        Ok(self.network.clear_auth(&self.caller.workspace_id, origin))
    }
}
