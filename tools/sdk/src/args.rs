//! Typed access to a tool's JSON arguments with clear `invalid-argument`
//! errors. Unknown fields are rejected by [`Args::finish`].

use crate::{invalid, ToolError};
use serde_json::{Map, Value};
use std::collections::BTreeSet;

/// The parsed argument object of one call.
pub struct Args {
    map: Map<String, Value>,
    seen: BTreeSet<String>,
}

impl Args {
    /// Parse `input`, which must be a JSON object (or empty for no arguments).
    pub fn parse(input: &str) -> Result<Self, ToolError> {
        let value: Value = if input.trim().is_empty() {
            Value::Object(Map::new())
        } else {
            serde_json::from_str(input)
                .map_err(|e| invalid(format!("arguments are not JSON: {e}")))?
        };
        match value {
            Value::Object(map) => Ok(Self {
                map,
                seen: BTreeSet::new(),
            }),
            _ => Err(invalid("arguments must be a JSON object")),
        }
    }

    fn get(&mut self, key: &str) -> Option<&Value> {
        self.seen.insert(key.to_string());
        self.map.get(key).filter(|v| !v.is_null())
    }

    /// Mark fields the host consumes (like `targetId`) as known.
    pub fn allow(&mut self, keys: &[&str]) {
        for k in keys {
            self.seen.insert((*k).to_string());
        }
    }

    /// An optional string.
    pub fn opt_str(&mut self, key: &str) -> Result<Option<String>, ToolError> {
        match self.get(key) {
            None => Ok(None),
            Some(Value::String(s)) => Ok(Some(s.clone())),
            Some(_) => Err(invalid(format!("`{key}` must be a string"))),
        }
    }

    /// A required string.
    pub fn str(&mut self, key: &str) -> Result<String, ToolError> {
        self.opt_str(key)?
            .ok_or_else(|| invalid(format!("`{key}` is required")))
    }

    /// An optional raw JSON value.
    pub fn opt_value(&mut self, key: &str) -> Option<Value> {
        self.get(key).cloned()
    }

    /// An optional list of strings.
    pub fn opt_str_list(&mut self, key: &str) -> Result<Option<Vec<String>>, ToolError> {
        match self.get(key) {
            None => Ok(None),
            Some(Value::Array(items)) => items
                .iter()
                .map(|v| {
                    v.as_str()
                        .map(str::to_string)
                        .ok_or_else(|| invalid(format!("`{key}` must hold strings")))
                })
                .collect::<Result<Vec<_>, _>>()
                .map(Some),
            Some(_) => Err(invalid(format!("`{key}` must be a list of strings"))),
        }
    }

    /// An optional boolean.
    pub fn opt_bool(&mut self, key: &str) -> Result<Option<bool>, ToolError> {
        match self.get(key) {
            None => Ok(None),
            Some(Value::Bool(b)) => Ok(Some(*b)),
            Some(_) => Err(invalid(format!("`{key}` must be true or false"))),
        }
    }

    /// An optional integer within `min..=max`.
    pub fn opt_u32(&mut self, key: &str, min: u32, max: u32) -> Result<Option<u32>, ToolError> {
        let v = match self.get(key) {
            None => return Ok(None),
            Some(v) => v,
        };
        let n = v
            .as_u64()
            .filter(|n| *n >= u64::from(min) && *n <= u64::from(max))
            .ok_or_else(|| invalid(format!("`{key}` must be an integer from {min} to {max}")))?;
        u32::try_from(n)
            .map(Some)
            .map_err(|_| invalid(format!("`{key}` is out of range")))
    }

    /// A required ref: a positive integer (a numeric string is accepted).
    pub fn ref_number(&mut self, key: &str) -> Result<u32, ToolError> {
        self.opt_ref(key)?
            .ok_or_else(|| invalid(format!("`{key}` is required")))
    }

    /// An optional ref: a positive integer (a numeric string is accepted).
    pub fn opt_ref(&mut self, key: &str) -> Result<Option<u32>, ToolError> {
        let v = match self.get(key) {
            None => return Ok(None),
            Some(v) => v.clone(),
        };
        let n = match &v {
            Value::Number(n) => n.as_u64(),
            Value::String(s) => s.trim().parse::<u64>().ok(),
            _ => None,
        };
        n.filter(|n| *n >= 1 && *n <= u64::from(u32::MAX))
            .and_then(|n| u32::try_from(n).ok())
            .map(Some)
            .ok_or_else(|| invalid(format!("`{key}` must be a positive integer ref")))
    }

    /// Fail on any field no getter asked for.
    pub fn finish(self) -> Result<(), ToolError> {
        let unknown: Vec<&String> = self
            .map
            .keys()
            .filter(|k| !self.seen.contains(*k))
            .collect();
        if unknown.is_empty() {
            Ok(())
        } else {
            let names: Vec<&str> = unknown.iter().map(|s| s.as_str()).collect();
            Err(invalid(format!(
                "unknown argument(s): {}",
                names.join(", ")
            )))
        }
    }
}
