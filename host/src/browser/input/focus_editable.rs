//! `input.focus-editable`: the field a type action names is revalidated,
//! read and, when editable, focused in one page call, where resolving the
//! ref and then focusing it took two round trips. That call also says
//! whether focus landed on the node itself, so the focus check that
//! follows needs no round trip of its own when nothing was sent since.
//! If the page's `focus()` changed nothing, the browser's own focus is
//! tried, as before: it focuses, or refuses with its reason, and typing
//! never goes on into whatever had focus already.
//!
//! Only a node of the page's own main frame is folded, and only while no
//! dialog is open. Any other node is revalidated, read and focused (by
//! the DevTools `DOM.focus`) in turn, as before. The folded call uses the
//! element's own `focus()`, as the other page-side helpers use the page's
//! DOM.

use crate::browser::call::state::TypedBefore;
use crate::browser::call::wire::Wire;
use crate::browser::call::{node_state, TargetCall};
use crate::browser::js;
use crate::browser::types::{NodeHandle, NodeState};
use crate::error::{BpError, BpResult, Code, StaleReason};
use serde_json::{json, Value};

impl TargetCall {
    /// Resolve an observation's ref to type into: revalidated, read, and
    /// focused only if the read says it is editable; with `select_all`,
    /// its content selected once focus is on it. Returns the handle, the
    /// state (read again once focused, where one page call did both; else
    /// as read before focusing), and whether the content is selected.
    pub async fn focus_editable(
        &mut self,
        observation_id: &str,
        reference: u32,
        select_all: bool,
        wait_ms: u32,
    ) -> BpResult<(NodeHandle, NodeState, bool)> {
        let (handle, held) = self.ref_handle(observation_id, reference)?;
        let main = self.in_main_frame(handle);
        if !main || self.doc().2 {
            return self.focus_editable_in_steps(handle, held, wait_ms).await;
        }
        let value = self
            .ready_focus_fold(handle, held, select_all, wait_ms)
            .await?;
        // `js::focus_editable` (re)installed the settle observer.
        self.observer_installed();
        let state = node_state(&value["state"]);
        if !state.connected {
            return Err(BpError::stale(StaleReason::DocumentReplaced));
        }
        // Once focused, the value as the text will find it: a focus
        // handler may have changed it (a PIN field that clears itself).
        // Whether the field takes text stays as read before focusing:
        // focus was given on that reading, and a handler that then makes
        // the field read-only is for the typing to find out.
        let state = match value.get("focused") {
            Some(focused) if focused.is_object() => {
                let now = node_state(focused);
                NodeState {
                    value: now.value,
                    value_length: now.value_length,
                    focused: now.focused,
                    ..state
                }
            }
            _ => state,
        };
        match value["focus"].as_str() {
            Some("self") => {
                self.input.focused_handle = Some(handle);
                let object = self.handle(handle)?.object.clone();
                if let Some(object) = object {
                    let token = self.name_active(object);
                    self.input.active_known = Some((self.cdp.commands_sent(), token));
                }
            }
            // A focus handler moved it on: as after `focus`, the pin is
            // whatever has focus now.
            Some("moved") => self.input.focused_handle = Some(handle),
            // The page's `focus()` changed nothing: the browser's own
            // focus either works or says why it cannot.
            Some(_) => self.focus(handle).await?,
            None => {}
        }
        let selected = value["focus"] == "self" && value["selected"] == true;
        // The read-back of the text is proved against the field as it
        // stands once focused, when this call could read it so.
        self.input.typed_before = (value["focus"] == "self" && value["focused"].is_object())
            .then(|| TypedBefore::of(handle, &state, selected));
        Ok((handle, state, selected))
    }

    /// The one-call focus of a main-frame node: through its held object
    /// when that still works, else resolved afresh; when the node is not
    /// ready for input, waited for (or refused with the reason) and tried
    /// once more.
    async fn ready_focus_fold(
        &mut self,
        handle: NodeHandle,
        held: Option<String>,
        select_all: bool,
        wait_ms: u32,
    ) -> BpResult<Value> {
        let mut value = None;
        if let Some(object) = held {
            self.set_object(handle, object);
            match self.focus_fold(handle, select_all, true).await {
                Ok(v) => {
                    self.registry.count_ref_resolved(true);
                    value = Some(v);
                }
                Err(e) if not_run(&e) => {
                    tracing::debug!("held ref object unusable ({}); resolving", e.message);
                    self.clear_object(handle);
                    self.check()?;
                }
                Err(e) => return Err(e),
            }
        }
        let value = match value {
            Some(v) => v,
            None => {
                let v = self.focus_fold(handle, select_all, true).await?;
                self.registry.count_ref_resolved(false);
                v
            }
        };
        // Not ready for input: nothing was focused. Wait until it is (or
        // refuse with the reason), then focus it.
        Ok(match value["blocked"].as_str() {
            Some(_) => {
                self.actionable(handle, wait_ms, false).await?;
                let again = self.focus_fold(handle, select_all, false).await?;
                if let Some(reason) = again["blocked"].as_str() {
                    return Err(crate::browser::input::actionable::refused(reason));
                }
                again
            }
            None => value,
        })
    }

    /// The same in three steps: revalidate, read, focus (selecting is
    /// left to the caller's keys).
    async fn focus_editable_in_steps(
        &mut self,
        handle: NodeHandle,
        held: Option<String>,
        wait_ms: u32,
    ) -> BpResult<(NodeHandle, NodeState, bool)> {
        if !self.revalidate(handle, held).await? {
            return Err(BpError::stale(StaleReason::DocumentReplaced));
        }
        self.actionable(handle, wait_ms, false).await?;
        let state = self.read_node_now(handle).await?;
        if state.editable {
            self.focus(handle).await?;
        }
        Ok((handle, state, false))
    }

    /// Run [`js::focus_editable`] on the node: `{state, focus, selected}`. The
    /// call may focus, so it counts as dispatched once it is sent (also
    /// for a node that turns out not to be editable). A JavaScript dialog that opens meanwhile (a blur or focus
    /// handler's) ends it with `stale_ref` `dialog_opened`.
    async fn focus_fold(
        &mut self,
        handle: NodeHandle,
        select_all: bool,
        check_motion: bool,
    ) -> BpResult<Value> {
        let object = self.object(handle).await?;
        let args = json!([{ "value": select_all }, { "value": check_motion }]);
        let params = self.call_on_params(&object, &js::focus_editable(), args, true);
        let session = self.session.clone();
        self.forget_read_ahead();
        let call = Wire::of(&params)?;
        let method = call.method.clone();
        let (rx, sent) = self.watch_and_send(&session, call)?;
        self.mark_dispatched();
        let reply = self.reply_unless_dialog(rx, &method, sent).await;
        let reply = match reply {
            Ok(Some(reply)) if reply.get("exceptionDetails").is_none() => reply,
            // The exception, or a reply never seen that may hold one, is
            // an object of the call's group.
            other => {
                self.group_sessions.insert(session);
                return Err(match other {
                    Ok(Some(_)) => BpError::internal("a page-side helper threw"),
                    Ok(None) if self.doc().2 => BpError::stale(StaleReason::DialogOpened),
                    Ok(None) => BpError::stale(StaleReason::TargetClosed),
                    Err(e) => e,
                });
            }
        };
        Ok(reply["result"]["value"].clone())
    }
}

/// The browser refused the call before running it (its object or context
/// is gone): nothing was focused, and the node can be resolved afresh.
/// A target that closed or crashed, or a dialog that opened, may have
/// come after the call ran.
fn not_run(e: &BpError) -> bool {
    match e.code {
        Code::StaleRef => !matches!(
            e.stale,
            Some(
                StaleReason::TargetCrashed | StaleReason::DialogOpened | StaleReason::TargetClosed
            )
        ),
        Code::ActionNotVerified => true,
        _ => false,
    }
}
