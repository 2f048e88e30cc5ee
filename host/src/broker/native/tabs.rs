//! The broker's side of the `tabs-manage` capability: the workspace's
//! ManagedTabSet. Tabs it opens belong to the workspace; bulk closing only
//! touches that set, and a user tab closes only when named.

use crate::broker::call::types::{raw_target, CallScope, NestedCall};
use crate::broker::Broker;
use crate::browser::workspace::tabs::{OpenedTab, TabsFuture, TabsHost};
use crate::error::{BpError, BpResult, Code, StaleReason};
use crate::ids::{RawTargetId, TabId};
use chromiumoxide::cdp::browser_protocol::target::{ActivateTargetParams, TargetId};
use serde_json::json;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::Arc;

/// Marks a tab creation unwanted when the call waiting for it is dropped.
struct Abandoned(Arc<AtomicBool>);

impl Drop for Abandoned {
    fn drop(&mut self) {
        self.0.store(false, Ordering::SeqCst);
    }
}

/// Tab management bound to one call's workspace and lease.
#[derive(Clone)]
pub struct BrokerTabs {
    pub broker: Arc<Broker>,
    pub scope: CallScope,
    /// Set before the first browser mutation (shared with the command).
    pub dispatched: Arc<AtomicBool>,
    /// How a navigation of the new tab runs (through the call pipeline,
    /// which this file does not import).
    pub nested: NestedCall,
}

impl BrokerTabs {
    /// The calling lease must still be live.
    fn live(&self, st: &mut crate::broker::state::State) -> BpResult<()> {
        let s = &self.scope;
        st.live_lease(&s.principal, &s.workspace_id, &s.lease_id)
            .map(|_| ())
    }

    async fn open_tab(&self, url: Option<String>) -> BpResult<OpenedTab> {
        let (broker, scope) = (&self.broker, &self.scope);
        // Refuse before creating anything when a call this one makes on
        // its own behalf (the navigation of its URL) is denied.
        let args = json!({"url": url});
        for nested in crate::granter::Granter::nested_calls("browser.tabs.open", &args) {
            match broker.runtime.tool(nested) {
                Some(t) if !broker.runtime.callable(t) => return Err(broker.runtime.denial(t)),
                None => return Err(BpError::invalid(format!("no component offers `{nested}`"))),
                _ => {}
            }
        }
        // A URL out of the workspace's origin scope creates nothing.
        if let Some(u) = &url {
            crate::broker::watch::scopeflow::refuse_url(broker, &scope.workspace_id, None, u)?;
        }
        // Creating the tab and making it the workspace's runs to its end
        // even if the call is dropped (cancel, deadline): a tab half made
        // would be left as nobody's. A call dropped before creation began
        // creates nothing (see `Abandoned`).
        let wanted = Arc::new(AtomicBool::new(true));
        let _abandoned_on_drop = Abandoned(wanted.clone());
        let me = self.clone();
        let public = tokio::spawn(async move { me.create_managed(&wanted).await })
            .await
            .map_err(|e| BpError::internal(format!("tab creation stopped: {e}")))??;
        let mut opened = OpenedTab {
            target_id: public.clone(),
            url: "about:blank".into(),
            title: String::new(),
            status: None,
            origin: "managed".into(),
        };
        if let Some(url) = url {
            let nav = json!({"targetId": public, "url": url});
            let r = (self.nested)(broker.clone(), scope.clone(), "browser.navigate", nav).await?;
            if let Some(u) = r["url"].as_str() {
                opened.url = u.to_string();
            }
            opened.title = r["title"].as_str().unwrap_or_default().to_string();
            opened.status = r["status"].as_u64().and_then(|s| u16::try_from(s).ok());
        }
        Ok(opened)
    }

    /// Create a tab and add it to the workspace's ManagedTabSet, under
    /// the calling lease's control; returns its public ID.
    async fn create_managed(&self, wanted: &AtomicBool) -> BpResult<String> {
        let (broker, scope) = (&self.broker, &self.scope);
        let conn = broker.browser().await?;
        // Creation is ordered before the target.attached pump, so the new
        // tab is never announced to another workspace.
        let creating = broker.creation.lock().await;
        if !wanted.load(Ordering::SeqCst) {
            return Err(BpError::new(
                Code::CommandCancelled,
                "the call was dropped before the tab was created",
            ));
        }
        let member = {
            let mut st = broker.state();
            self.live(&mut st)?;
            let ws = st.workspace(&scope.principal, &scope.workspace_id)?;
            // A tab the workspace opened itself (popup windows have no tab
            // strip), the current one first.
            let current = ws.current_target.as_ref().and_then(|p| ws.targets.get(p));
            let mut members: Vec<&String> = ws
                .managed
                .iter()
                .filter(|r| !ws.popups.contains(*r))
                .collect();
            members.sort_by_key(|r| {
                (
                    Some(r.as_str()) != current.map(|c| c.as_str()),
                    (*r).clone(),
                )
            });
            members
                .into_iter()
                .find(|r| conn.registry.with(r, |t| !t.closed).unwrap_or(false))
                .cloned()
        };
        self.dispatched.store(true, Ordering::SeqCst);
        // The first tab of a ManagedTabSet gets its own window. CDP cannot
        // name a window for later tabs; Chromium puts a new tab in the
        // last active window, so bring a member of the set forward first.
        if let Some(member) = &member {
            let activate = ActivateTargetParams::new(TargetId::new(member.as_str()));
            let _ = conn.cdp.send(&activate, None).await;
        }
        let raw = conn.create_tab(member.is_none()).await?;
        if member.is_none() {
            // A new window of a launched browser names its client.
            super::pilot::open_beside(broker, scope, &conn, &raw).await;
        }
        let public = {
            let mut st = broker.state();
            st.acquire(&scope.lease_id, &raw)?;
            let ws = st.workspace(&scope.principal, &scope.workspace_id)?;
            ws.managed.insert(raw.clone());
            let id = ws.public_id(&raw);
            ws.current_target = Some(id.clone());
            id
        };
        drop(creating);
        Ok(public.into_string())
    }

    /// Close `raws` (already authorised) and forget them; returns their
    /// public IDs.
    async fn close_raws(&self, raws: Vec<(RawTargetId, TabId)>) -> BpResult<Vec<String>> {
        let conn = self.broker.browser().await?;
        let mut closed = Vec::new();
        let mut failed = None;
        for (raw, public) in raws {
            // Already gone: nothing to close, only to forget.
            let open = conn.registry.with(&raw, |t| !t.closed).unwrap_or(false);
            if open {
                self.dispatched.store(true, Ordering::SeqCst);
                if let Err(e) = conn.close_target(&raw).await {
                    // Keep closing the rest; report the first failure.
                    failed.get_or_insert(e);
                    continue;
                }
                conn.registry.update(&raw, |t| t.closed = true);
            }
            let mut st = self.broker.state();
            if let Some(lease) = st.controllers.get(raw.as_str()).cloned() {
                st.release_target(&lease, &raw);
            }
            if let Ok(ws) = st.workspace(&self.scope.principal, &self.scope.workspace_id) {
                ws.managed.remove(raw.as_str());
                ws.popups.remove(raw.as_str());
                if ws.current_target.as_deref() == Some(public.as_str()) {
                    ws.current_target = None;
                }
            }
            if open {
                closed.push(public.into_string());
            }
        }
        match failed {
            None => Ok(closed),
            Some(e) if closed.is_empty() => Err(e),
            // Say which ones did close: the error alone would hide that.
            Some(e) => Err(BpError::new(
                e.code,
                format!(
                    "closed {} but not every tab: {}",
                    closed.join(", "),
                    e.message
                ),
            )),
        }
    }

    async fn close_one(&self, public: String) -> BpResult<Vec<String>> {
        let raw = {
            let mut st = self.broker.state();
            self.live(&mut st)?;
            let raw = raw_target(&mut st, &self.scope, &public)?;
            match st.controllers.get(raw.as_str()) {
                Some(l) if *l != self.scope.lease_id => {
                    return Err(BpError::new(
                        Code::TargetBusy,
                        "another lease controls this target; it cannot be closed from here",
                    ))
                }
                _ => raw,
            }
        };
        let conn = self.broker.browser().await?;
        if !conn.registry.with(&raw, |t| !t.closed).unwrap_or(false) {
            return Err(BpError::stale(StaleReason::TargetClosed));
        }
        self.close_raws(vec![(raw, TabId::new(public))]).await
    }

    async fn close_set(&self) -> BpResult<Vec<String>> {
        let raws = {
            let mut st = self.broker.state();
            self.live(&mut st)?;
            let ws = st.workspace(&self.scope.principal, &self.scope.workspace_id)?;
            let mut raws: Vec<String> = ws.managed.iter().cloned().collect();
            raws.sort();
            raws.into_iter()
                .map(|r| {
                    let p = ws.public_id(&r);
                    (RawTargetId::new(r), p)
                })
                .collect()
        };
        self.close_raws(raws).await
    }
}

impl TabsHost for BrokerTabs {
    fn open(&self, url: Option<String>) -> TabsFuture<'_, OpenedTab> {
        Box::pin(self.open_tab(url))
    }

    fn close(&self, target_id: String) -> TabsFuture<'_, Vec<String>> {
        Box::pin(self.close_one(target_id))
    }

    fn close_managed(&self) -> TabsFuture<'_, Vec<String>> {
        Box::pin(self.close_set())
    }
}
