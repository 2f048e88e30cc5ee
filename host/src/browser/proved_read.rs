//! A page read sent right behind an input, taken only when it proves it
//! ran after the input.
//!
//! The browser process handles `Input.*` and hands the event to the page
//! on another channel than the DevTools commands, so a read sent right
//! behind an input usually, but not always, runs after it. The read an
//! action makes next is sent with the input all the same, and its reply
//! is taken only when it shows the input was handled:
//! - typed text (`typed_readback.rs`): the field holds what the text
//!   makes of it;
//! - a click's release: the page has dispatched one more `pointerup`
//!   per release than before the press (`performance.eventCounts`, which
//!   counts only the events the browser dispatches; `js::POINTERUPS`).
//!   The `mouseup` and `click` handlers ran in the same task, right
//!   after it.
//!
//! A read that proves nothing is dropped, and made again once the input
//! is answered, as without this. That saves a round trip on most of
//! these actions.

use super::call::TargetCall;
use super::read_ahead::ReadAhead;
use crate::error::BpResult;
use serde_json::Value;

/// What a read sent with an input has to show (its value indexes the
/// registry's counters).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Proof {
    /// The typed text is in the field.
    Typed,
    /// The page has dispatched the click's release.
    Clicked,
}

impl TargetCall {
    /// Send `input` on the page's session and `read` right behind it,
    /// then wait for the input's reply unless a dialog opens first
    /// (`None`). The read's reply is kept for the next read to take when
    /// `proves` accepts it; otherwise the read is sent again now.
    pub(super) async fn input_with_proved_read(
        &mut self,
        input: (&'static str, Value),
        read: (&'static str, Value),
        proof: Proof,
        proves: impl FnOnce(&Value) -> bool,
    ) -> BpResult<Option<Value>> {
        let (method, params) = read;
        let session = self.session.clone();
        let (rx, sent) = self.watch_and_send(&session, input.0, input.1)?;
        self.forget_read_ahead();
        let early_rx = self.registry.watch(&self.raw_id);
        // Counted from before the send, as `read_ahead_of` does: a command
        // of another task's in between means the read is never taken.
        let early_sent = self.cdp.commands_sent() + 1;
        if let Ok(early) = self.cdp.send_now(method, Some(&session), params.clone()) {
            // Held as a read sent ahead while the input is answered:
            // should the call end meanwhile, it is forgotten, and the
            // call's group released (its reply, never seen, may be an
            // exception). A read by value makes no object unless it
            // throws, so a reply seen releases nothing (a release would
            // queue ahead of the next call's first command).
            self.read_ahead = Some(ReadAhead::pending(
                method,
                params.clone(),
                early_sent,
                early,
            ));
        }
        let answered = self.reply_unless_dialog(rx, input.0, sent).await;
        if !matches!(answered, Ok(Some(_))) {
            self.forget_read_ahead();
            return answered;
        }
        let early = self.read_ahead.take().and_then(ReadAhead::into_pending);
        let early = match (early, early_rx) {
            (Some(early), Some(early_rx)) => Some((early, early_rx)),
            (Some(_), None) => {
                self.group_sessions.insert(session.clone());
                None
            }
            _ => None,
        };
        if let Some((early, early_rx)) = early {
            // Until its reply is seen, it may hold an exception of the
            // call's group (the call can end while it waits).
            let marked = self.group_sessions.insert(session.clone());
            let reply = match self.reply_unless_dialog(early_rx, method, early).await {
                Ok(Some(reply)) if reply.get("exceptionDetails").is_none() => {
                    if marked {
                        self.group_sessions.remove(&session);
                    }
                    Some(reply)
                }
                _ => None,
            };
            // A read that proves it is counted when it is taken.
            if let Some(reply) = reply.filter(|r| proves(&r["result"]["value"])) {
                self.read_ahead = Some(ReadAhead::ready(method, params, early_sent, reply, proof));
                return answered;
            }
        }
        self.registry.count_readback(proof, false);
        self.read_ahead_of(method, params);
        answered
    }
}
