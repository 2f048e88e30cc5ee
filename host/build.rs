//! Build the default tool components (a separate wasm32-wasip2 workspace in
//! `tools/`), precompile each one for this host with the runtime's own
//! engine configuration, and place both in OUT_DIR for embedding.

#[path = "src/runtime/engine_config.rs"]
mod engine_config;
#[path = "build/snapshot.rs"]
mod snapshot;

use std::path::PathBuf;
use std::process::Command;

/// Components whose world exports `wizer-initialize` (build/snapshot.rs).
const PREINITIALISED: &[&str] = &["page_tools"];

fn main() {
    let manifest_dir = PathBuf::from(std::env::var("CARGO_MANIFEST_DIR").unwrap_or_default());
    let root = manifest_dir.parent().map(PathBuf::from).unwrap_or_default();
    let tools = root.join("tools");
    let out = PathBuf::from(std::env::var("OUT_DIR").unwrap_or_default());
    // A separate target dir: sharing ours would deadlock on cargo's lock.
    let target = root.join("target").join("tools");
    println!("cargo:rerun-if-changed={}", tools.display());
    println!(
        "cargo:rerun-if-changed={}",
        root.join("tools-wit").display()
    );
    println!("cargo:rerun-if-changed=src/runtime/engine_config.rs");
    println!("cargo:rerun-if-changed=build/snapshot.rs");
    let cargo = std::env::var("CARGO").unwrap_or_else(|_| "cargo".into());
    let status = Command::new(cargo)
        .args([
            "build",
            "--release",
            "--target",
            "wasm32-wasip2",
            "--manifest-path",
        ])
        .arg(tools.join("Cargo.toml"))
        .env("CARGO_TARGET_DIR", &target)
        .env_remove("CARGO_ENCODED_RUSTFLAGS")
        .env_remove("RUSTFLAGS")
        // Lint the guests with their own `cargo clippy`, not through ours.
        .env_remove("RUSTC_WORKSPACE_WRAPPER")
        .env_remove("RUSTC_WRAPPER")
        .env_remove("CARGO_BUILD_TARGET")
        .status();
    match status {
        Ok(s) if s.success() => {}
        Ok(s) => panic!("building the tool components failed ({s}); is the wasm32-wasip2 target installed? (rustup target add wasm32-wasip2)"),
        Err(e) => panic!("cannot run cargo for the tool components: {e}"),
    }
    // The one list of default components: the host embeds exactly these.
    let names = [
        "observe",
        "input",
        "navigate",
        "capture",
        "upload",
        "network",
        "network_rules",
        "cookies",
        "eval",
        "dialogs",
        "tabs",
        "page_tools",
        "wait",
        "scroll",
        "pointer",
        "select",
        "form",
        "emulation",
        "console",
        "storage",
        "storage_write",
        "state",
    ];
    // Precompile for the machine we build on when it is the target; a
    // cross build ships wasm only, compiled at first start instead.
    let engine = (std::env::var("HOST").ok() == std::env::var("TARGET").ok())
        .then(|| wasmtime::Engine::new(&engine_config::engine_config()).ok())
        .flatten();
    let mut embed = String::from("vec![\n");
    for name in names {
        let built = target
            .join("wasm32-wasip2/release")
            .join(format!("bp_tool_{name}.wasm"));
        let wasm = match std::fs::read(&built) {
            Ok(w) => w,
            Err(e) => panic!("missing component {}: {e}", built.display()),
        };
        // Components that build state ahead start every instance from it.
        let wasm = match PREINITIALISED.contains(&name) {
            true => snapshot::snapshot(&wasm)
                .unwrap_or_else(|e| panic!("pre-initialising component {name}: {e}")),
            false => wasm,
        };
        if let Err(e) = std::fs::write(out.join(format!("{name}.wasm")), &wasm) {
            panic!("cannot write {name}.wasm: {e}");
        }
        let precompiled = match engine.as_ref().map(|e| e.precompile_component(&wasm)) {
            Some(Ok(cwasm)) => match std::fs::write(out.join(format!("{name}.cwasm")), cwasm) {
                Ok(()) => {
                    format!("Some(include_bytes!(concat!(env!(\"OUT_DIR\"), \"/{name}.cwasm\")))")
                }
                Err(e) => panic!("cannot write {name}.cwasm: {e}"),
            },
            Some(Err(e)) => panic!("precompiling component {name} failed: {e:#}"),
            None => "None".to_string(),
        };
        embed.push_str(&format!(
            "    Source {{ name: \"{name}\".to_string(), wasm: std::borrow::Cow::Borrowed(include_bytes!(concat!(env!(\"OUT_DIR\"), \"/{name}.wasm\"))), precompiled: {precompiled} }},\n"
        ));
    }
    embed.push_str("]\n");
    if let Err(e) = std::fs::write(out.join("components.rs"), embed) {
        panic!("cannot write the component list: {e}");
    }
}
