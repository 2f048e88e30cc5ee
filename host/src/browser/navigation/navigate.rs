//! Navigation: `goto`, reload, back and forward, and the waits for the
//! page to get where it was sent.
//!
//! A navigation to another document is followed until its loader's
//! document has loaded. One within the document (a fragment, or history
//! entries a script pushed) has no loader, and Chromium answers it before
//! the page has moved; the page reports the move itself
//! (`Page.navigatedWithinDocument`), which is what the wait looks for.

use crate::browser::call::wire::Wire;
use crate::browser::call::TargetCall;
use crate::browser::registry::TargetState;
use crate::browser::types::{HistoryAction, NavResult};
use crate::error::{BpError, BpResult, Code, StaleReason};
use chromiumoxide::cdp::browser_protocol::page::{
    GetNavigationHistoryParams, NavigateParams, NavigateToHistoryEntryParams, ReloadParams,
};
use serde_json::{json, Value};
use std::time::Duration;

/// Longest wait for a page load after an action or navigation.
const LOAD_WAIT: Duration = Duration::from_secs(20);
/// Longest wait for the navigation an accepted `beforeunload` dialog let
/// go to commit, before another navigation is sent.
const LEAVING_WAIT: Duration = Duration::from_secs(10);
/// Longest wait for a move within the document a `goto` asked for.
const WITHIN_DOCUMENT_WAIT: Duration = Duration::from_secs(1);

impl TargetCall {
    /// Where the main frame stands: (documents committed, moves within a
    /// document). A navigation is seen once either changes.
    pub(in crate::browser) fn nav_marks(&self) -> (u64, u64) {
        self.registry
            .with(&self.raw_id, |t| (t.doc_gen, t.same_doc_navs))
            .unwrap_or((0, 0))
    }

    /// Wait until the main frame has loaded: a document other than the
    /// one `from` saw (or a move within it), or `loader`'s.
    pub(in crate::browser) async fn wait_loaded(
        &self,
        from: Option<(u64, u64)>,
        loader: Option<&str>,
    ) -> BpResult<()> {
        let arrived = |t: &TargetState| {
            let new_doc = from.is_none_or(|(d, m)| t.doc_gen != d || t.same_doc_navs != m);
            let right_loader = loader.is_none_or(|l| t.loader.as_deref() == Some(l));
            let loaded = t.loaded_loader == t.loader && !t.loading;
            // The navigation's own document loaded, though the page may
            // have moved on since.
            let own_loaded = loader.is_some_and(|l| t.recent_loaded.iter().any(|r| r == l));
            new_doc && right_loader && loaded || own_loaded
        };
        if self.wait_main_frame(LOAD_WAIT, arrived).await? {
            return Ok(());
        }
        Err(
            BpError::new(Code::UnknownOutcome, "the page did not finish loading").with_context(
                json!({"action": "navigate", "step": "wait_for_load", "reason": "navigation_stalled"}),
            ),
        )
    }

    /// Wait up to `wait` for the main frame to have `arrived`; `false`
    /// when it has not by then. A dialog that opens ends the wait (the
    /// page is paused); a target that closes or crashes is an error.
    async fn wait_main_frame(
        &self,
        wait: Duration,
        arrived: impl Fn(&TargetState) -> bool,
    ) -> BpResult<bool> {
        let mut rx = self
            .registry
            .watch(&self.raw_id)
            .ok_or_else(|| BpError::stale(StaleReason::TargetClosed))?;
        let deadline = tokio::time::Instant::now() + wait;
        loop {
            let crashed_at_start = self.crashed_at_start;
            let done = self
                .registry
                .with(&self.raw_id, |t| {
                    if t.closed {
                        return Some(Err(BpError::stale(StaleReason::TargetClosed)));
                    }
                    // A crash while waiting: this load will not come.
                    if t.crashed && !crashed_at_start {
                        return Some(Err(crate::cdp::errors::crashed()));
                    }
                    (arrived(t) || t.dialog_open).then_some(Ok(()))
                })
                .flatten();
            if let Some(r) = done {
                return r.map(|()| true);
            }
            match tokio::time::timeout_at(deadline, rx.changed()).await {
                Ok(Ok(())) => {}
                Ok(Err(_)) => return Err(BpError::stale(StaleReason::TargetClosed)),
                Err(_) => return Ok(false),
            }
        }
    }

    /// Wait for a move within the document to `url`, the page's own
    /// report of a `goto` that loads nothing. Any other move (a script's
    /// `pushState` meanwhile) is not it. The page may refuse the move
    /// (the Navigation API lets a script cancel it), so the wait is short
    /// and its end is no error: the answer says where the page is.
    async fn wait_moved_to(&self, from: (u64, u64), url: &str) -> BpResult<()> {
        // As the browser reports URLs: parsed, and redacted as it is.
        let want = url::Url::parse(url).map_or_else(|_| url.to_string(), |u| u.to_string());
        let want = crate::sanitize::redact::url(&want);
        let arrived =
            |t: &TargetState| t.doc_gen != from.0 || (t.same_doc_navs != from.1 && t.url == want);
        if !self.wait_main_frame(WITHIN_DOCUMENT_WAIT, arrived).await? {
            tracing::debug!("the page did not move to {want} within the document");
        }
        Ok(())
    }

    /// After an accepted `beforeunload` dialog, wait (bounded) until the
    /// navigation it let go has committed or stopped. Chromium asks the
    /// leaving document's `beforeunload` again for a navigation started
    /// in that window, and when that document is replaced meanwhile the
    /// answer never comes: `Page.navigate` would hang unanswered.
    async fn wait_left(&self) -> BpResult<()> {
        let leaving = self.registry.with(&self.raw_id, |t| t.leaving);
        if leaving != Some(true) {
            return Ok(());
        }
        if !self.wait_main_frame(LEAVING_WAIT, |t| !t.leaving).await? {
            tracing::debug!("the navigation a beforeunload answer let go has not committed");
        }
        Ok(())
    }

    pub async fn goto(&mut self, url: &str) -> BpResult<NavResult> {
        self.check()?;
        // Defence in depth: whatever a component validated, the host never
        // runs script URLs or opens browser-internal pages.
        let scheme = url
            .split_once(':')
            .map(|(s, _)| s.to_ascii_lowercase())
            .unwrap_or_default();
        if !matches!(
            scheme.as_str(),
            "http" | "https" | "file" | "about" | "data"
        ) {
            return Err(BpError::invalid(format!(
                "the host refuses `{scheme}:` URLs"
            )));
        }
        self.wait_left().await?;
        let marks = self.nav_marks();
        self.mark_dispatched();
        let reply = self
            .navigation_step("goto", Wire::of(&NavigateParams::new(url))?)
            .await?;
        if let Some(err) = reply["errorText"].as_str().filter(|e| !e.is_empty()) {
            return Err(
                BpError::new(Code::ActionNotVerified, format!("navigation failed: {err}"))
                    .with_context(json!({"reason": "navigation_failed", "error": err})),
            );
        }
        match reply["loaderId"].as_str() {
            Some(loader) => self.wait_loaded(None, Some(loader)).await?,
            // Within the document (a fragment): answered before the page
            // has moved, which it reports as it does.
            None => self.wait_moved_to(marks, url).await?,
        }
        Ok(self.nav_result().await)
    }

    pub async fn history(&mut self, action: HistoryAction) -> BpResult<NavResult> {
        self.check()?;
        self.wait_left().await?;
        let marks = self.nav_marks();
        match action {
            HistoryAction::Reload => {
                self.mark_dispatched();
                let reload = Wire::of(&ReloadParams::default())?;
                self.navigation_step("reload", reload).await?;
            }
            HistoryAction::Back | HistoryAction::Forward => {
                let h = self.cmd(&GetNavigationHistoryParams::default()).await?;
                let current = h.current_index;
                let target = if matches!(action, HistoryAction::Back) {
                    current - 1
                } else {
                    current + 1
                };
                let entry = usize::try_from(target)
                    .ok()
                    .and_then(|i| h.entries.get(i))
                    .ok_or_else(|| {
                        BpError::invalid("there is no history entry in that direction")
                    })?;
                self.mark_dispatched();
                let go = Wire::of(&NavigateToHistoryEntryParams::new(entry.id))?;
                self.navigation_step("history", go).await?;
            }
        }
        self.wait_loaded(Some(marks), None).await?;
        Ok(self.nav_result().await)
    }

    /// A navigation step that a dialog (such as `beforeunload`) paused:
    /// whether it goes ahead depends on the answer.
    pub(in crate::browser) async fn navigation_step(
        &self,
        step: &str,
        cmd: Wire,
    ) -> BpResult<Value> {
        match self.send_unless_dialog(&self.session, cmd).await? {
            Some(reply) => Ok(reply),
            None if !self.doc().2 => Err(BpError::stale(StaleReason::TargetClosed)),
            None => Err(BpError::new(
                Code::UnknownOutcome,
                "a JavaScript dialog opened during the navigation (for example beforeunload); answer it with browser.dialogs.respond",
            )
            .with_context(json!({"action": "navigate", "step": step, "reason": "dialog_opened",
                                 "dispatchedSteps": 1, "remainingStepsStopped": 0}))),
        }
    }
}
