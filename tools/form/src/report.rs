//! The result of a fill: each field's evidence, and when one failed,
//! which one and with what stable code (never a silent success).

use crate::fill::Failure;
use crate::plan::Field;
use bp_sdk::{StaleReason, ToolError};
use serde_json::{json, Value};

/// Every field filled and read back as asked.
pub fn completed(fields: Vec<Value>) -> Value {
    json!({
        "completed": true,
        "filled": fields.len(),
        "fields": fields,
        "evidence": {"kind": "fill_form", "status": "verified", "verdict": "value_matches"},
    })
}

/// Filling stopped at field `index`: the fields before it, and it.
pub fn failed(mut fields: Vec<Value>, index: usize, field: &Field, failure: Failure) -> Value {
    let filled = fields.len();
    let mut failed = json!({"index": index, "ref": field.reference, "kind": field.kind.name()});
    match failure {
        Failure::Mismatch(evidence) => {
            failed["code"] = json!("action_not_verified");
            failed["reason"] = json!("value_differs");
            failed["message"] = json!("the field does not read back as asked");
            fields.push(evidence);
        }
        Failure::Unknown(u) => {
            failed["code"] = json!("invalid_argument");
            failed["reason"] = json!("unknown_option");
            failed["message"] = json!("no option has the label asked for; nothing was chosen; pageData.options lists the options the select has");
            failed["missing"] = json!(u.missing);
            failed["optionCount"] = json!(u.total);
            failed["pageData"] = json!({"options": u.options.iter()
                .map(|c| json!({"label": c.label, "value": c.value})).collect::<Vec<_>>()});
        }
        Failure::Error(e) => {
            let (code, reason, message) = describe(e);
            failed["code"] = json!(code);
            if let Some(r) = reason {
                failed["reason"] = json!(r);
            }
            failed["message"] = json!(message);
        }
    }
    json!({
        "completed": false,
        "filled": filled,
        "fields": fields,
        "failed": failed,
        "evidence": {"kind": "fill_form", "status": "mismatch", "verdict": "mismatch"},
    })
}

/// A stale reason in the protocol's spelling (`target_closed`).
fn stale(r: StaleReason) -> String {
    let mut out = String::new();
    for (i, c) in format!("{r:?}").chars().enumerate() {
        if c.is_ascii_uppercase() && i > 0 {
            out.push('_');
        }
        out.push(c.to_ascii_lowercase());
    }
    out
}

/// A step's error as its stable code, reason and message.
fn describe(e: ToolError) -> (&'static str, Option<String>, String) {
    match e {
        ToolError::InvalidArgument(m) => ("invalid_argument", None, m),
        ToolError::StaleRef(r) => (
            "stale_ref",
            Some(stale(r)),
            "the field's ref no longer resolves".into(),
        ),
        ToolError::CapabilityDenied(m) => ("capability_denied", None, m),
        ToolError::TargetBusy => ("target_busy", None, "another lease controls the tab".into()),
        ToolError::TargetNotOwned => ("target_not_owned", None, "the tab is not owned".into()),
        ToolError::ActionNotVerified(nv) => (
            "action_not_verified",
            Some(nv.reason.clone()),
            format!(
                "the action was not performed: {}",
                nv.reason.replace('_', " ")
            ),
        ),
        ToolError::UnknownOutcome(i) => (
            "unknown_outcome",
            Some(stale(i.reason)),
            format!(
                "the page changed during `{}` at step `{}`",
                i.action, i.step
            ),
        ),
        ToolError::BrowserDisconnected => {
            ("browser_disconnected", None, "the browser is gone".into())
        }
        ToolError::ResultTooLarge(m) => ("result_too_large", None, m),
        ToolError::ActionFailed(_) => ("action_failed", None, "the page's action failed".into()),
        ToolError::Unavailable(m) => ("feature_unavailable", None, m),
        ToolError::Timeout(m) => ("timeout", None, m),
        ToolError::Internal(m) => ("internal_error", None, m),
    }
}
