//! The poll loop: ask the page until the condition holds or the time is
//! up. Nothing is polled faster than every 50 ms, backing off to 250 ms,
//! and a condition that already holds costs one page call.

use super::condition::{self, NodeRead, Quiet};
use crate::error::{BpError, BpResult, Code, StaleReason};
use crate::tab::Tab;
use crate::wit::page_wait::{Condition, NodeState, Waited};
use serde_json::Value;
use std::time::{Duration, Instant};

/// Most visible text read per poll of a text condition.
const TEXT_BUDGET: u32 = 200_000;

/// Most text of one node a stable wait compares.
const NODE_TEXT: usize = 100_000;

/// Reads whether the node is connected, visible and enabled, and its text.
const NODE_PROBE: &str = r#"function () {
  const el = this;
  const connected = !!el.isConnected;
  let visible = false;
  if (connected && el.getBoundingClientRect) {
    const s = getComputedStyle(el);
    const r = el.getBoundingClientRect();
    visible = s.display !== 'none' && s.visibility !== 'hidden' && parseFloat(s.opacity) > 0
      && r.width > 0 && r.height > 0;
    if (visible && el.checkVisibility) {
      visible = el.checkVisibility({opacityProperty: true, visibilityProperty: true});
    }
  }
  const fieldset = el.closest ? el.closest('fieldset:disabled') : null;
  const inLegend = fieldset && fieldset.querySelector(':scope > legend')?.contains(el);
  const disabled = el.disabled === true || el.getAttribute?.('aria-disabled') === 'true'
    || (!!fieldset && !inLegend);
  const text = connected ? String(el.innerText ?? el.textContent ?? '').slice(0, LIMIT) : '';
  return {connected, visible, enabled: !disabled, text};
}"#;

/// Wait until `condition` holds, at most `timeout_ms`.
pub async fn wait_for(
    tab: &mut Tab<'_>,
    condition: &Condition,
    timeout_ms: u32,
) -> BpResult<Waited> {
    let start = Instant::now();
    let deadline = start + Duration::from_millis(u64::from(timeout_ms));
    let (generation, _) = tab.document()?;
    let mut quiet = match condition {
        Condition::Stable(s) => Some(Quiet::new(s.quiet_ms)),
        _ => None,
    };
    let mut polls = 0u32;
    loop {
        let elapsed = start.elapsed();
        polls += 1;
        if holds(tab, condition, generation, quiet.as_mut(), elapsed).await? {
            return Ok(Waited {
                waited_ms: u32::try_from(elapsed.as_millis()).unwrap_or(u32::MAX),
                polls,
            });
        }
        let now = Instant::now();
        if now >= deadline {
            return Err(BpError::new(
                Code::Timeout,
                format!(
                    "waited {timeout_ms} ms for {}; it did not happen",
                    condition::describe(condition)
                ),
            )
            .with_context(serde_json::json!({"timeoutMs": timeout_ms, "polls": polls})));
        }
        let pause = condition::interval(polls - 1).min(deadline - now);
        tokio::time::sleep(pause).await;
    }
}

/// Ask the page once.
async fn holds(
    tab: &mut Tab<'_>,
    condition: &Condition,
    generation: u64,
    quiet: Option<&mut Quiet>,
    elapsed: Duration,
) -> BpResult<bool> {
    // The lease, target and connection first: their failures end the
    // wait; the page's own (a document being replaced) only this poll.
    let (now_generation, dialog) = tab.document()?;
    if dialog {
        return Err(BpError::new(
            Code::ActionNotVerified,
            "a JavaScript dialog opened during the wait; answer it first",
        )
        .with_context(serde_json::json!({"reason": "dialog_opened"})));
    }
    match condition {
        Condition::Text(t) => Ok(visible_text(tab)
            .await
            .is_some_and(|v| condition::contains_text(&v, t))),
        Condition::TextGone(t) => Ok(visible_text(tab)
            .await
            .is_some_and(|v| !condition::contains_text(&v, t))),
        Condition::Url(glob) => Ok(tab
            .url()
            .await
            .is_ok_and(|u| condition::glob_matches(glob, &u))),
        Condition::Node(n) => {
            let read = read_node(tab, n.node, generation, now_generation).await;
            if read.is_none()
                && now_generation != generation
                && !matches!(n.state, NodeState::Detached | NodeState::Hidden)
            {
                return Err(BpError::stale(StaleReason::Navigation));
            }
            Ok(condition::node_satisfies(n.state, read.as_ref()))
        }
        Condition::Stable(s) => {
            let read = read_node(tab, s.node, generation, now_generation).await;
            match (read, quiet) {
                (Some(r), Some(q)) if r.connected => {
                    Ok(q.settled(&r.text, elapsed.as_millis() as u64))
                }
                _ => Err(BpError::stale(StaleReason::Navigation)),
            }
        }
    }
}

/// What a person sees of the page now; `None` while no document answers
/// (one being replaced).
async fn visible_text(tab: &mut Tab<'_>) -> Option<String> {
    tab.visible_text(TEXT_BUDGET).await.ok()
}

/// The node's state, or `None` when its document is gone.
async fn read_node(tab: &mut Tab<'_>, node: u32, generation: u64, now: u64) -> Option<NodeRead> {
    if now != generation {
        return None;
    }
    let probe = NODE_PROBE.replace("LIMIT", &NODE_TEXT.to_string());
    let v: Value = tab.call_on(node, &probe).await.ok()?;
    Some(NodeRead {
        connected: v["connected"].as_bool().unwrap_or(false),
        visible: v["visible"].as_bool().unwrap_or(false),
        enabled: v["enabled"].as_bool().unwrap_or(false),
        text: v["text"].as_str().unwrap_or_default().to_string(),
    })
}
