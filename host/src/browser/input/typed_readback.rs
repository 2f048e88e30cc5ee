//! The read-back of typed text, sent with the text (`observe/proved_read.rs`).
//!
//! `browser.type` reads the field back once its text is in. A read sent
//! right behind the text usually, but not always, runs after it (94 of
//! 100 here). The read is sent with the text all the same, and taken only
//! when it shows exactly what the text makes of the field as it stood
//! once focused (and its content selected, with `clear`): the text alone
//! when it replaces a selection, else the earlier value with the text
//! added (its length only, for a password field, whose value is never
//! read), and not the earlier value itself. A read that shows anything
//! else is dropped, and the field read again once the text is answered,
//! as without this. That saves a round trip on most type actions.
//!
//! The earlier value is the one the focusing page call reads after it
//! has focused and selected, so a focus handler that changes the field
//! (clears a password, unformats a number) is part of it. A field focused
//! in steps (in a frame, or with a dialog open) is read before the
//! browser focuses it; its read-back is never sent ahead.

use crate::browser::call::state::TypedBefore;
use crate::browser::call::wire::Wire;
use crate::browser::call::{node_state, TargetCall};
use crate::browser::js;
use crate::browser::proof::Proof;
use crate::browser::types::{NodeHandle, NodeState};
use crate::error::BpResult;
use chromiumoxide::cdp::browser_protocol::input::{
    DispatchKeyEventParams, DispatchKeyEventType, InsertTextParams,
};

impl TypedBefore {
    pub(in crate::browser) fn of(handle: NodeHandle, state: &NodeState, replaced: bool) -> Self {
        Self {
            handle,
            value: state.value.clone(),
            value_length: state.value_length,
            replaced,
        }
    }

    /// Whether any read could prove `text` went in: not when it leaves
    /// the field as it stood (it replaces a selection of that same text,
    /// or, in a password field, of as many characters).
    fn can_prove(&self, text: &str) -> bool {
        let added = u32::try_from(text.encode_utf16().count()).unwrap_or(u32::MAX);
        match &self.value {
            _ if !self.replaced => added > 0,
            Some(value) => value != text,
            None => self.value_length != added,
        }
    }

    /// Whether `after`, read once `text` was sent, shows what the text
    /// makes of the field and differs from how it stood before.
    fn proves_typed(&self, after: &NodeState, text: &str) -> bool {
        let added = u32::try_from(text.encode_utf16().count()).unwrap_or(u32::MAX);
        let length = if self.replaced {
            added
        } else {
            self.value_length.saturating_add(added)
        };
        let moved = after.value_length == length && after.value != self.value;
        match (&after.value, &self.value) {
            (Some(now), _) if self.replaced => moved && now == text,
            (Some(now), _) => moved && now.contains(text),
            (None, None) => after.value_length == length && length != self.value_length,
            (None, Some(_)) => false,
        }
    }
}

impl TargetCall {
    /// Insert `text` into the focused field, then release a key there, as
    /// typing ends for a person: pages that read their fields on `keyup`
    /// (a docs site's search box) see the text. The read-back goes behind
    /// the release, so it shows what the page made of both.
    pub async fn insert_text(&mut self, text: &str) -> BpResult<()> {
        self.check()?;
        self.ensure_observer().await;
        self.mark_dispatched();
        // The typed-into field is read back next.
        let next = self
            .input
            .focused_handle
            .and_then(|h| self.node_read(h, js::NODE_STATE));
        if text.is_empty() {
            return self
                .input_then_read(Wire::of(&InsertTextParams::new(text))?, next)
                .await
                .map(|_| ());
        }
        let session = self.session.clone();
        let inserted = self
            .send_unless_dialog(&session, Wire::of(&InsertTextParams::new(text))?)
            .await?;
        if inserted.is_none() {
            // A dialog opened (or the page went away): nothing to release.
            return Ok(());
        }
        let release = Wire::of(&typing_release())?;
        let before = self
            .input
            .typed_before
            .take()
            .filter(|b| Some(b.handle) == self.input.focused_handle);
        let (Some(read), Some(before)) = (next.clone(), before) else {
            return self.input_then_read(release, next).await.map(|_| ());
        };
        if !before.can_prove(text) {
            // No read could show it: the field is read once the release is
            // answered (counted as read again).
            self.registry.count_readback(Proof::Typed, false);
            return self.input_then_read(release, next).await.map(|_| ());
        }
        self.input_with_proved_read(release, read, Proof::Typed, |value| {
            before.proves_typed(&node_state(value), text)
        })
        .await
        .map(|_| ())
    }
}

/// The key release that ends typed text. It names no key (`Unidentified`):
/// the text may end in any character, a password's among them, which must
/// not reach the browser twice.
fn typing_release() -> DispatchKeyEventParams {
    let mut up = DispatchKeyEventParams::new(DispatchKeyEventType::KeyUp);
    up.key = Some("Unidentified".to_string());
    up.code = Some(String::new());
    up.windows_virtual_key_code = Some(0);
    up.native_virtual_key_code = Some(0);
    up.modifiers = Some(0);
    up
}

#[cfg(test)]
mod tests {
    use super::TypedBefore;
    use crate::browser::types::NodeState;

    fn state(value: Option<&str>, len: u32) -> NodeState {
        NodeState {
            tag: "input".into(),
            input_type: Some("text".into()),
            value: value.map(str::to_string),
            value_length: len,
            checked: None,
            focused: true,
            editable: true,
            connected: true,
        }
    }

    #[test]
    fn only_a_read_that_shows_the_text_went_in_is_taken() {
        // Appended at the caret: the earlier value with the text added.
        let before = TypedBefore::of(1, &state(Some("old"), 3), false);
        assert!(before.proves_typed(&state(Some("oldAda"), 6), "Ada"));
        assert!(before.proves_typed(&state(Some("Adaold"), 6), "Ada"));
        // Read before the text arrived: unchanged.
        assert!(!before.proves_typed(&state(Some("old"), 3), "Ada"));
        // Changed, but not by this text, or not by it alone.
        assert!(!before.proves_typed(&state(Some(""), 0), "Ada"));
        assert!(!before.proves_typed(&state(Some("Ada"), 3), "Ada"));
        assert!(!before.proves_typed(&state(Some("oldAda!"), 7), "Ada"));
        // Replacing a selection: the text alone.
        let selected = TypedBefore::of(1, &state(Some("old"), 3), true);
        assert!(selected.proves_typed(&state(Some("Ada"), 3), "Ada"));
        assert!(!selected.proves_typed(&state(Some("old"), 3), "Ada"));
        assert!(!selected.proves_typed(&state(Some("oldAda"), 6), "Ada"));
        // A field that already held the text proves nothing, and no read
        // is sent early for it.
        let same = TypedBefore::of(1, &state(Some("Ada"), 3), true);
        assert!(!same.proves_typed(&state(Some("Ada"), 3), "Ada"));
        assert!(!same.can_prove("Ada"));
        assert!(same.can_prove("Grace") && selected.can_prove("Ada"));
        assert!(before.can_prove("old") && !before.can_prove(""));
        // Lengths count UTF-16 units, as the page does.
        let empty = TypedBefore::of(1, &state(Some(""), 0), false);
        assert!(empty.proves_typed(&state(Some("é😀"), 3), "é😀"));
        // Password fields: only a length that moved by the text's.
        let secret = TypedBefore::of(1, &state(None, 4), false);
        assert!(secret.proves_typed(&state(None, 7), "abc"));
        assert!(!secret.proves_typed(&state(None, 4), "abc"));
        assert!(!secret.proves_typed(&state(None, 0), "abc"));
        assert!(secret.can_prove("abc"));
        let cleared_secret = TypedBefore::of(1, &state(None, 4), true);
        assert!(!cleared_secret.can_prove("abcd") && cleared_secret.can_prove("abc"));
        let secret = TypedBefore::of(1, &state(None, 4), true);
        assert!(secret.proves_typed(&state(None, 3), "abc"));
        assert!(!secret.proves_typed(&state(None, 4), "abc"));
        // A value that stopped being readable proves nothing.
        assert!(!before.proves_typed(&state(None, 6), "Ada"));
    }
}
