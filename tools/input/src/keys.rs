//! `browser.press` and `browser.keyboard`: key chords and typed sequences.

use crate::browser_pilot::tools::input::{self as host_input, Modifiers};
use crate::browser_pilot::tools::page_read;
use crate::evidence::{self, Snapshot};
use bp_sdk::spec::{target_id_schema, with_common};
use bp_sdk::{invalid, not_verified, Args, Interruption, StaleReason, ToolError, ToolSpec};
use serde_json::{json, Map, Value};

/// Named keys the host knows how to dispatch (DOM `KeyboardEvent.key`).
pub const NAMED_KEYS: &[&str] = &[
    "Enter",
    "Tab",
    "Backspace",
    "Delete",
    "Escape",
    "Space",
    "ArrowUp",
    "ArrowDown",
    "ArrowLeft",
    "ArrowRight",
    "Home",
    "End",
    "PageUp",
    "PageDown",
    "Insert",
    "F1",
    "F2",
    "F3",
    "F4",
    "F5",
    "F6",
    "F7",
    "F8",
    "F9",
    "F10",
    "F11",
    "F12",
];

/// Longest text `browser.keyboard` sends as individual key presses.
const MAX_KEYBOARD_CHARS: usize = 10_000;

fn result_schema() -> Value {
    let mut props = Map::new();
    props.insert("evidence".into(), evidence::schema());
    json!({"type": "object", "required": ["evidence"], "properties": Value::Object(with_common(props))})
}

pub fn press_spec() -> ToolSpec {
    ToolSpec::mutating(
        "browser.press",
        "Press one key or chord (for example `Enter`, `Control+A`, `Shift+Tab`) on the focused element; then settles (`settle`).",
        &["page-read", "input"],
    )
    .schemas(
        json!({
            "type": "object",
            "additionalProperties": false,
            "required": ["key"],
            "properties": {"targetId": target_id_schema(), "key": {"type": "string", "minLength": 1},
                           "settle": evidence::settle_schema()}
        }),
        result_schema(),
    )
}

pub fn keyboard_spec() -> ToolSpec {
    ToolSpec::mutating(
        "browser.keyboard",
        "Type text as individual key presses into whatever has focus.",
        &["page-read", "input"],
    )
    .cooperative()
    .schemas(
        json!({
            "type": "object",
            "additionalProperties": false,
            "required": ["text"],
            "properties": {
                "targetId": target_id_schema(),
                "text": {"type": "string", "maxLength": MAX_KEYBOARD_CHARS, "x-browser-pilot-sensitivity": ["browser_data", "credential"]}
            }
        }),
        result_schema(),
    )
    .sensitivity(&["browser_data", "credential"], &[])
}

/// Parse `Control+Shift+A` into modifiers and a key.
pub fn parse_chord(chord: &str) -> Result<(String, Modifiers), ToolError> {
    let parts: Vec<&str> = chord.split('+').collect();
    // A bare "+" (or a chord ending in "++") names the plus key itself.
    let (mods, key) = if chord.ends_with("++") || chord == "+" {
        (&parts[..parts.len().saturating_sub(2)], "+")
    } else {
        match parts.split_last() {
            Some((key, mods)) => (mods, *key),
            None => return Err(invalid("`key` is empty")),
        }
    };
    let mut held = Modifiers::empty();
    for m in mods {
        held |= match m.to_ascii_lowercase().as_str() {
            "control" | "ctrl" => Modifiers::CTRL,
            "shift" => Modifiers::SHIFT,
            "alt" | "option" => Modifiers::ALT,
            "meta" | "cmd" | "command" => Modifiers::META,
            other => return Err(invalid(format!("unknown modifier `{other}`"))),
        };
    }
    let key = if key.chars().count() == 1 {
        key.to_string()
    } else {
        NAMED_KEYS
            .iter()
            .find(|k| k.eq_ignore_ascii_case(key))
            .map(|k| (*k).to_string())
            .ok_or_else(|| invalid(format!("unknown key `{key}`")))?
    };
    Ok((key, held))
}

pub fn press(mut args: Args) -> Result<Value, ToolError> {
    args.allow(&["targetId"]);
    let chord = args.str("key")?;
    let settle = evidence::settle_arg(&mut args)?;
    args.finish()?;
    let (key, held) = parse_chord(&chord)?;
    let before = Snapshot::take(None)?;
    if before.info.dialog_open {
        return Err(not_verified("dialog_open"));
    }
    host_input::settle_arm(settle)?;
    host_input::press_key(&key, held)?;
    let after = Snapshot::take(None)?;
    let signals = evidence::signals(&before, &after);
    let mut evidence = evidence::evidence(
        "press",
        evidence::status_from(&signals),
        &signals,
        "trusted_input",
        "trusted",
    );
    evidence::settle_into(&mut evidence, settle)?;
    Ok(json!({ "evidence": evidence }))
}

/// Where a run of [`pinned_steps`] starts.
#[derive(Clone, Copy, Default)]
pub struct Start {
    /// Steps the caller already dispatched (they are not run again).
    pub done: usize,
    /// The document generation read before the first of those steps;
    /// read at the start of the run when none was dispatched.
    pub generation: Option<u64>,
}

/// Run `steps` while the page stays the one the action started on: the
/// same document and, once `focus_from` steps have run, the same deep
/// composed active element. Before any step a change is
/// `action-not-verified`; after one, `unknown-outcome` with the step
/// context, and no further step is sent. Steps before `start.done` ran
/// already. Returns the steps dispatched.
pub fn pinned_steps<F>(
    action: &str,
    steps: &[&str],
    focus_from: usize,
    start: Start,
    mut run: F,
) -> Result<u32, ToolError>
where
    F: FnMut(usize) -> Result<(), ToolError>,
{
    let start_generation = match start.generation {
        Some(g) => g,
        None => page_read::document_state()?.0,
    };
    let mut focused: Option<String> = None;
    for i in start.done..steps.len() {
        // Focus is read first: right after input, that read is also the
        // round trip that settles the page, so the document state read
        // next is current.
        let active = (i >= focus_from).then(page_read::active_element);
        let (generation, dialog_open) = page_read::document_state()?;
        let reason = if dialog_open {
            Some(StaleReason::DialogOpened)
        } else if generation != start_generation {
            Some(StaleReason::Navigation)
        } else {
            // Reading focus can fail when the page changes at that moment;
            // once a step ran, that is an interruption like any other.
            match active {
                None => None,
                Some(Ok(now)) if i == focus_from => {
                    focused = Some(now);
                    None
                }
                Some(Ok(now)) if focused.as_ref() == Some(&now) => None,
                Some(Ok(_)) => Some(StaleReason::FocusChanged),
                Some(Err(e)) if i == 0 => return Err(e),
                Some(Err(_)) => Some(StaleReason::FocusChanged),
            }
        };
        match reason {
            None => run(i)?,
            Some(_) if i == 0 => return Err(not_verified("document_changed")),
            Some(reason) => return Err(interrupted(action, steps, i, reason)),
        }
    }
    Ok(steps.len() as u32)
}

/// `unknown-outcome`: the steps before `at` were dispatched, then the
/// page changed for `reason`, and `steps[at]` and the rest were not sent.
pub fn interrupted(action: &str, steps: &[&str], at: usize, reason: StaleReason) -> ToolError {
    ToolError::UnknownOutcome(Interruption {
        action: action.to_string(),
        step: steps.get(at).copied().unwrap_or_default().to_string(),
        reason,
        dispatched_steps: at as u32,
        remaining_steps_stopped: steps.len().saturating_sub(at) as u32,
    })
}

pub fn keyboard(mut args: Args) -> Result<Value, ToolError> {
    args.allow(&["targetId"]);
    let text = args.str("text")?;
    args.finish()?;
    if text.chars().count() > MAX_KEYBOARD_CHARS {
        return Err(invalid(format!(
            "`text` is longer than {MAX_KEYBOARD_CHARS} characters"
        )));
    }
    let chars: Vec<String> = text
        .chars()
        .map(|c| {
            if c == '\n' {
                "Enter".to_string()
            } else {
                c.to_string()
            }
        })
        .collect();
    let steps: Vec<&str> = chars.iter().map(|_| "key").collect();
    let before = Snapshot::take(None)?;
    if before.info.dialog_open {
        return Err(not_verified("dialog_open"));
    }
    pinned_steps("keyboard", &steps, 0, Start::default(), |i| {
        host_input::press_key(&chars[i], Modifiers::empty())
    })?;
    let after = Snapshot::take(None)?;
    let signals = evidence::signals(&before, &after);
    Ok(
        json!({"evidence": evidence::evidence("keyboard", evidence::status_from(&signals), &signals, "trusted_input", "trusted")}),
    )
}
