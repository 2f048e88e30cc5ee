//! The pace arguments every acting tool takes, as `browser.click` does:
//! `waitMs` (how long the target is waited for to be ready for input) and
//! `settle` (`none`, `dom` or `network`: what is waited for after the
//! input), their schemas, and the `settle` evidence object. The settle
//! types are the shared WIT `types` ones (`settle-mode`, `settle-report`,
//! `pace`), so every component that acts takes and reports them alike.

use crate::types::{Pace, SettleMode, SettleReport};
use crate::{invalid, Args, ToolError};
use serde_json::{json, Value};

/// Longest actionability wait a call may ask for.
pub const MAX_WAIT_MS: u32 = 10_000;

/// Longest settle after an action (and what each tool waits at most).
pub const SETTLE_MS: u32 = 2_000;

/// The `settle` argument: `none`, `dom` or `network` (the default).
pub fn settle_arg(args: &mut Args) -> Result<SettleMode, ToolError> {
    match args.opt_str("settle")?.as_deref() {
        None | Some("network") => Ok(SettleMode::Network),
        Some("dom") => Ok(SettleMode::Dom),
        Some("none") => Ok(SettleMode::None),
        Some(other) => Err(invalid(format!(
            "`settle` must be none, dom or network, not `{other}`"
        ))),
    }
}

/// The `waitMs` and `settle` arguments (read in that order) as a `pace`.
pub fn pace_arg(args: &mut Args) -> Result<Pace, ToolError> {
    let wait_ms = wait_arg(args)?;
    let settle = settle_arg(args)?;
    Ok(Pace { wait_ms, settle })
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
pub fn report(r: SettleReport) -> Value {
    json!({
        "state": if r.settled { "settled" } else { "still_loading" },
        "requests": r.requests,
        "waitedMs": r.waited_ms,
    })
}

/// Put the settle report, if any, into `out` as `settle`.
pub fn report_into(out: &mut Value, r: Option<SettleReport>) {
    if let Some(r) = r {
        out["settle"] = report(r);
    }
}
