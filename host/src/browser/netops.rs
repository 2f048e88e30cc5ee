//! Network, cookie and script operations of a [`TargetCall`]. Rules and
//! credentials belong to the caller's workspace; interception is enabled
//! only on sessions of targets that workspace controls.

use super::call::TargetCall;
use crate::error::{BpError, BpResult, Code};
use crate::network::{Action, Rule};
use crate::runtime::bindings::cookies_read::Cookie;
use crate::runtime::bindings::network_modify::{Header, MockResponse, Rule as WitRule, RuleAction};
use crate::runtime::bindings::network_read::{JournalPage, RequestEntry};
use serde_json::{json, Value};

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
    pub fn read_journal(
        &mut self,
        only_this: bool,
        since: u64,
        limit: u32,
    ) -> BpResult<JournalPage> {
        self.check()?;
        let raw = only_this.then_some(self.raw_id.as_str());
        let (entries, next) =
            self.network
                .read(&self.caller.workspace_id, raw, since, limit as usize);
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

    /// Make sure this target's requests pass through the broker.
    pub async fn ensure_interception(&self) -> BpResult<()> {
        if self
            .registry
            .with(&self.raw_id, |t| t.intercepting)
            .unwrap_or(false)
        {
            return Ok(());
        }
        // Flag first: a frame session that appears meanwhile enables
        // itself (see `enable_frame_session`).
        self.registry
            .update(&self.raw_id, |t| t.intercepting = true);
        let params = super::connection::fetch_params();
        if let Err(e) = self.send("Fetch.enable", params.clone()).await {
            self.registry
                .update(&self.raw_id, |t| t.intercepting = false);
            return Err(e);
        }
        // Out-of-process frames send their requests on their own sessions.
        let children: Vec<String> = self
            .registry
            .with(&self.raw_id, |t| {
                t.frames
                    .values()
                    .filter_map(|f| f.session.clone())
                    .collect()
            })
            .unwrap_or_default();
        for child in children {
            // Not `send_on`: a frame session answers even while the page
            // shows a dialog.
            if let Err(e) = self
                .cdp
                .call("Fetch.enable", Some(&child), params.clone())
                .await
            {
                tracing::info!("interception unavailable for a frame: {}", e.message);
            }
        }
        Ok(())
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
        let rule = Rule {
            id: crate::ids::new_id("rule"),
            pattern,
            action,
            target: only_this.then(|| self.raw_id.clone()),
            target_id: only_this.then(|| self.public_target.clone()),
            lease: self.caller.lease_id.clone(),
        };
        let id = self.network.add_rule(&self.caller.workspace_id, rule)?;
        self.ensure_interception().await?;
        Ok(id)
    }

    pub fn remove_rule(&mut self, id: &str) -> BpResult<()> {
        self.check()?;
        self.network.remove_rule(&self.caller.workspace_id, id)
    }

    pub fn list_rules(&mut self) -> BpResult<Vec<WitRule>> {
        self.check()?;
        Ok(self
            .network
            .rules(&self.caller.workspace_id)
            .into_iter()
            .map(|r| WitRule {
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
        self.ensure_interception().await
    }

    pub fn clear_auth(&mut self, origin: Option<&str>) -> BpResult<u32> {
        self.check()?;
        Ok(self.network.clear_auth(&self.caller.workspace_id, origin))
    }

    fn page_url(&self) -> String {
        self.registry
            .with(&self.raw_id, |t| t.url.clone())
            .unwrap_or_default()
    }

    pub async fn get_cookies(&mut self, urls: Vec<String>) -> BpResult<Vec<Cookie>> {
        self.check()?;
        let urls = if urls.is_empty() {
            vec![self.page_url()]
        } else {
            urls
        };
        let reply = self
            .send("Network.getCookies", json!({"urls": urls}))
            .await?;
        Ok(reply["cookies"]
            .as_array()
            .into_iter()
            .flatten()
            .map(|c| Cookie {
                name: c["name"].as_str().unwrap_or_default().to_string(),
                value: c["value"].as_str().unwrap_or_default().to_string(),
                domain: c["domain"].as_str().unwrap_or_default().to_string(),
                path: c["path"].as_str().unwrap_or_default().to_string(),
                expires: c["expires"].as_f64().filter(|e| *e > 0.0),
                http_only: c["httpOnly"].as_bool().unwrap_or(false),
                secure: c["secure"].as_bool().unwrap_or(false),
                same_site: c["sameSite"].as_str().map(str::to_string),
            })
            .collect())
    }

    pub async fn set_cookies(&mut self, cookies: Vec<Cookie>) -> BpResult<u32> {
        self.check()?;
        let url = self.page_url();
        let params: Vec<Value> = cookies
            .iter()
            .map(|c| {
                let mut v = json!({"name": c.name, "value": c.value, "path": c.path, "httpOnly": c.http_only, "secure": c.secure});
                if c.domain.is_empty() {
                    v["url"] = json!(url);
                } else {
                    v["domain"] = json!(c.domain);
                }
                if let Some(e) = c.expires {
                    v["expires"] = json!(e);
                }
                if let Some(s) = &c.same_site {
                    v["sameSite"] = json!(s);
                }
                v
            })
            .collect();
        self.mark_dispatched();
        self.send("Network.setCookies", json!({"cookies": params}))
            .await
            .map_err(|_| {
                BpError::invalid("the browser refused a cookie (check domain, path and flags)")
            })?;
        Ok(cookies.len() as u32)
    }

    pub async fn clear_cookies(&mut self) -> BpResult<u32> {
        let current = self.get_cookies(Vec::new()).await?;
        self.mark_dispatched();
        for c in &current {
            self.send(
                "Network.deleteCookies",
                json!({"name": c.name, "domain": c.domain, "path": c.path}),
            )
            .await?;
        }
        Ok(current.len() as u32)
    }

    pub async fn evaluate(&mut self, expression: &str) -> BpResult<String> {
        self.check()?;
        self.mark_dispatched();
        let reply = self
            .send(
                "Runtime.evaluate",
                json!({"expression": expression, "returnByValue": true, "awaitPromise": true, "userGesture": true}),
            )
            .await?;
        if reply.get("exceptionDetails").is_some() {
            // The exception text is page data: keep it out of the error.
            return Err(BpError::new(
                Code::InvalidArgument,
                "the expression threw an exception",
            ));
        }
        Ok(reply["result"]
            .get("value")
            .cloned()
            .unwrap_or(Value::Null)
            .to_string())
    }
}
