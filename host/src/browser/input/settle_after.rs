//! Settling after an action, as the caller asks: `none`, `dom` (a short
//! quiet in the DOM) or `network` (the requests the action started have
//! finished, then that quiet).
//!
//! Armed before the action: the count of requests the page had started
//! by then (`registry/in_flight.rs`, no page call) and, for `dom`, a
//! `MutationObserver` on the main document (`js::OBSERVE`). The observer
//! is installed by a page call the action makes anyway where there is one
//! (revalidating a main-frame ref, the focusing call of a type, an
//! actionability check), else by a call of its own just before the input.
//!
//! After the action, `network` looks at the requests started since it was
//! armed, without a page call. None started: settled at once (what the
//! action changed in the DOM synchronously, its read after the input
//! already shows). Else it waits for them to finish, then one page call
//! ([`quiet_js`]) puts the observer in place and waits for a quiet DOM,
//! as the answers' handlers update it. `dom` reads the observer in one
//! page call, which returns at once when it counted nothing; where the
//! action's own read after the input (a click's, a type's read-back:
//! `js::NODE_STATE` reads the count) saw no mutation and nothing was sent
//! since, not even that call is made.
//!
//! A DOM that never goes quiet (a clock ticking every few milliseconds)
//! ends the quiet wait after [`MAX_QUIET_MS`]; the observer disconnects
//! itself 15 s after it was installed if no settle read it.

use crate::browser::call::state::SettleArm;
use crate::browser::call::wire::evaluate_by_value;
use crate::browser::call::TargetCall;
use crate::browser::js;
use crate::browser::types::{SettleMode, SettleReport};
use crate::error::BpResult;
use serde_json::json;
use std::time::{Duration, Instant};

/// The longest settle a caller may ask for, and the default.
pub const MAX_SETTLE_MS: u32 = 2_000;
/// How long the DOM must stay without mutations to count as quiet.
const QUIET_MS: u32 = 100;
/// The longest the DOM quiet is waited for.
pub const MAX_QUIET_MS: u32 = 1_000;
/// The longest the page round trip before settling may take.
const BARRIER_LIMIT: Duration = Duration::from_secs(2);
/// Pause between looks at the requests in flight (no page call).
const REQUEST_POLL: Duration = Duration::from_millis(10);

/// Wait in the page until the DOM has been quiet for `quiet` ms, at most
/// `max` ms; with no mutation, at once. When `fresh` (the requests an
/// action started have finished) the observer is put in place now and the
/// quiet counts from now. Disconnects the observer.
fn quiet_js(quiet: u32, max: u32, fresh: bool) -> String {
    let observe = js::OBSERVE;
    format!(
        "(async () => {{
  if ({fresh}) {observe};
  const s = window[Symbol.for('browser-pilot.settle')];
  if (!s || !s.o) return {{installed: false, quiet: true, n: 0}};
  const t0 = performance.now(), from = {fresh} ? t0 : 0;
  let quiet = true;
  if ({fresh} || s.n > 0) for (;;) {{
    const now = performance.now(), still = now - Math.max(s.last, from);
    if (still >= {quiet}) break;
    if (now - t0 >= {max}) {{ quiet = false; break; }}
    await new Promise(r => setTimeout(r, Math.max(1, Math.min({quiet} - still, {max} - (now - t0)))));
  }}
  s.o.disconnect();
  return {{installed: true, quiet, n: s.n}};
}})()"
    )
}

impl TargetCall {
    /// Arm settling for the action that follows (no page call).
    pub fn settle_arm(&mut self, mode: SettleMode) -> BpResult<()> {
        self.check()?;
        let requests_from = self
            .registry
            .with(&self.raw_id, |t| t.requests.started)
            .unwrap_or(0);
        self.input.settle_arm = Some(SettleArm {
            mode,
            requests_from,
        });
        Ok(())
    }

    /// [`TargetCall::settle_arm`], with the observer put in place now (for
    /// `dom`): for input sent by other means than this call's own input
    /// functions, which put it in place as they send.
    pub async fn settle_arm_now(&mut self, mode: SettleMode) -> BpResult<()> {
        self.settle_arm(mode)?;
        self.ensure_observer().await;
        Ok(())
    }

    /// Before input goes out: make sure the main document has the settle
    /// observer, when armed for it and no page call of this action
    /// installed it in this document.
    pub(in crate::browser) async fn ensure_observer(&mut self) {
        let Some(arm) = self.input.settle_arm else {
            return;
        };
        let doc = self.doc().0;
        // Only `dom` counts mutations from before the input (`network`
        // puts the observer in place once the requests have finished).
        if arm.mode != SettleMode::Dom || self.input.observer_doc == Some(doc) || self.doc().2 {
            return;
        }
        if self.cmd_raw(&evaluate_by_value(js::OBSERVE)).await.is_ok() {
            self.input.observer_doc = Some(doc);
        }
    }

    /// A page call of this action installed the observer (`js::OBSERVE`).
    pub(in crate::browser) fn observer_installed(&mut self) {
        self.input.observer_doc = Some(self.doc().0);
    }

    /// Settle as armed, for at most `max_ms`: see the module notes.
    pub async fn settle_after(&mut self, max_ms: u32) -> BpResult<SettleReport> {
        self.check()?;
        let start = Instant::now();
        let Some(arm) = self.input.settle_arm.take() else {
            return Ok(SettleReport::settled(0));
        };
        if arm.mode == SettleMode::None {
            return Ok(SettleReport::settled(0));
        }
        let max = Duration::from_millis(u64::from(max_ms.min(MAX_SETTLE_MS)));
        let (started, mut open) = self.requests_since(arm.requests_from);
        let network = arm.mode == SettleMode::Network;
        let unchanged = self.input.mutations_seen == Some((0, self.cdp.commands_sent()));
        // `network` with no request started: what the action changed in
        // the DOM it changed before its read after the input, which shows
        // it. `dom` with no mutation seen by that read: nothing to wait for.
        if (network && started == 0) || (!network && unchanged) {
            self.input.observer_doc = None;
            return Ok(SettleReport::settled(0));
        }
        if network {
            while open > 0 && start.elapsed() < max && !self.doc().2 {
                tokio::time::sleep(REQUEST_POLL.min(max - start.elapsed())).await;
                self.check()?;
                open = self.requests_since(arm.requests_from).1;
            }
        }
        let mut quiet = true;
        if !self.doc().2 {
            let left = max.saturating_sub(start.elapsed()).as_millis() as u32;
            let left = left.min(MAX_QUIET_MS);
            let expression = quiet_js(QUIET_MS, left, network);
            let mut wait = evaluate_by_value(&expression);
            wait.await_promise = Some(true);
            if let Ok(reply) = self.cmd_raw(&wait).await {
                quiet = reply["result"]["value"]["quiet"] != json!(false);
            }
        }
        if arm.mode == SettleMode::Network {
            open = self.requests_since(arm.requests_from).1;
        } else {
            open = 0;
        }
        self.input.observer_doc = None;
        let waited_ms = start.elapsed().as_millis() as u32;
        Ok(SettleReport {
            settled: quiet && open == 0,
            requests: open,
            waited_ms,
        })
    }

    /// [`TargetCall::settle_after`] for input sent without a read of the
    /// page after it (a pointer move, a drag's release, a select's
    /// events, a wheel): a request the input started is announced by the
    /// page, on another path than the input's own reply, so when none has
    /// been seen yet one round trip through the page comes first.
    pub async fn settle_after_barrier(&mut self, max_ms: u32) -> BpResult<SettleReport> {
        if let Some(arm) = self.input.settle_arm {
            let none_yet = self.requests_since(arm.requests_from).0 == 0;
            if arm.mode == SettleMode::Network && none_yet && !self.doc().2 {
                // Only the round trip counts: the reply is not read.
                let barrier = evaluate_by_value("0");
                let _ = self
                    .cdp
                    .send_timeout(&barrier, Some(&self.session), BARRIER_LIMIT)
                    .await;
            }
        }
        self.settle_after(max_ms).await
    }

    /// Requests started since serial `from`, and how many are unfinished.
    fn requests_since(&self, from: u64) -> (u64, u32) {
        self.registry
            .with(&self.raw_id, |t| {
                (
                    t.requests.started.saturating_sub(from),
                    t.requests.open_since(from),
                )
            })
            .unwrap_or((0, 0))
    }
}

impl TargetCall {
    /// A main-frame node read saw the settle observer's count `seen`.
    pub(in crate::browser) fn note_mutations(&mut self, seen: Option<u64>) {
        self.input.mutations_seen = seen.map(|n| (n, self.cdp.commands_sent()));
    }
}
