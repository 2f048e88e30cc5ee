//! The saved-state file: `{"format": "bp-state", "version": 1, ...}`, the
//! cookies of a browser and the local storage of some origins. Written by
//! `state-save`, read by `state-load`; the whole file is checked before
//! anything is loaded. The values are secrets: no message here quotes
//! any part of the file.

use crate::browser::dom_storage::origin_of;
use crate::error::{BpError, BpResult};
use serde_json::{json, Map, Value};

/// The format name.
pub const FORMAT: &str = "bp-state";
/// The version this broker writes and the newest it reads.
pub const VERSION: u64 = 1;
/// The most cookies a file may hold.
pub const MAX_COOKIES: usize = 10_000;
/// The most origins, and local storage items per origin, a file may hold.
pub const MAX_ORIGINS: usize = 1_000;
pub const MAX_ITEMS: usize = 10_000;

/// One origin's local storage.
#[derive(Debug, Clone, PartialEq)]
pub struct OriginStorage {
    pub origin: String,
    pub items: Vec<(String, String)>,
}

/// A saved state: cookies as `Network.Cookie`-shaped objects (the fields
/// `Storage.setCookies` takes), and local storage per origin.
#[derive(Debug, Clone, PartialEq, Default)]
pub struct SavedState {
    pub cookies: Vec<Value>,
    pub origins: Vec<OriginStorage>,
}

/// The fields of a browser cookie that a state keeps (and can set back).
const COOKIE_FIELDS: &[&str] = &[
    "name", "value", "domain", "path", "expires", "httpOnly", "secure", "sameSite",
];

/// A browser cookie (`Storage.getCookies`) as the file keeps it; a
/// session cookie (`expires` of -1) keeps no expiry.
pub fn cookie_entry(c: &Value) -> Value {
    let mut out = Map::new();
    for f in COOKIE_FIELDS {
        if let Some(v) = c.get(*f).filter(|v| !v.is_null()) {
            if *f == "expires" && v.as_f64().is_none_or(|e| e <= 0.0) {
                continue;
            }
            out.insert((*f).to_string(), v.clone());
        }
    }
    Value::Object(out)
}

impl SavedState {
    /// The file's bytes.
    pub fn to_bytes(&self, saved_at_ms: u64) -> BpResult<Vec<u8>> {
        let origins: Vec<Value> = self
            .origins
            .iter()
            .map(|o| {
                let items: Vec<Value> = o
                    .items
                    .iter()
                    .map(|(k, v)| json!({"key": k, "value": v}))
                    .collect();
                json!({"origin": o.origin, "localStorage": items})
            })
            .collect();
        let doc = json!({"format": FORMAT, "version": VERSION, "savedAt": saved_at_ms,
                         "cookies": self.cookies, "origins": origins});
        serde_json::to_vec_pretty(&doc)
            .map_err(|e| BpError::internal(format!("writing the state: {e}")))
    }

    /// Read a file, checking all of it.
    pub fn parse(bytes: &[u8]) -> BpResult<Self> {
        let not_one = || BpError::invalid("the file is not a saved state (a bp-state JSON file)");
        let doc: Value = serde_json::from_slice(bytes).map_err(|_| not_one())?;
        if doc.get("format").and_then(Value::as_str) != Some(FORMAT) {
            return Err(not_one());
        }
        let version = doc
            .get("version")
            .and_then(Value::as_u64)
            .ok_or_else(not_one)?;
        if version > VERSION {
            return Err(BpError::invalid(format!(
                "the saved state is version {version}, newer than this broker reads (version {VERSION}); update bp"
            ))
            .with_context(json!({"version": version, "supported": VERSION})));
        }
        if version == 0 {
            return Err(not_one());
        }
        let cookies = list(&doc, "cookies", MAX_COOKIES)?
            .iter()
            .enumerate()
            .map(|(i, c)| checked_cookie(i, c))
            .collect::<BpResult<Vec<_>>>()?;
        let origins = list(&doc, "origins", MAX_ORIGINS)?
            .iter()
            .enumerate()
            .map(|(i, o)| checked_origin(i, o))
            .collect::<BpResult<Vec<_>>>()?;
        Ok(Self { cookies, origins })
    }
}

fn list<'a>(doc: &'a Value, field: &str, max: usize) -> BpResult<&'a Vec<Value>> {
    let items = doc[field]
        .as_array()
        .ok_or_else(|| BpError::invalid(format!("the saved state has no `{field}` list")))?;
    if items.len() > max {
        return Err(BpError::invalid(format!(
            "the saved state holds more than {max} {field}"
        )));
    }
    Ok(items)
}

fn checked_cookie(i: usize, c: &Value) -> BpResult<Value> {
    let bad = |why: &str| BpError::invalid(format!("cookie {i} of the saved state {why}"));
    let text = |f: &str| c.get(f).and_then(Value::as_str);
    match text("name") {
        Some(n) if !n.is_empty() && !n.contains(['=', ';']) => {}
        _ => return Err(bad("has no valid name")),
    }
    if text("value").is_none_or(|v| v.contains(';') || v.chars().any(char::is_control)) {
        return Err(bad("has no valid value"));
    }
    if text("domain").is_none_or(str::is_empty) {
        return Err(bad("has no domain"));
    }
    if c.get("sameSite")
        .is_some_and(|s| !matches!(s.as_str(), Some("Strict" | "Lax" | "None")))
    {
        return Err(bad("has a sameSite other than Strict, Lax or None"));
    }
    Ok(cookie_entry(c))
}

fn checked_origin(i: usize, o: &Value) -> BpResult<OriginStorage> {
    let bad = |why: &str| BpError::invalid(format!("origin {i} of the saved state {why}"));
    let origin = o["origin"].as_str().ok_or_else(|| bad("has no origin"))?;
    if origin_of(origin).as_deref() != Some(origin) {
        return Err(bad("is not a serialized http(s) origin"));
    }
    let items = o["localStorage"]
        .as_array()
        .ok_or_else(|| bad("has no localStorage list"))?;
    if items.len() > MAX_ITEMS {
        return Err(bad("holds too many items"));
    }
    let items = items
        .iter()
        .map(|it| match (it["key"].as_str(), it["value"].as_str()) {
            (Some(k), Some(v)) => Ok((k.to_string(), v.to_string())),
            _ => Err(bad("has an item without a string key and value")),
        })
        .collect::<BpResult<Vec<_>>>()?;
    Ok(OriginStorage {
        origin: origin.to_string(),
        items,
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    fn sample() -> SavedState {
        SavedState {
            cookies: vec![cookie_entry(&json!({"name": "sid", "value": "s3cret",
                "domain": "127.0.0.1", "path": "/", "expires": -1, "size": 9,
                "httpOnly": true, "secure": false, "sameSite": "Lax"}))],
            origins: vec![OriginStorage {
                origin: "http://127.0.0.1:8080".into(),
                items: vec![("token".into(), "t0ken".into())],
            }],
        }
    }

    #[test]
    fn a_saved_state_reads_back_as_itself() {
        let s = sample();
        assert!(s.cookies[0].get("expires").is_none());
        assert!(s.cookies[0].get("size").is_none());
        let bytes = s.to_bytes(1).unwrap();
        assert_eq!(SavedState::parse(&bytes).unwrap(), s);
    }

    #[test]
    fn other_files_are_refused_without_quoting_them() {
        for bad in [
            &b"s3cret not json"[..],
            b"{\"format\":\"other\",\"version\":1}",
            b"[]",
            b"{\"format\":\"bp-state\",\"version\":0,\"cookies\":[],\"origins\":[]}",
        ] {
            let e = SavedState::parse(bad).unwrap_err();
            assert_eq!(e.code, crate::error::Code::InvalidArgument);
            assert!(!e.message.contains("s3cret"), "{}", e.message);
        }
    }

    #[test]
    fn a_newer_version_is_named() {
        let e =
            SavedState::parse(br#"{"format":"bp-state","version":7,"cookies":[],"origins":[]}"#)
                .unwrap_err();
        assert!(e.message.contains("version 7"), "{}", e.message);
    }

    #[test]
    fn bad_entries_are_refused_by_position_not_value() {
        let doc = json!({"format": "bp-state", "version": 1,
            "cookies": [{"name": "a", "value": "s3cret;x", "domain": "a.test"}], "origins": []});
        let e = SavedState::parse(doc.to_string().as_bytes()).unwrap_err();
        assert!(e.message.contains("cookie 0") && !e.message.contains("s3cret"));
        let doc = json!({"format": "bp-state", "version": 1, "cookies": [],
            "origins": [{"origin": "http://a.test/path", "localStorage": []}]});
        assert!(SavedState::parse(doc.to_string().as_bytes()).is_err());
        let doc = json!({"format": "bp-state", "version": 1, "cookies": [],
            "origins": [{"origin": "http://a.test", "localStorage": [{"key": "k"}]}]});
        assert!(SavedState::parse(doc.to_string().as_bytes()).is_err());
    }
}
