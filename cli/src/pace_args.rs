//! `--wait-ms` and `--settle`, as `bp click` takes them, for the other
//! acting commands (hover, drag, select, fill): the flags, their tool
//! arguments, and the note a human line gets when settling did not end.

use serde_json::{json, Value};

/// How long to wait for the target, and what to wait for after.
#[derive(Debug, clap::Args)]
pub struct PaceArgs {
    /// How long to wait for the element to be ready (0..10000 ms).
    #[arg(long, value_name = "MS")]
    pub wait_ms: Option<u32>,
    /// What to wait for after the action: none, dom or network (default).
    #[arg(long, value_parser = ["none", "dom", "network"])]
    pub settle: Option<String>,
}

impl PaceArgs {
    /// Put `waitMs` and `settle` into the tool arguments, when given.
    pub fn apply(&self, args: &mut Value) {
        if let Some(ms) = self.wait_ms {
            args["waitMs"] = json!(ms);
        }
        if let Some(s) = &self.settle {
            args["settle"] = json!(s);
        }
    }
}

/// `; still_loading (N requests pending)` when the settle report `settle`
/// did not end settled; empty otherwise.
pub fn note(settle: &Value) -> String {
    match settle["state"].as_str() {
        Some(state) if state != "settled" => {
            format!("; {state} ({} requests pending)", settle["requests"])
        }
        _ => String::new(),
    }
}
