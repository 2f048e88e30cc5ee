//! `browser-pilot`: the full executable (the broker, the bridge, the
//! bench and every command); `bp` is its short name (`bin/bp.rs`).

use std::process::ExitCode;

fn main() -> ExitCode {
    browser_pilot::run()
}
