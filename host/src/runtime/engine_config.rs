//! The one wasmtime engine configuration. `build.rs` includes this file to
//! precompile the default components, and the runtime uses it to load
//! them, so both sides agree by construction; wasmtime still checks the
//! compatibility of every precompiled artifact when it is loaded.

/// The engine configuration every component is compiled for: epoch
/// interruption bounds each call's run time, and each instance's linear
/// memory starts as a copy-on-write mapping of the component's memory
/// image, so a fresh instance costs no copy of its data (page-tools
/// carries about 1 MiB: the JSON Schema validators its build-time
/// snapshot holds). The precompiled components are made this way.
#[allow(dead_code)] // the runtime picks with `engine_config_with`; build.rs uses this
pub fn engine_config() -> wasmtime::Config {
    engine_config_with(true)
}

/// [`engine_config`], with the copy-on-write images on or off. Off, every
/// data segment is copied into each instance: the runtime's fallback when
/// the process may not write a file as large as an image (the image is a
/// memfd, and writes to it count against `RLIMIT_FSIZE`).
pub fn engine_config_with(cow_images: bool) -> wasmtime::Config {
    let mut config = wasmtime::Config::new();
    config.epoch_interruption(true);
    config.memory_init_cow(cow_images);
    config
}
