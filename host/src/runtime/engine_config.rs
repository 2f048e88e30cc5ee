//! The one wasmtime engine configuration. `build.rs` includes this file to
//! precompile the default components, and the runtime uses it to load
//! them, so both sides agree by construction; wasmtime still checks the
//! compatibility of every precompiled artifact when it is loaded.

/// The engine configuration every component is compiled for: epoch
/// interruption bounds each call's run time.
pub fn engine_config() -> wasmtime::Config {
    let mut config = wasmtime::Config::new();
    config.epoch_interruption(true);
    config
}
