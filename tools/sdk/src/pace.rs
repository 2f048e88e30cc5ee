//! The pace arguments every acting tool takes, as `browser.click` does:
//! `waitMs` (how long the target is waited for to be ready for input) and
//! `settle` (`none`, `dom` or `network`: what is waited for after the
//! input), their schemas, and the `settle` evidence object. Each
//! component maps [`Settle`] onto its own capability's settle mode.

use crate::{invalid, Args, ToolError};
use serde_json::{json, Value};

/// Longest actionability wait a call may ask for.
pub const MAX_WAIT_MS: u32 = 10_000;

/// What an action waits for once its input is sent.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Settle {
    None,
    Dom,
    Network,
}

/// The `settle` argument: `none`, `dom` or `network` (the default).
pub fn settle_arg(args: &mut Args) -> Result<Settle, ToolError> {
    match args.opt_str("settle")?.as_deref() {
        None | Some("network") => Ok(Settle::Network),
        Some("dom") => Ok(Settle::Dom),
        Some("none") => Ok(Settle::None),
        Some(other) => Err(invalid(format!(
            "`settle` must be none, dom or network, not `{other}`"
        ))),
    }
}

/// The `waitMs` argument (0..=10000, default 2000).
pub fn wait_arg(args: &mut Args) -> Result<u32, ToolError> {
    Ok(args
        .opt_u32("waitMs", 0, MAX_WAIT_MS)?
        .unwrap_or(crate::typing::READY_WAIT_MS))
}

/// JSON Schema of the `settle` argument.
pub fn settle_schema() -> Value {
    json!({"enum": ["none", "dom", "network"], "default": "network"})
}

/// JSON Schema of the `waitMs` argument.
pub fn wait_schema() -> Value {
    json!({"type": "integer", "minimum": 0, "maximum": MAX_WAIT_MS, "default": crate::typing::READY_WAIT_MS})
}

/// JSON Schema of the `settle` evidence object.
pub fn report_schema() -> Value {
    json!({
        "type": "object",
        "properties": {
            "state": {"enum": ["settled", "still_loading"]},
            "requests": {"type": "integer"},
            "waitedMs": {"type": "integer"}
        }
    })
}

/// The `settle` evidence object: `{state, requests, waitedMs}`.
pub fn report(settled: bool, requests: u32, waited_ms: u32) -> Value {
    json!({
        "state": if settled { "settled" } else { "still_loading" },
        "requests": requests,
        "waitedMs": waited_ms,
    })
}
