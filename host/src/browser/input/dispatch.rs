//! Input of a [`TargetCall`]: clicks, focus and keys, and the sends that
//! stop waiting when a JavaScript dialog opens (the browser holds an
//! input's reply until the dialog is answered).

use crate::browser::call::wire::{call_function, Wire};
use crate::browser::call::{dialog_open, TargetCall};
use crate::browser::input::keys;
use crate::browser::js;
use crate::browser::proof::{count_reached, Proof};
use crate::browser::types::{Modifiers, MouseButton, NodeHandle, Point};
use crate::error::{BpError, BpResult, Code, StaleReason};
use chromiumoxide::cdp::browser_protocol::dom::{BackendNodeId, FocusParams};
use chromiumoxide::cdp::browser_protocol::input::{
    DispatchMouseEventParams, DispatchMouseEventType as MouseEvent, MouseButton as CdpButton,
};
use chromiumoxide::types::Command;
use serde_json::{json, Value};

/// How long a click that met a dialog waits for its pointer move's reply.
const MOVE_REPLY_GRACE: std::time::Duration = std::time::Duration::from_millis(100);

/// A dialog opened during a click, after `sent` of the `total` presses
/// and releases went out. Opened by a press or release (the move was
/// answered), the click has had its effect. Opened by the move (no reply
/// to it yet: the page is paused inside its handler), the click is cut
/// short and the rest is not sent; a press already sent behind the move
/// may reach the page once the dialog is answered, or be dropped by the
/// browser, so the outcome is unknown.
///
/// The press goes out before the move is answered, so a press that opened
/// the dialog can be seen before the move's reply, which the page sent
/// first but on another channel. The reply is given a moment to come: it
/// never comes while the move's own handler holds the page.
async fn dialog_during_click(moved: crate::cdp::Pending, sent: u32, total: u32) -> BpResult<()> {
    if let Ok(Ok(_)) = tokio::time::timeout(MOVE_REPLY_GRACE, moved).await {
        return Ok(());
    }
    let (step, message) = if sent == 0 {
        (
            "mousePressed",
            "a JavaScript dialog opened as the pointer moved onto the element; the press was not sent",
        )
    } else {
        (
            "mouseMoved",
            "a JavaScript dialog opened as the pointer moved onto the element; the press already sent may reach the page once the dialog is answered, or not at all",
        )
    };
    Err(
        BpError::new(Code::UnknownOutcome, message).with_context(json!({
        "action": "click", "step": step, "reason": "dialog_opened",
        "dispatchedSteps": 1 + sent, "remainingStepsStopped": total - sent})),
    )
}

impl TargetCall {
    /// Send an input event; return early if it opens a JavaScript dialog
    /// (the browser holds the reply until the dialog is handled).
    async fn input_event<C: Command>(&self, event: &C) -> BpResult<()> {
        self.input_event_on(&self.session, event).await
    }

    async fn input_event_on<C: Command>(&self, session: &str, event: &C) -> BpResult<()> {
        self.send_unless_dialog(session, Wire::of(event)?)
            .await
            .map(|_| ())
    }

    /// Send, but stop waiting when a JavaScript dialog opens first (the
    /// browser holds the reply until it is answered) or the target goes
    /// away: `None` then.
    pub(in crate::browser) async fn send_unless_dialog(
        &self,
        session: &str,
        cmd: Wire,
    ) -> BpResult<Option<Value>> {
        let method = cmd.method.clone();
        let (rx, sent) = self.watch_and_send(session, cmd)?;
        self.reply_unless_dialog(rx, &method, sent).await
    }

    /// Watch the target, then send `cmd` at once (refused while a
    /// dialog is open): the watch and the reply to come, for
    /// [`TargetCall::reply_unless_dialog`].
    pub(in crate::browser) fn watch_and_send(
        &self,
        session: &str,
        cmd: Wire,
    ) -> BpResult<(tokio::sync::watch::Receiver<u64>, crate::cdp::Pending)> {
        let rx = self
            .registry
            .watch(&self.raw_id)
            .ok_or_else(|| BpError::stale(StaleReason::TargetClosed))?;
        if self.doc().2 {
            return Err(dialog_open());
        }
        if self.crashed_since_start() {
            return Err(crate::cdp::errors::crashed());
        }
        let sent = self.cdp.send_now(&cmd.method, Some(session), cmd.params)?;
        Ok((rx, sent))
    }

    /// The reply to a command sent, unless a JavaScript dialog opens first
    /// or the target goes away (`None`). `rx` watches the target from
    /// before the command was sent.
    pub(in crate::browser) async fn reply_unless_dialog(
        &self,
        mut rx: tokio::sync::watch::Receiver<u64>,
        method: &str,
        sent: crate::cdp::Pending,
    ) -> BpResult<Option<Value>> {
        let reply = crate::cdp::Cdp::reply(method, sent, crate::cdp::COMMAND_TIMEOUT);
        tokio::pin!(reply);
        loop {
            tokio::select! {
                // A reply that has come is the answer, even when a dialog
                // opened after it.
                biased;
                r = &mut reply => return r.map(Some),
                changed = rx.changed() => {
                    // A tab that closes itself (`window.close()` in a click
                    // handler) may never answer the event that closed it.
                    // (All targets also read closed when the connection
                    // is lost: that is not this tab closing.)
                    if self.cdp.is_closed() {
                        return Err(BpError::disconnected());
                    }
                    let closed = self.registry.with(&self.raw_id, |t| t.closed);
                    if changed.is_err() || self.doc().2 || closed.unwrap_or(true) {
                        return Ok(None);
                    }
                }
            }
        }
    }

    pub async fn click(&mut self, at: Point, button: MouseButton, count: u32) -> BpResult<()> {
        self.check()?;
        let button = match button {
            MouseButton::Left => CdpButton::Left,
            MouseButton::Middle => CdpButton::Middle,
            MouseButton::Right => CdpButton::Right,
        };
        self.ensure_observer().await;
        self.mark_dispatched();
        // The move goes out together with the press. Its reply waits for
        // the next animation frame (the renderer aligns moves to frames),
        // yet the renderer handles it before the press that follows.
        let moved = DispatchMouseEventParams::new(MouseEvent::MouseMoved, at.x, at.y);
        let moved = self.cdp.send_typed_now(&moved, Some(&self.session))?;
        let (mut sent, total) = (0, 2 * count.max(1));
        for n in 1..=count.max(1) {
            let ev = |kind: MouseEvent| {
                let mut ev = DispatchMouseEventParams::new(kind, at.x, at.y);
                ev.button = Some(button.clone());
                ev.buttons = Some(1);
                ev.click_count = Some(i64::from(n));
                ev
            };
            for kind in [MouseEvent::MousePressed, MouseEvent::MouseReleased] {
                // A dialog opened by an earlier event pauses the page: stop
                // sending.
                if self.doc().2 {
                    return dialog_during_click(moved, sent, total).await;
                }
                if sent + 1 < total {
                    self.input_event(&ev(kind)).await?;
                } else {
                    // The clicked node and the page are read next: sent
                    // with the release when the count of releases the
                    // page has seen can prove it ran after this one.
                    let next = self
                        .input
                        .aimed_handle
                        .and_then(|h| self.node_read(h, &js::node_and_page()));
                    let proof = self.input.pointerups_before.take().map(|n| {
                        let want = n.saturating_add(u64::from(count.max(1)));
                        (Proof::Clicked, count_reached("pointerups", want))
                    });
                    self.input_and_read(Wire::of(&ev(kind))?, next, proof)
                        .await?;
                }
                sent += 1;
            }
        }
        // Handled before the press: its reply has come (or is dropped).
        self.defer_settle();
        Ok(())
    }

    /// A real mouse wheel turn at `at` (top-level viewport), by `dx` and
    /// `dy` CSS pixels.
    pub async fn wheel(&mut self, at: Point, dx: f64, dy: f64) -> BpResult<()> {
        self.check()?;
        self.mark_dispatched();
        let mut ev = DispatchMouseEventParams::new(MouseEvent::MouseWheel, at.x, at.y);
        ev.delta_x = Some(dx);
        ev.delta_y = Some(dy);
        self.input_event(&ev).await
    }

    pub async fn dom_click(&mut self, handle: NodeHandle) -> BpResult<()> {
        self.check()?;
        self.ensure_observer().await;
        self.mark_dispatched();
        let object = self.object(handle).await?;
        let session = self.handle(handle)?.session.clone();
        let mut click = call_function(&object, js::DOM_CLICK);
        click.return_by_value = Some(true);
        self.input_event_on(&session, &click).await?;
        self.defer_settle();
        Ok(())
    }

    pub async fn focus(&mut self, handle: NodeHandle) -> BpResult<()> {
        self.check()?;
        let backend = self.backend(handle)?;
        self.mark_dispatched();
        let focus = FocusParams {
            backend_node_id: Some(BackendNodeId::new(backend)),
            ..Default::default()
        };
        self.input.focused_handle = Some(handle);
        if self.handle(handle)?.session != self.session {
            return self.cmd_for(handle, &focus).await.map(|_| ());
        }
        // Composite typing reads focus next: that read goes out with it.
        let next = self.first_active_read()?;
        self.input_then_read(Wire::of(&focus)?, Some(next))
            .await
            .map(|_| ())
    }

    pub async fn press_key(&mut self, key: &str, held: Modifiers) -> BpResult<()> {
        self.check()?;
        self.input.typed_before = None;
        let mut mods = 0;
        for (on, bit) in [
            (held.alt, keys::ALT),
            (held.ctrl, keys::CTRL),
            (held.meta, keys::META),
            (held.shift, keys::SHIFT),
        ] {
            if on {
                mods |= bit;
            }
        }
        let (down, up) = keys::key_events(key, mods)?;
        // The keyup count read by the focus check right before this key,
        // if nothing was sent since: the focus read after the key must
        // show one more.
        let sent = self.cdp.commands_sent();
        let proof = match self.input.keyups_seen.take() {
            Some((count, at)) if at == sent && self.input.last_active.is_some() => Some((
                Proof::Keyed,
                count_reached("keyups", count.saturating_add(1)),
            )),
            _ => None,
        };
        self.ensure_observer().await;
        self.mark_dispatched();
        self.input_event(&down).await?;
        if !self.doc().2 {
            let next = self.first_active_read()?;
            self.input_and_read(Wire::of(&up)?, Some(next), proof)
                .await?;
        }
        self.defer_settle();
        Ok(())
    }
}
