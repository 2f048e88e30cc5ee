//! Content hashes and the precompiled-component cache.

use std::path::Path;
use wasmtime::component::Component;
use wasmtime::Engine;

pub use crate::ids::hex_digest;

/// How a component's native code was obtained.
#[derive(Debug, Clone, Copy, PartialEq, Eq, serde::Serialize)]
#[serde(rename_all = "snake_case")]
pub enum Origin {
    /// Shipped in the executable, made at build time.
    Precompiled,
    /// Loaded from the content-hash cache.
    Cache,
    /// Compiled at load.
    Compiled,
}

/// The component of `source`: its build-time native code when this
/// engine accepts it (wasmtime checks version and configuration), else
/// the cache or a fresh compile.
pub fn load_source(
    engine: &Engine,
    source: &crate::components::Source,
    cache_dir: Option<&Path>,
) -> wasmtime::Result<(Component, Origin)> {
    if let Some(native) = source.precompiled {
        // SAFETY: the bytes were produced by `Engine::precompile_component`
        // in our own build script and embedded in this executable; wasmtime
        // refuses them if they were made for another engine configuration.
        match unsafe { Component::deserialize(engine, native) } {
            Ok(c) => return Ok((c, Origin::Precompiled)),
            Err(e) => {
                tracing::info!(component = %source.name, "precompiled code not usable ({e:#}); compiling")
            }
        }
    }
    load_component(engine, &source.wasm, cache_dir)
}

/// Compile `wasm`, or load it from `cache_dir` when a precompiled artifact
/// for the same bytes and engine exists. The key covers the wasm hash and
/// the engine's compatibility hash, so a new wasmtime never loads an old
/// artifact.
pub fn load_component(
    engine: &Engine,
    wasm: &[u8],
    cache_dir: Option<&Path>,
) -> wasmtime::Result<(Component, Origin)> {
    let Some(dir) = cache_dir else {
        return Ok((Component::new(engine, wasm)?, Origin::Compiled));
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
            return Ok((component, Origin::Cache));
        }
    }
    let component = Component::new(engine, wasm)?;
    if let Ok(bytes) = component.serialize() {
        if crate::system::paths::ensure_private_dir(dir).is_ok() {
            let _ = crate::system::paths::write_private(&path, &bytes);
        }
    }
    Ok((component, Origin::Compiled))
}
