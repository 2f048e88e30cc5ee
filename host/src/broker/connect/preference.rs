//! The one piece of browser state written to disk: which discovered
//! browser the user picked (`bp connect --browser ID`). Never tabs, refs,
//! endpoints or anything secret.

use crate::error::{BpError, BpResult};
use crate::system::paths::{write_private, Paths};
use serde_json::{json, Value};
use std::path::PathBuf;

fn file(paths: &Paths) -> PathBuf {
    paths.home.join("preferences.json")
}

/// The preferred browser candidate ID, if one was chosen.
pub fn load(paths: &Paths) -> Option<String> {
    let text = std::fs::read(file(paths)).ok()?;
    let v: Value = serde_json::from_slice(&text).ok()?;
    v.get("browser")?.as_str().map(str::to_string)
}

/// Remember `candidate_id` as the preferred browser (owner-only file).
pub fn save(paths: &Paths, candidate_id: &str) -> BpResult<()> {
    let text = serde_json::to_vec_pretty(&json!({ "browser": candidate_id }))
        .map_err(|e| BpError::internal(e.to_string()))?;
    write_private(&file(paths), &text)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn round_trip_and_nothing_else_is_written() {
        let home = std::env::temp_dir().join(format!("bp-pref-{}", std::process::id()));
        let _ = std::fs::remove_dir_all(&home);
        std::fs::create_dir_all(&home).unwrap();
        let paths = Paths::at(home.clone());
        assert_eq!(load(&paths), None);
        save(&paths, "chromium-stable-0123abcd").unwrap();
        assert_eq!(load(&paths).as_deref(), Some("chromium-stable-0123abcd"));
        let v: Value = serde_json::from_slice(&std::fs::read(file(&paths)).unwrap()).unwrap();
        assert_eq!(v.as_object().map(|o| o.len()), Some(1));
        let _ = std::fs::remove_dir_all(&home);
    }
}
