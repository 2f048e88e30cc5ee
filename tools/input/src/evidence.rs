//! Evidence: what changed between a snapshot before and after an action.

use crate::browser_pilot::tools::input as host_input;
use crate::browser_pilot::tools::page_read::{self, NodeHandle, NodeState, PageInfo};
use bp_sdk::pace::{self, SETTLE_MS};
use bp_sdk::types::SettleMode;
use bp_sdk::ToolError;
use serde_json::{json, Value};

/// The `settle` and `waitMs` arguments and their schemas, as every
/// acting tool takes them.
pub use bp_sdk::pace::{settle_arg, settle_schema, wait_arg, wait_schema};

/// Settle as armed and attach the report to `evidence` (nothing for
/// `none`).
pub fn settle_into(evidence: &mut Value, mode: SettleMode) -> Result<(), ToolError> {
    if mode == SettleMode::None {
        return Ok(());
    }
    evidence["settle"] = pace::report(host_input::settle(SETTLE_MS)?);
    Ok(())
}

/// Browser state captured around an action.
pub struct Snapshot {
    pub info: PageInfo,
    pub node: Option<NodeState>,
}

impl Snapshot {
    /// Capture page facts and, when given, one node's state.
    pub fn take(node: Option<NodeHandle>) -> Result<Self, ToolError> {
        // One page round trip where possible. A node may be gone after an
        // action (navigation, removal): that is a signal, not an error.
        let (info, node) = page_read::page_and_node(node)?;
        Ok(Self { info, node })
    }
}

/// Signals observable between `before` and `after`.
pub fn signals(before: &Snapshot, after: &Snapshot) -> Vec<&'static str> {
    let mut out = Vec::new();
    // A dialog pauses the page: nothing else can be read until it is answered.
    if after.info.dialog_open && !before.info.dialog_open {
        if after.info.document_generation != before.info.document_generation {
            out.push("navigation");
        }
        out.push("dialog_opened");
        return out;
    }
    if after.info.document_generation != before.info.document_generation {
        out.push("navigation");
    } else if after.info.url != before.info.url {
        out.push("url_changed");
    }
    if after.info.title != before.info.title {
        out.push("title_changed");
    }
    match (&before.node, &after.node) {
        (Some(b), Some(a)) => {
            if a.checked != b.checked {
                out.push("checked_changed");
            }
            if a.value != b.value || a.value_length != b.value_length {
                out.push("value_changed");
            }
            if a.focused && !b.focused {
                out.push("focus_changed");
            }
            if !a.connected && b.connected {
                out.push("element_removed");
            }
        }
        (Some(_), None) if !out.contains(&"navigation") => out.push("element_removed"),
        _ => {}
    }
    out
}

/// The evidence object of an action result.
pub fn evidence(kind: &str, status: &str, signals: &[&str], route: &str, trust: &str) -> Value {
    json!({
        "kind": kind,
        "status": status,
        "signals": signals,
        "route": route,
        "trust": trust,
    })
}

/// `verified` when anything observable happened, else `unavailable`.
pub fn status_from(signals: &[&str]) -> &'static str {
    if signals.is_empty() {
        "unavailable"
    } else {
        "verified"
    }
}

/// JSON Schema of the `evidence` field.
pub fn schema() -> Value {
    json!({
        "type": "object",
        "required": ["status", "signals", "route", "trust"],
        "properties": {
            "kind": {"enum": ["click", "type", "keyboard", "press"]},
            "status": {"enum": ["verified", "mismatch", "unavailable"]},
            "signals": {"type": "array", "items": {"type": "string"}},
            "route": {"enum": ["trusted_input", "dom_event"]},
            "trust": {"enum": ["trusted", "dom_event"]},
            "hit": {"enum": ["own_label", "own_part"]},
            "settle": pace::report_schema(),
            "target": {
                "type": "object",
                "properties": {"role": {"type": "string"}, "name": {"type": "string"}, "tag": {"type": "string"}}
            },
            "link": {"type": "boolean", "description": "A click on a link (`<a>`)."},
            "download": {
                "type": "object",
                "description": "Added by the broker when the action started a download: completed with its artifactId, or still started.",
                "properties": {"state": {"type": "string"}, "filename": {"type": "string"}, "artifactId": {"type": "string"},
                               "bytes": {"type": "integer"}, "url": {"type": "string"}}
            }
        }
    })
}
