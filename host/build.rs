//! Build the default tool components (a separate wasm32-wasip2 workspace in
//! `tools/`) and place them in OUT_DIR for embedding.

use std::path::PathBuf;
use std::process::Command;

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
    ];
    let mut embed = String::from("vec![\n");
    for name in names {
        let built = target
            .join("wasm32-wasip2/release")
            .join(format!("bp_tool_{name}.wasm"));
        if let Err(e) = std::fs::copy(&built, out.join(format!("{name}.wasm"))) {
            panic!("missing component {}: {e}", built.display());
        }
        embed.push_str(&format!(
            "    (\"{name}\".to_string(), include_bytes!(concat!(env!(\"OUT_DIR\"), \"/{name}.wasm\")).to_vec()),\n"
        ));
    }
    embed.push_str("]\n");
    if let Err(e) = std::fs::write(out.join("components.rs"), embed) {
        panic!("cannot write the component list: {e}");
    }
}
