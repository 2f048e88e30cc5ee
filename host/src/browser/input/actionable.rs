//! Actionability: before input goes to a node, wait (bounded) until it is
//! attached, visible, stable, enabled and, for a pointer, not covered.
//!
//! Each check is one page call ([`ACTIONABLE`]). It waits for animation
//! frames only while an animation runs in the document: with none
//! running, the node's box cannot move between frames, so a node that is
//! ready costs that one call and no wait. A main-frame node that
//! revalidating its ref already found ready (in view, enabled, nothing
//! animating, its centre hitting it: `js::revalidate_main`) costs
//! nothing more. A refusal after the wait names the condition that failed
//! last: `detached`, `not_visible`, `disabled`, `moving` or `covered`
//! (with the covering element, as the hit test names it).

use crate::browser::call::state::Resolved;
use crate::browser::call::TargetCall;
use crate::browser::js;
use crate::browser::types::{NodeHandle, Point};
use crate::error::{BpError, BpResult, Code};
use serde_json::{json, Value};
use std::time::{Duration, Instant};

/// The longest wait a caller may ask for.
pub const MAX_WAIT_MS: u32 = 10_000;
/// The wait when a caller does not say.
pub const DEFAULT_WAIT_MS: u32 = 2_000;

/// Pauses between checks that found the node not ready: short at first
/// (a button enabled a moment later), then steady.
const POLL_MS: [u64; 4] = [20, 40, 80, 120];

/// The page-side check, run on the node: `{}` (or, with `needHit`,
/// `{x, y, part, pointerups}` where a click would aim) when it is ready,
/// else `{reason}` (`covered` with the point it was tested at).
fn actionable_js() -> String {
    format!(
        "async function(needHit, observe, needEnabled) {{
  if (observe) {observe};
  const el = this, doc = el.ownerDocument, win = doc && doc.defaultView;
  if (!el.isConnected || !win) return {{reason: 'detached'}};
  const box = () => Array.from(el.getClientRects()).find(r => r.width * r.height > 1);
  const shown = () => !!box() && (!el.checkVisibility || el.checkVisibility({{visibilityProperty: true}}));
  if (!shown()) return {{reason: 'not_visible'}};
  if (needEnabled !== false && ((el.matches && el.matches(':disabled')) || (el.closest && el.closest('[aria-disabled=\"true\"]'))))
    return {{reason: 'disabled'}};
  if (needHit) {{
    if (el.scrollIntoViewIfNeeded) el.scrollIntoViewIfNeeded(true);
    else el.scrollIntoView({{block: 'center', inline: 'center'}});
  }}
  if (({animating})(el)) {{
    const frame = () => new Promise(r => {{ win.requestAnimationFrame(() => r()); win.setTimeout(r, 100); }});
    await frame();
    const a = box();
    await frame();
    const b = box();
    if (!a || !b) return {{reason: 'not_visible'}};
    if (a.x !== b.x || a.y !== b.y || a.width !== b.width || a.height !== b.height) return {{reason: 'moving'}};
  }}
  if (!needHit) return {{}};
  const r = box();
  if (!r) return {{reason: 'not_visible'}};
  const x = r.left + r.width / 2, y = r.top + r.height / 2;
  const hit = ({hit}).call(el, x, y);
  if (hit !== null && typeof hit !== 'string') return {{reason: 'covered', x, y}};
  return {{x, y, part: hit, pointerups: {pointerups}}};
}}",
        hit = js::HIT_TEST,
        pointerups = js::POINTERUPS,
        observe = js::OBSERVE,
        animating = js::ANIMATING,
    )
}

/// A node that stayed not ready for `reason`.
pub(in crate::browser) fn refused(reason: &str) -> BpError {
    let message = match reason {
        "detached" => "the element is no longer in the document",
        "not_visible" => "the element has no visible box",
        "disabled" => "the element is disabled",
        "moving" => "the element is still moving",
        _ => "the element is not ready for input",
    };
    BpError::new(Code::ActionNotVerified, message).with_context(json!({"reason": reason}))
}

impl TargetCall {
    /// Wait up to `wait_ms` for the node of `handle` to be ready for input
    /// (with `need_hit`, for a pointer: scrolled into view, its centre
    /// hitting it). See the module notes.
    pub async fn actionable(
        &mut self,
        handle: NodeHandle,
        wait_ms: u32,
        need_hit: bool,
    ) -> BpResult<()> {
        self.actionable_as(handle, wait_ms, need_hit, true).await
    }

    /// As [`Self::actionable`], with `need_enabled` false for a pointer
    /// that only moves there (a hover shows a disabled button's tooltip).
    pub async fn actionable_as(
        &mut self,
        handle: NodeHandle,
        wait_ms: u32,
        need_hit: bool,
        need_enabled: bool,
    ) -> BpResult<()> {
        self.check()?;
        if self.resolved_ready(handle) {
            return Ok(());
        }
        let deadline = Instant::now() + Duration::from_millis(u64::from(wait_ms.min(MAX_WAIT_MS)));
        let function = actionable_js();
        let mut polls = POLL_MS.iter().copied().chain(std::iter::repeat(120));
        loop {
            let v = self
                .check_actionable(handle, &function, need_hit, need_enabled)
                .await?;
            let Some(reason) = v["reason"].as_str().map(str::to_string) else {
                self.keep_aim(handle, &v);
                return Ok(());
            };
            let left = deadline.saturating_duration_since(Instant::now());
            if left.is_zero() {
                return Err(self.refusal(handle, &reason, &v).await);
            }
            let pause = Duration::from_millis(polls.next().unwrap_or(120));
            tokio::time::sleep(pause.min(left)).await;
            self.check()?;
        }
    }

    /// One check: [`actionable_js`] on the node, awaited.
    async fn check_actionable(
        &mut self,
        handle: NodeHandle,
        function: &str,
        need_hit: bool,
        need_enabled: bool,
    ) -> BpResult<Value> {
        let object = self.object(handle).await?;
        let main = self.in_main_frame(handle);
        let args = json!([{"value": need_hit}, {"value": main}, {"value": need_enabled}]);
        let mut params = self.call_on_params(&object, function, args, true);
        params.await_promise = Some(true);
        self.forget_read_ahead();
        let reply = self.cmd_for_raw(handle, &params).await?;
        if reply.get("exceptionDetails").is_some() {
            let session = self.handle(handle)?.session.clone();
            self.group_sessions.insert(session);
            return Err(BpError::internal("a page-side helper threw"));
        }
        if main {
            self.observer_installed();
        }
        Ok(reply["result"]["value"].clone())
    }

    /// The refusal for `reason`; a covered node names what covers it.
    async fn refusal(&mut self, handle: NodeHandle, reason: &str, v: &Value) -> BpError {
        if reason != "covered" {
            return refused(reason);
        }
        let at = Point {
            x: v["x"].as_f64().unwrap_or(0.0),
            y: v["y"].as_f64().unwrap_or(0.0),
        };
        // The check ran in the node's frame: the hit test takes top-level
        // coordinates.
        let frame = self.handle(handle).ok().and_then(|h| h.frame.clone());
        let offset = match self.frame_offset(frame.map(|(f, _)| f).as_deref()).await {
            Ok(o) => o,
            Err(e) => return e,
        };
        let top = Point {
            x: at.x + offset.x,
            y: at.y + offset.y,
        };
        match self.hit_test(handle, top).await {
            Ok(hit) if !hit.on_target => BpError::new(
                Code::ActionNotVerified,
                "the element is covered",
            )
            .with_context(
                json!({"reason": "covered", "coveringRole": hit.role, "coveringName": hit.name}),
            ),
            Ok(_) => refused("covered"),
            Err(e) => e,
        }
    }

    /// Revalidating the ref found the node ready and nothing was sent
    /// since (`js::revalidate_main`: an aim is kept only then).
    fn resolved_ready(&mut self, handle: NodeHandle) -> bool {
        self.current_resolved(handle)
            .is_some_and(|r| r.aim.is_some())
    }

    /// A main-frame check that found where a click would aim: kept for
    /// the aim that follows with nothing sent in between.
    fn keep_aim(&mut self, handle: NodeHandle, v: &Value) {
        let (Some(x), Some(y)) = (v["x"].as_f64(), v["y"].as_f64()) else {
            return;
        };
        if !self.in_main_frame(handle) || v["part"].is_string() {
            return;
        }
        let (doc, _, dialog_open, _) = self.doc();
        if dialog_open {
            return;
        }
        self.observe.resolved = Some(Resolved {
            handle,
            sent: self.cdp.commands_sent(),
            doc,
            value: None,
            aim: Some(Point { x, y }),
            pointerups: v["pointerups"].as_u64(),
        });
    }
}
