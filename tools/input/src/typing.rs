//! `browser.type`: focus an observed field, optionally clear it, insert
//! text, optionally submit, then read the value back for evidence.

use crate::browser_pilot::tools::input::{self as host_input, Modifiers};
use crate::browser_pilot::tools::page_read;
use crate::evidence;
use crate::keys::{interrupted, pinned_steps, Start};
use bp_sdk::spec::{target_id_schema, with_common};
use bp_sdk::typing::{type_steps, typed_matches, Read};
use bp_sdk::{invalid, not_verified, Args, StaleReason, ToolError, ToolSpec};
use serde_json::{json, Map, Value};

const MAX_TEXT_CHARS: usize = 100_000;

pub fn spec() -> ToolSpec {
    let mut props = Map::new();
    props.insert("evidence".into(), evidence::schema());
    props.insert("hints".into(), json!({"type": "array"}));
    ToolSpec::mutating(
        "browser.type",
        "Type text into an observed field once it is visible, stable and enabled (waits up to `waitMs`), optionally clearing it first and pressing Enter after; then settles (`settle`).",
        &["page-read", "input"],
    )
    .schemas(
        json!({
            "type": "object",
            "additionalProperties": false,
            "required": ["observationId", "ref", "text"],
            "properties": {
                "targetId": target_id_schema(),
                "observationId": {"type": "string"},
                "ref": {"type": "integer", "minimum": 1},
                "text": {"type": "string", "maxLength": MAX_TEXT_CHARS, "x-browser-pilot-sensitivity": ["browser_data", "credential"]},
                "waitMs": evidence::wait_schema(),
                "settle": evidence::settle_schema(),
                "clear": {"type": "boolean", "default": false},
                "submit": {"type": "boolean", "default": false}
            }
        }),
        json!({"type": "object", "required": ["evidence"], "properties": Value::Object(with_common(props))}),
    )
    .sensitivity(&["browser_data", "credential"], &[])
}

pub fn type_text(mut args: Args) -> Result<Value, ToolError> {
    args.allow(&["targetId"]);
    let observation = args.str("observationId")?;
    let reference = args.ref_number("ref")?;
    let text = args.str("text")?;
    let clear = args.opt_bool("clear")?.unwrap_or(false);
    let submit = args.opt_bool("submit")?.unwrap_or(false);
    let wait = evidence::wait_arg(&mut args)?;
    let settle = evidence::settle_arg(&mut args)?;
    args.finish()?;
    if text.chars().count() > MAX_TEXT_CHARS {
        return Err(invalid(format!(
            "`text` is longer than {MAX_TEXT_CHARS} characters"
        )));
    }

    let (start_generation, dialog_open) = page_read::document_state()?;
    if dialog_open {
        return Err(not_verified("dialog_open"));
    }
    // Revalidated, read and (only if editable) focused in one page call,
    // which with `clear` also selects the field's content where it can.
    host_input::settle_arm(settle)?;
    // Once ready for input (visible, stable, enabled: waited for up to
    // `wait`, else refused with the condition that failed).
    let focused = host_input::focus_editable(&observation, reference, clear, wait);
    let (node, before, selected) = match focused {
        Ok(found) => found,
        // A blur or focus handler opened a dialog: focus was dispatched.
        Err(ToolError::StaleRef(StaleReason::DialogOpened)) => {
            let steps = type_steps(clear, false, &text, submit);
            return Err(interrupted("type", &steps, 1, StaleReason::DialogOpened));
        }
        Err(e) => return Err(e),
    };
    let steps = type_steps(clear, selected, &text, submit);
    if !before.editable {
        return Err(not_verified("not_editable"));
    }
    let mut readback = None;
    // Focus is pinned once the focus step has placed it.
    let start = Start {
        done: 1,
        generation: Some(start_generation),
    };
    pinned_steps("type", &steps, 1, start, |i| match steps[i] {
        "select_all" => host_input::press_key("a", Modifiers::CTRL),
        "delete" => host_input::press_key("Backspace", Modifiers::empty()),
        "insert_text" => {
            host_input::insert_text(&text)?;
            readback = page_read::read_node(node).ok();
            Ok(())
        }
        _ => host_input::press_key("Enter", Modifiers::empty()),
    })?;

    let mut signals: Vec<&str> = Vec::new();
    let status = match &readback {
        Some(after) => {
            if typed_matches(read(&before), read(after), &text, clear) {
                signals.push("value_matches");
                "verified"
            } else {
                signals.push("value_differs");
                "mismatch"
            }
        }
        None => "unavailable",
    };
    if submit {
        signals.push("submitted");
        let (end_generation, _) = page_read::document_state()?;
        if end_generation != start_generation {
            signals.push("navigation");
        }
    }
    let mut evidence = evidence::evidence("type", status, &signals, "trusted_input", "trusted");
    evidence::settle_into(&mut evidence, settle)?;
    Ok(json!({
        "evidence": evidence,
        "hints": [],
    }))
}

/// A node's value as the typing read-back rule reads it.
fn read(n: &page_read::NodeState) -> Read<'_> {
    Read {
        value: n.value.as_deref(),
        length: n.value_length,
    }
}
