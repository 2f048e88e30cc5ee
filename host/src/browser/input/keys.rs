//! DOM key names to `Input.dispatchKeyEvent` parameters.

use crate::error::{BpError, BpResult};
use chromiumoxide::cdp::browser_protocol::input::{DispatchKeyEventParams, DispatchKeyEventType};

/// Modifier bits as CDP counts them.
pub const ALT: i64 = 1;
pub const CTRL: i64 = 2;
pub const META: i64 = 4;
pub const SHIFT: i64 = 8;

/// `(key, code, windowsVirtualKeyCode, text)` for named keys.
const NAMED: &[(&str, &str, i64, &str)] = &[
    ("Enter", "Enter", 13, "\r"),
    ("Tab", "Tab", 9, ""),
    ("Backspace", "Backspace", 8, ""),
    ("Delete", "Delete", 46, ""),
    ("Escape", "Escape", 27, ""),
    (" ", "Space", 32, " "),
    ("ArrowUp", "ArrowUp", 38, ""),
    ("ArrowDown", "ArrowDown", 40, ""),
    ("ArrowLeft", "ArrowLeft", 37, ""),
    ("ArrowRight", "ArrowRight", 39, ""),
    ("Home", "Home", 36, ""),
    ("End", "End", 35, ""),
    ("PageUp", "PageUp", 33, ""),
    ("PageDown", "PageDown", 34, ""),
    ("Insert", "Insert", 45, ""),
    ("F1", "F1", 112, ""),
    ("F2", "F2", 113, ""),
    ("F3", "F3", 114, ""),
    ("F4", "F4", 115, ""),
    ("F5", "F5", 116, ""),
    ("F6", "F6", 117, ""),
    ("F7", "F7", 118, ""),
    ("F8", "F8", 119, ""),
    ("F9", "F9", 120, ""),
    ("F10", "F10", 121, ""),
    ("F11", "F11", 122, ""),
    ("F12", "F12", 123, ""),
];

/// The keyDown and keyUp events for `key` with `modifiers` held.
pub fn key_events(
    key: &str,
    modifiers: i64,
) -> BpResult<(DispatchKeyEventParams, DispatchKeyEventParams)> {
    let key = if key == "Space" { " " } else { key };
    let (dom_key, code, vk, mut text) =
        if let Some((k, c, vk, t)) = NAMED.iter().find(|(k, ..)| *k == key) {
            (k.to_string(), c.to_string(), *vk, t.to_string())
        } else {
            let mut chars = key.chars();
            let (Some(ch), None) = (chars.next(), chars.next()) else {
                return Err(BpError::invalid(format!("unknown key `{key}`")));
            };
            let upper = ch.to_ascii_uppercase();
            let (code, vk) = if ch.is_ascii_alphabetic() {
                (format!("Key{upper}"), upper as i64)
            } else if ch.is_ascii_digit() {
                (format!("Digit{ch}"), ch as i64)
            } else if ch == ' ' {
                ("Space".to_string(), 32)
            } else {
                (String::new(), 0)
            };
            let shown = if modifiers & SHIFT != 0 {
                ch.to_uppercase().to_string()
            } else {
                ch.to_string()
            };
            (shown.clone(), code, vk, shown)
        };
    // With Control/Meta/Alt held a key is a command, not text.
    if modifiers & (CTRL | META | ALT) != 0 {
        text.clear();
    }
    let event = |kind: DispatchKeyEventType| {
        let mut ev = DispatchKeyEventParams::new(kind);
        ev.key = Some(dom_key.clone());
        ev.code = Some(code.clone());
        ev.windows_virtual_key_code = Some(vk);
        ev.native_virtual_key_code = Some(vk);
        ev.modifiers = Some(modifiers);
        ev
    };
    let mut down = event(if text.is_empty() {
        DispatchKeyEventType::RawKeyDown
    } else {
        DispatchKeyEventType::KeyDown
    });
    if !text.is_empty() {
        down.text = Some(text.clone());
        down.unmodified_text = Some(text);
    }
    if modifiers & (CTRL | META) != 0 && key.eq_ignore_ascii_case("a") {
        down.commands = Some(vec!["selectAll".to_string()]);
    }
    let up = event(DispatchKeyEventType::KeyUp);
    Ok((down, up))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn keys() {
        let (down, _) = key_events("Enter", 0).unwrap_or_else(|e| panic!("{e}"));
        assert_eq!(down.text.as_deref(), Some("\r"));
        let (down, _) = key_events("a", CTRL).unwrap_or_else(|e| panic!("{e}"));
        assert_eq!(down.r#type, DispatchKeyEventType::RawKeyDown);
        assert_eq!(down.commands, Some(vec!["selectAll".to_string()]));
        let (down, up) = key_events("b", SHIFT).unwrap_or_else(|e| panic!("{e}"));
        assert_eq!(down.text.as_deref(), Some("B"));
        // On the wire: every field the string form had, and no other.
        assert_eq!(
            serde_json::to_value(&up).unwrap(),
            serde_json::json!({"type": "keyUp", "key": "B", "code": "KeyB",
                "windowsVirtualKeyCode": 66, "nativeVirtualKeyCode": 66, "modifiers": SHIFT})
        );
        assert!(key_events("Nope", 0).is_err());
    }
}
