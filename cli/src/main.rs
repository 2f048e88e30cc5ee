//! `browser-pilot` (alias `bp`): the one executable.

use std::process::ExitCode;

fn main() -> ExitCode {
    browser_pilot::run()
}
