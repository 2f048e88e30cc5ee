//! Saved sign-in state of a [`WorkspaceCall`]: save the browser's cookies
//! and the local storage of the origins the workspace's tabs show into a
//! `state` artifact (sensitivity `secret`), and load such a file into the
//! connected browser. For the `state-save` and `state-load` capabilities.
//! No value read or loaded here goes into a message, a log or an event.

use crate::browser::dom_storage;
use crate::browser::workspace::state_file::{cookie_entry, OriginStorage, SavedState};
use crate::browser::workspace::WorkspaceCall;
use crate::error::{BpError, BpResult, Code};
use crate::store::artifacts::NewArtifact;
use chromiumoxide::cdp::browser_protocol::{emulation, network, page, storage, target};
use serde_json::{json, Value};
use std::time::{Duration, Instant};

/// What a save wrote.
pub struct SavedSummary {
    pub artifact_id: String,
    pub bytes: u64,
    pub cookies: u32,
    pub origins: Vec<String>,
}

/// What a load put into the browser, read back.
pub struct LoadedSummary {
    pub cookies: u32,
    pub origins: Vec<String>,
    pub items: u32,
}

/// How long a page opened to load an origin's storage may take to show it.
const ORIGIN_OPEN: Duration = Duration::from_secs(10);

fn count(n: usize) -> u32 {
    u32::try_from(n).unwrap_or(u32::MAX)
}

fn now_ms() -> u64 {
    std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)
        .map(|d| d.as_millis() as u64)
        .unwrap_or(0)
}

impl WorkspaceCall {
    /// The page sessions and URLs of the tabs the workspace controls.
    fn controlled_pages(&self) -> Vec<(String, String)> {
        self.controlled
            .iter()
            .filter_map(|(raw, _)| {
                self.registry
                    .with(raw, |t| t.session.clone().map(|s| (s, t.url.clone())))
                    .flatten()
            })
            .collect()
    }

    /// The cookies a save keeps: all of a broker-launched browser's; of
    /// the user's own browser, only those the workspace's tabs would send.
    async fn cookies_to_save(&self, pages: &[(String, String)]) -> BpResult<Vec<Value>> {
        let reply = if self.launched {
            self.cdp
                .send_raw(&storage::GetCookiesParams::default(), None)
                .await?
        } else {
            let urls: Vec<&str> = pages.iter().map(|(_, u)| u.as_str()).collect();
            match pages.first() {
                Some((session, _)) => {
                    let get = network::GetCookiesParams {
                        urls: Some(urls.iter().map(|u| u.to_string()).collect()),
                    };
                    self.cdp.send_raw(&get, Some(session)).await?
                }
                None => json!({}),
            }
        };
        Ok(reply["cookies"]
            .as_array()
            .into_iter()
            .flatten()
            .map(cookie_entry)
            .collect())
    }

    /// Save the workspace's state as a `state` artifact.
    pub async fn save_state(&mut self) -> BpResult<SavedSummary> {
        self.check()?;
        let pages = self.controlled_pages();
        let cookies = self.cookies_to_save(&pages).await?;
        let mut origins: Vec<OriginStorage> = Vec::new();
        for (session, url) in &pages {
            let Some(origin) = dom_storage::origin_of(url) else {
                continue;
            };
            if origins.iter().any(|o| o.origin == origin) {
                continue;
            }
            let items = dom_storage::read(&self.cdp, session, &origin, true).await?;
            origins.push(OriginStorage { origin, items });
        }
        let state = SavedState { cookies, origins };
        let bytes = state.to_bytes(now_ms())?;
        let new = NewArtifact {
            workspace_id: &self.caller.workspace_id,
            kind: "state",
            mime: "application/json",
            filename: None,
            width: None,
            height: None,
            preview_of: None,
        };
        let d = self.artifacts.create(new, &bytes)?;
        Ok(SavedSummary {
            artifact_id: crate::browser::workspace::artifact_id(&d),
            bytes: d["bytes"].as_u64().unwrap_or(0),
            cookies: count(state.cookies.len()),
            origins: state.origins.into_iter().map(|o| o.origin).collect(),
        })
    }

    /// Load the saved state in artifact `id` into the browser: checked
    /// whole first, then its cookies, then each origin's local storage,
    /// each read back.
    pub async fn load_state(&mut self, id: &str) -> BpResult<LoadedSummary> {
        self.check()?;
        if let Some(refusal) = &self.state_load_refusal {
            return Err(refusal.clone());
        }
        // A missing or expired artifact is the caller's argument (a tool
        // error has no artifact codes).
        let bytes = self
            .artifacts
            .state_bytes(&self.caller.workspace_id, id)
            .map_err(|e| match e.code {
                Code::ArtifactNotFound | Code::ArtifactExpired => BpError::invalid(e.message),
                _ => e,
            })?;
        let state = SavedState::parse(&bytes)?;
        self.mark_dispatched();
        let cookies = self.load_cookies(&state.cookies).await?;
        let mut origins = Vec::new();
        let mut items = 0;
        for o in state.origins.iter().filter(|o| !o.items.is_empty()) {
            items += self.load_origin(o).await?;
            origins.push(o.origin.clone());
        }
        Ok(LoadedSummary {
            cookies,
            origins,
            items,
        })
    }

    /// Set `cookies` in the browser, then count how many it holds as set.
    async fn load_cookies(&self, cookies: &[Value]) -> BpResult<u32> {
        if cookies.is_empty() {
            return Ok(0);
        }
        let refused = || BpError::invalid("the browser refused a cookie of the saved state");
        let params: Vec<network::CookieParam> = cookies
            .iter()
            .map(|c| serde_json::from_value(c.clone()).map_err(|_| refused()))
            .collect::<BpResult<_>>()?;
        self.cdp
            .send(&storage::SetCookiesParams::new(params), None)
            .await
            .map_err(|_| refused())?;
        let now = self
            .cdp
            .send_raw(&storage::GetCookiesParams::default(), None)
            .await?;
        let held: Vec<Value> = now["cookies"]
            .as_array()
            .into_iter()
            .flatten()
            .map(cookie_entry)
            .collect();
        let key = |c: &Value| {
            (
                c["name"].clone(),
                c["domain"].clone(),
                c["path"].clone(),
                c["value"].clone(),
            )
        };
        let set = cookies
            .iter()
            .filter(|c| held.iter().any(|h| key(h) == key(c)))
            .count();
        if set < cookies.len() {
            return Err(not_loaded("cookies", cookies.len() - set));
        }
        Ok(count(set))
    }

    /// Set one origin's local storage through a page of that origin the
    /// broker opens in the background and closes again; returns how many
    /// items it read back.
    async fn load_origin(&self, o: &OriginStorage) -> BpResult<u32> {
        let mut open = target::CreateTargetParams::new("about:blank");
        open.background = Some(true);
        let raw = self.cdp.send(&open, None).await?.target_id;
        let result = self.fill_origin(&raw, o).await;
        let close = target::CloseTargetParams::new(raw);
        let _ = self.cdp.send(&close, None).await;
        result
    }

    async fn fill_origin(&self, raw: &target::TargetId, o: &OriginStorage) -> BpResult<u32> {
        let mut attach = target::AttachToTargetParams::new(raw.clone());
        attach.flatten = Some(true);
        let attached = self.cdp.send(&attach, None).await?;
        let session: &str = attached.session_id.as_ref();
        // The origin's own page must not run while its storage is filled
        // (an app could read or clear it): scripts are off in this page.
        let no_script = emulation::SetScriptExecutionDisabledParams::new(true);
        self.cdp.send(&no_script, Some(session)).await?;
        let url = format!("{}/", o.origin);
        self.cdp
            .send_raw(&page::NavigateParams::new(url), Some(session))
            .await?;
        self.wait_for_origin(session, &o.origin).await?;
        for (k, v) in &o.items {
            dom_storage::set(&self.cdp, session, &o.origin, true, k, v).await?;
        }
        let held = dom_storage::read(&self.cdp, session, &o.origin, true).await?;
        let missing = o.items.iter().filter(|it| !held.contains(it)).count();
        if missing > 0 {
            return Err(not_loaded("local storage items", missing));
        }
        Ok(count(o.items.len()))
    }

    /// Wait, bounded, until the page of `session` shows a document of
    /// `origin` (as the browser reports its main frame: no page script).
    async fn wait_for_origin(&self, session: &str, origin: &str) -> BpResult<()> {
        let start = Instant::now();
        loop {
            let reply = self
                .cdp
                .send_raw(&page::GetFrameTreeParams::default(), Some(session))
                .await;
            if let Ok(r) = reply {
                let frame = &r["frameTree"]["frame"];
                let url = frame["url"].as_str().unwrap_or_default();
                if dom_storage::origin_of(url).as_deref() == Some(origin)
                    && frame["loaderId"].is_string()
                {
                    return Ok(());
                }
            }
            if start.elapsed() >= ORIGIN_OPEN {
                return Err(BpError::new(
                    Code::ActionNotVerified,
                    format!("could not open {origin} to load its local storage"),
                )
                .with_context(json!({"reason": "origin_not_reached", "origin": origin})));
            }
            tokio::time::sleep(Duration::from_millis(50)).await;
        }
    }
}

fn not_loaded(what: &str, missing: usize) -> BpError {
    BpError::new(
        Code::ActionNotVerified,
        format!("the browser does not show {missing} of the saved state's {what}"),
    )
    .with_context(json!({"reason": "state_not_loaded"}))
}
