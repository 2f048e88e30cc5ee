//! Rebuild the SDK, and so every component that depends on it, when the
//! WIT package changes: `wit_bindgen::generate!` alone was seen to leave a
//! component built against the old WIT after an incremental build.

fn main() {
    println!("cargo:rerun-if-changed=../../tools-wit");
    if let Ok(dir) = std::fs::read_dir("../../tools-wit") {
        for entry in dir.flatten() {
            println!("cargo:rerun-if-changed={}", entry.path().display());
        }
    }
}
