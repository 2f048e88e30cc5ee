//! The one wasmtime engine configuration. `build.rs` includes this file to
//! precompile the default components, and the runtime uses it to load
//! them, so both sides agree by construction; wasmtime still checks the
//! compatibility of every precompiled artifact when it is loaded.

/// The engine configuration every component is compiled for: epoch
/// interruption bounds each call's run time. Linear memories are filled
/// by copying each data segment, not from a copy-on-write image: an image
/// is a memfd, a file, which a broker under a file-size limit could not
/// write for a component with large data (page-tools carries the JSON
/// Schema validator's tables), and the copy is small beside a call.
pub fn engine_config() -> wasmtime::Config {
    let mut config = wasmtime::Config::new();
    config.epoch_interruption(true);
    config.memory_init_cow(false);
    config
}
