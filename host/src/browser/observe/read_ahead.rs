//! An action's next page read usually follows its input at once: the
//! focused element after each typing step, the typed-into field after the
//! text, the clicked node and page after the click. The host sends that
//! read itself, before the component asks for it. The component's next
//! read takes the reply only if it is the same command and nothing else
//! was sent since; otherwise it is dropped and the read made again.
//!
//! When the read goes out depends on who handles the input:
//! - a command the page's renderer handles (`DOM.focus`) is followed by
//!   the read at once: the renderer takes one session's commands in
//!   order, so the read sees the page after the input;
//! - `Input.*` is handled by the browser process, which passes the event
//!   to the renderer on another channel, so a read sent right behind it
//!   can reach the page first (measured: typed text read back as missing).
//!   The read goes out as soon as the input is answered, which Chromium
//!   does once the renderer has handled it.

use crate::browser::call::state::{AheadReply, ReadAhead};
use crate::browser::call::wire::{call_args, call_function, Wire};
use crate::browser::call::{dialog_open, TargetCall};
use crate::browser::js::{ACTIVE_ELEMENT, KEYUPS_OF_THIS};
use crate::browser::proof::Proof;
use crate::browser::types::NodeHandle;
use crate::cdp::{Cdp, Pending, COMMAND_TIMEOUT};
use crate::error::BpResult;
use chromiumoxide::cdp::js_protocol::runtime::{CallFunctionOnParams, EvaluateParams};
use serde_json::{json, Value};

impl ReadAhead {
    /// A read sent, its reply to come, taken only by the same command
    /// with nothing sent since `sent` (the count of commands once it went
    /// out).
    pub(in crate::browser) fn pending(read: Wire, sent: u64, reply: Pending) -> Self {
        Self {
            read,
            sent,
            reply: AheadReply::Pending(reply),
        }
    }

    /// A read already answered, taken only by the same command with
    /// nothing sent since `sent` (the count of commands once it went out).
    pub(in crate::browser) fn ready(read: Wire, sent: u64, reply: Value, proof: Proof) -> Self {
        Self {
            read,
            sent,
            reply: AheadReply::Ready(reply, proof),
        }
    }
}

impl TargetCall {
    /// The first command of the next active-element read: confirm the
    /// element read last (`{same, keyups}`: whether it is still the
    /// active element, and its document's `keyup` count), or read it
    /// afresh.
    pub(in crate::browser) fn first_active_read(&self) -> BpResult<Wire> {
        match &self.input.last_active {
            Some((_, object)) => {
                let function = format!(
                    "function () {{ return {{same: {ACTIVE_ELEMENT} === this, keyups: {KEYUPS_OF_THIS}}}; }}"
                );
                let mut cmd = call_function(object, &function);
                cmd.return_by_value = Some(true);
                Wire::of(&cmd)
            }
            None => {
                let mut cmd = EvaluateParams::new(ACTIVE_ELEMENT);
                cmd.object_group = Some(self.group.clone());
                Wire::of(&cmd)
            }
        }
    }

    /// `Runtime.callFunctionOn` parameters for `function` on the node.
    pub(in crate::browser) fn call_on_params(
        &self,
        object: &str,
        function: &str,
        args: Value,
        by_value: bool,
    ) -> CallFunctionOnParams {
        let mut cmd = call_function(object, function);
        cmd.arguments = Some(call_args(&args));
        cmd.return_by_value = Some(by_value);
        cmd.await_promise = Some(false);
        cmd.object_group = Some(self.group.clone());
        cmd
    }

    /// The read of `function` on `handle` that `call_on` would send, for a
    /// node of the page's own session whose object is known.
    pub(in crate::browser) fn node_read(&self, handle: NodeHandle, function: &str) -> Option<Wire> {
        let h = self.handle(handle).ok()?;
        let object = h.object.as_deref().filter(|_| h.session == self.session)?;
        Wire::of(&self.call_on_params(object, function, json!([]), true)).ok()
    }

    /// Forget the read sent ahead, if one is waiting untaken. A reply
    /// still to come is never looked at: had it thrown, its exception
    /// would be an object of the call's group, so the group is released.
    /// One already seen was read by value and threw nothing.
    pub(in crate::browser) fn forget_read_ahead(&mut self) {
        match self.observe.read_ahead.take().map(|a| a.reply) {
            Some(AheadReply::Ready(_, proof)) => self.registry.count_readback(proof, false),
            Some(AheadReply::Pending(_)) => {
                self.group_sessions.insert(self.session.clone());
            }
            None => {}
        }
    }

    /// Send `read` on the page's session now, for a later read to take
    /// (nothing while a dialog is open: the page could not answer).
    pub(in crate::browser) fn read_ahead_of(&mut self, read: Wire) {
        self.forget_read_ahead();
        if self.doc().2 {
            return;
        }
        // Counted from before the send: should another task's command go
        // out in between, the count never matches and the read is made
        // again (never taken when something else was sent after it).
        let before = self.cdp.commands_sent();
        let Ok(reply) = self
            .cdp
            .send_now(&read.method, Some(&self.session), read.params.clone())
        else {
            return;
        };
        // A read by reference makes an object of the call's group. A read
        // by value makes none, unless it throws: whoever takes it checks
        // (see `call_on`), and one left untaken is forgotten as above.
        if read.params["returnByValue"] != true {
            self.group_sessions.insert(self.session.clone());
        }
        self.observe.read_ahead = Some(ReadAhead::pending(read, before + 1, reply));
    }

    /// Send `read` on the page's session, or take the reply of the same
    /// command sent ahead when nothing was sent since.
    pub(in crate::browser) async fn send_or_ahead(&mut self, read: Wire) -> BpResult<Value> {
        // A read by reference makes an object of the call's group, whether
        // or not its reply is seen (the call may end while it waits).
        if read.params["returnByValue"] != true {
            self.group_sessions.insert(self.session.clone());
        }
        let sent = self.cdp.commands_sent();
        let ahead = match self.observe.read_ahead.take() {
            Some(a) if a.read == read && a.sent == sent => {
                if let AheadReply::Ready(_, proof) = a.reply {
                    self.registry.count_readback(proof, true);
                }
                Some(a)
            }
            other => {
                self.observe.read_ahead = other;
                self.forget_read_ahead();
                None
            }
        };
        let reply = match ahead {
            Some(_) if self.doc().2 => Err(dialog_open()),
            Some(ahead) => match ahead.reply {
                AheadReply::Pending(reply) => {
                    Cdp::reply(&read.method, reply, COMMAND_TIMEOUT).await
                }
                AheadReply::Ready(reply, _) => Ok(reply),
            },
            None => self.send_wire(read).await,
        };
        // An exception is an object of the call's group, and so may be
        // whatever a reply nobody saw held.
        if reply
            .as_ref()
            .map_or(true, |r| r.get("exceptionDetails").is_some())
        {
            self.group_sessions.insert(self.session.clone());
        }
        reply
    }

    /// Send an input event on the page's session and the read `next` (see
    /// the module comment for when), then wait for the event's reply
    /// unless a dialog opens first (`None`).
    pub(in crate::browser) async fn input_then_read(
        &mut self,
        input: Wire,
        next: Option<Wire>,
    ) -> BpResult<Option<Value>> {
        let session = self.session.clone();
        let is_input = input.is_input();
        let method = input.method.clone();
        let (rx, sent) = self.watch_and_send(&session, input)?;
        self.forget_read_ahead();
        let (ahead, after) = match next {
            Some(read) if is_input => (None, Some(read)),
            read => (read, None),
        };
        if let Some(read) = ahead {
            self.read_ahead_of(read);
        }
        let reply = self.reply_unless_dialog(rx, &method, sent).await?;
        if let (Some(read), Some(_)) = (after, &reply) {
            self.read_ahead_of(read);
        }
        Ok(reply)
    }
}
