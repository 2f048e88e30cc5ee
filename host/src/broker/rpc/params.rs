//! Reading request parameters: the helpers every method handler shares.

use crate::error::{BpError, BpResult};
use serde_json::Value;

/// The principal name of the one-shot CLI (its bare refs and workspace
/// resume follow the compatibility rules).
pub const CLI_PRINCIPAL: &str = "browser-pilot-cli";

/// A required string parameter.
pub(in crate::broker) fn str_param<'a>(params: &'a Value, key: &str) -> BpResult<&'a str> {
    params
        .get(key)
        .and_then(Value::as_str)
        .ok_or_else(|| BpError::invalid(format!("`{key}` is required")))
}

/// An optional string parameter (absent or not a string: none).
pub(in crate::broker) fn opt_str<'a>(params: &'a Value, key: &str) -> Option<&'a str> {
    params.get(key).and_then(Value::as_str)
}
