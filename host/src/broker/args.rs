//! Reading the arguments of the broker's own tools: strict, with the
//! stable `invalid_argument` messages every native tool shares.

use crate::error::{BpError, BpResult};
use serde_json::Value;

/// No arguments: absent, `null` or `{}`.
pub(super) fn no_args(args: &Value) -> BpResult<()> {
    match args.as_object() {
        Some(m) if m.is_empty() => Ok(()),
        None if args.is_null() => Ok(()),
        _ => Err(BpError::invalid("this tool takes no arguments")),
    }
}

pub(super) fn str_arg<'a>(args: &'a Value, key: &str) -> BpResult<Option<&'a str>> {
    match args.get(key) {
        None | Some(Value::Null) => Ok(None),
        Some(Value::String(s)) => Ok(Some(s)),
        Some(_) => Err(BpError::invalid(format!("`{key}` must be a string"))),
    }
}

pub(super) fn bool_arg(args: &Value, key: &str) -> BpResult<Option<bool>> {
    match args.get(key) {
        None | Some(Value::Null) => Ok(None),
        Some(Value::Bool(b)) => Ok(Some(*b)),
        Some(_) => Err(BpError::invalid(format!("`{key}` must be true or false"))),
    }
}

/// Arguments must be an object (or absent).
pub(super) fn object_args(args: &Value) -> BpResult<()> {
    if args.is_object() || args.is_null() {
        Ok(())
    } else {
        Err(BpError::invalid("`arguments` must be an object"))
    }
}

pub(super) fn only_keys(args: &Value, keys: &[&str]) -> BpResult<()> {
    if let Some(unknown) = args
        .as_object()
        .into_iter()
        .flatten()
        .map(|(k, _)| k)
        .find(|k| !keys.contains(&k.as_str()))
    {
        return Err(BpError::invalid(format!("unknown argument `{unknown}`")));
    }
    Ok(())
}
