//! The default tool components, embedded at build time, and loading a
//! replacement set from a directory.

use crate::error::{BpError, BpResult};
use std::path::Path;

/// `(name, wasm)` of every embedded default component.
pub fn embedded() -> Vec<(String, Vec<u8>)> {
    macro_rules! embed {
        ($($name:literal),*) => {
            vec![$(($name.to_string(), include_bytes!(concat!(env!("OUT_DIR"), "/", $name, ".wasm")).to_vec())),*]
        };
    }
    embed!(
        "observe",
        "input",
        "navigate",
        "capture",
        "upload",
        "network",
        "network_rules",
        "cookies",
        "eval",
        "dialogs"
    )
}

/// Every `*.wasm` file in `dir`, sorted by name; the name is the file stem.
pub fn from_dir(dir: &Path) -> BpResult<Vec<(String, Vec<u8>)>> {
    let entries = std::fs::read_dir(dir)
        .map_err(|e| BpError::invalid(format!("cannot read {}: {e}", dir.display())))?;
    let mut out = Vec::new();
    for entry in entries.flatten() {
        let path = entry.path();
        if path.extension().and_then(|e| e.to_str()) != Some("wasm") {
            continue;
        }
        let name = path
            .file_stem()
            .and_then(|s| s.to_str())
            .unwrap_or("component")
            .to_string();
        let bytes = std::fs::read(&path)
            .map_err(|e| BpError::invalid(format!("cannot read {}: {e}", path.display())))?;
        out.push((name, bytes));
    }
    out.sort_by(|a, b| a.0.cmp(&b.0));
    if out.is_empty() {
        return Err(BpError::invalid(format!(
            "no .wasm components in {}",
            dir.display()
        )));
    }
    Ok(out)
}
