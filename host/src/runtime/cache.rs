//! Content hashes and the precompiled-component cache.

use sha2::{Digest, Sha256};
use std::path::Path;
use wasmtime::component::Component;
use wasmtime::Engine;

/// Lower-case hex SHA-256 of `bytes`.
pub fn hex_digest(bytes: &[u8]) -> String {
    Sha256::digest(bytes)
        .iter()
        .map(|b| format!("{b:02x}"))
        .collect()
}

/// Compile `wasm`, or load it from `cache_dir` when a precompiled artifact
/// for the same bytes and engine exists. The key covers the wasm hash and
/// the engine's compatibility hash, so a new wasmtime never loads an old
/// artifact.
pub fn load_component(
    engine: &Engine,
    wasm: &[u8],
    cache_dir: Option<&Path>,
) -> wasmtime::Result<Component> {
    let Some(dir) = cache_dir else {
        return Component::new(engine, wasm);
    };
    let mut hasher = std::collections::hash_map::DefaultHasher::new();
    std::hash::Hash::hash(&engine.precompile_compatibility_hash(), &mut hasher);
    let engine_key = std::hash::Hasher::finish(&hasher);
    let path = dir.join(format!(
        "{}-{engine_key:016x}.cwasm",
        &hex_digest(wasm)[..32]
    ));
    if path.is_file() {
        // SAFETY: the file is in our owner-only cache directory and was
        // written by `serialize` for this engine configuration (the key).
        if let Ok(component) = unsafe { Component::deserialize_file(engine, &path) } {
            return Ok(component);
        }
    }
    let component = Component::new(engine, wasm)?;
    if let Ok(bytes) = component.serialize() {
        if crate::paths::ensure_private_dir(dir).is_ok() {
            let _ = crate::paths::write_private(&path, &bytes);
        }
    }
    Ok(component)
}
