//! A page read sent right behind an input, taken only when it proves it
//! ran after the input.
//!
//! The browser process handles `Input.*` and hands the event to the page
//! on another channel than the DevTools commands, so a read sent right
//! behind an input usually, but not always, runs after it. The read an
//! action makes next is sent with the input all the same, and its reply
//! is taken only when it shows the input was handled:
//! - typed text (`input/typed_readback.rs`): the field holds what the text
//!   makes of it;
//! - a click's release: the page has dispatched one more `pointerup`
//!   per release than before the press (`performance.eventCounts`, which
//!   counts only the events the browser dispatches; `js::POINTERUPS`).
//!   The `mouseup` and `click` handlers ran in the same task, right
//!   after it.
//! - a key's release: the focused element's document has dispatched one
//!   more `keyup` than the focus check before the key read
//!   (`js::KEYUPS_OF_THIS`), with nothing sent between that check and
//!   the key.
//!
//! A read that comes back before the input is answered and proves
//! nothing ran too early: it is sent again at once, up to
//! [`READS_BEFORE_ANSWER`] reads in all, since the page usually handles
//! the input a moment later, well before the browser answers it
//! (measured from a plain DevTools client on the sign-in form: a typed
//! text's read-back that missed took 2.9 ms from the text's send to a
//! read that proved it when read again after the answer, 2.5 ms when
//! sent again at once; every one proved on its second read). When the
//! input is answered and no read has proved it, the page is read again,
//! as without this. That saves a round trip on most of these actions.

use crate::browser::call::state::ReadAhead;
use crate::browser::call::wire::Wire;
use crate::browser::call::TargetCall;
use crate::cdp::{Cdp, Pending, COMMAND_TIMEOUT};
use crate::error::BpResult;
use serde_json::Value;

/// Defined in `proof.rs`; `crate::browser::observe::proved_read::Proof` still
/// names it.
pub use crate::browser::proof::Proof;

/// Reads sent while an input is unanswered, at most: the one sent with
/// it, and each one again as the one before comes back too early.
pub(in crate::browser) const READS_BEFORE_ANSWER: u32 = 3;

/// A read in flight: its reply to come, and the count of commands sent
/// once it went out (it is taken only if nothing was sent after it).
struct InFlight {
    reply: Pending,
    sent: u64,
}

/// How the input and the reads sent with it came out.
struct Raced {
    /// The input's reply (`None`: a dialog opened, or the tab went).
    answered: BpResult<Option<Value>>,
    /// A read that proved the input, and the count of commands sent once
    /// it went out.
    proven: Option<(Value, u64)>,
    /// A read whose reply was not seen, or one that threw: an object of
    /// the call's group may exist.
    may_hold_objects: bool,
    /// Reads sent again before the input was answered.
    retried: u64,
}

impl TargetCall {
    /// Send `input` and the read an action makes next: with a proof at
    /// hand, right behind the input ([`TargetCall::input_with_proved_read`]);
    /// without, once the input is answered (`input_then_read`).
    pub(in crate::browser) async fn input_and_read(
        &mut self,
        input: Wire,
        read: Option<Wire>,
        proof: Option<(Proof, impl Fn(&Value) -> bool + Sync)>,
    ) -> BpResult<Option<Value>> {
        match (read, proof) {
            (Some(read), Some((proof, proves))) => {
                self.input_with_proved_read(input, read, proof, proves)
                    .await
            }
            (read, _) => self.input_then_read(input, read).await,
        }
    }

    /// Send `input` on the page's session and `read` right behind it,
    /// then wait for the input's reply unless a dialog opens first
    /// (`None`). A read's reply that `proves` accepts is kept for the
    /// next read to take; one that comes back too early is sent again
    /// (see the module notes); with none proved once the input is
    /// answered, the read is sent again then.
    pub(in crate::browser) async fn input_with_proved_read(
        &mut self,
        input: Wire,
        read: Wire,
        proof: Proof,
        proves: impl Fn(&Value) -> bool + Sync,
    ) -> BpResult<Option<Value>> {
        let session = self.session.clone();
        let watch = self.registry.watch(&self.raw_id);
        let input_method = input.method.clone();
        let (rx, sent) = self.watch_and_send(&session, input)?;
        self.forget_read_ahead();
        // Until every read's reply is seen, one may hold an exception of
        // the call's group (the call can end while it waits). A read by
        // value makes no object unless it throws, so replies seen clean
        // release nothing (a release would queue ahead of the next call's
        // first command).
        let marked = self.group_sessions.insert(session.clone());
        let raced = self
            .race_input_and_reads((&input_method, rx, sent), &read, watch, &proves)
            .await;
        if marked && !raced.may_hold_objects {
            self.group_sessions.remove(&session);
        }
        self.registry.count_early_retries(proof, raced.retried);
        if !matches!(raced.answered, Ok(Some(_))) {
            return raced.answered;
        }
        // A read that proves it is counted when it is taken.
        if let Some((reply, sent)) = raced.proven {
            self.observe.read_ahead = Some(ReadAhead::ready(read, sent, reply, proof));
            return raced.answered;
        }
        self.registry.count_readback(proof, false);
        self.read_ahead_of(read);
        raced.answered
    }

    /// Wait for the input's reply while reads go out behind it: one at a
    /// time, each sent again when it comes back too early, until one
    /// proves the input or [`READS_BEFORE_ANSWER`] have gone out. Once
    /// the input is answered, a read still out is waited for (unless a
    /// dialog opens: `watch` sees the target from before the input).
    async fn race_input_and_reads(
        &self,
        (input, rx, sent): (&str, tokio::sync::watch::Receiver<u64>, Pending),
        read: &Wire,
        watch: Option<tokio::sync::watch::Receiver<u64>>,
        proves: &(dyn Fn(&Value) -> bool + Sync),
    ) -> Raced {
        let send_read = || {
            // Counted from before the send, as `read_ahead_of` does: a
            // command of another task's in between means it is never taken.
            let sent = self.cdp.commands_sent() + 1;
            self.cdp
                .send_now(&read.method, Some(&self.session), read.params.clone())
                .ok()
                .map(|reply| InFlight { reply, sent })
        };
        let mut raced = Raced {
            answered: Ok(None),
            proven: None,
            may_hold_objects: false,
            retried: 0,
        };
        let mut out = send_read();
        let mut reads = 1;
        let answer = self.reply_unless_dialog(rx, input, sent);
        tokio::pin!(answer);
        // While the input is unanswered.
        let answered = loop {
            tokio::select! {
                biased;
                answered = &mut answer => break answered,
                reply = async { (&mut out.as_mut()?.reply).await.ok() }, if out.is_some() => {
                    let Some(flight) = out.take() else { continue };
                    match reply.and_then(Result::ok) {
                        Some(r) if r.get("exceptionDetails").is_some() => raced.may_hold_objects = true,
                        Some(r) if proves(&r["result"]["value"]) => {
                            raced.proven = Some((r, flight.sent));
                        }
                        _ if reads < READS_BEFORE_ANSWER && !self.doc().2 => {
                            out = send_read();
                            reads += 1;
                            raced.retried += 1;
                        }
                        _ => {}
                    }
                }
            }
        };
        raced.answered = answered;
        let Some(out) = out else { return raced };
        if !matches!(raced.answered, Ok(Some(_))) || raced.proven.is_some() {
            raced.may_hold_objects = true;
            return raced;
        }
        let reply = match watch {
            Some(watch) => {
                self.reply_unless_dialog(watch, &read.method, out.reply)
                    .await
            }
            None => Cdp::reply(&read.method, out.reply, COMMAND_TIMEOUT)
                .await
                .map(Some),
        };
        match reply {
            Ok(Some(r)) if r.get("exceptionDetails").is_some() => raced.may_hold_objects = true,
            Ok(Some(r)) if proves(&r["result"]["value"]) => raced.proven = Some((r, out.sent)),
            Ok(Some(_)) => {}
            _ => raced.may_hold_objects = true,
        }
        raced
    }
}
