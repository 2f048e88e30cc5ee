//! `bp`: the short name of `browser-pilot`. The one-shot commands that
//! talk to the broker run in this small executable, which starts faster;
//! anything else runs the `browser-pilot` installed beside it
//! ([`browser_pilot::run_alias`]).

use std::process::ExitCode;

fn main() -> ExitCode {
    browser_pilot::run_alias()
}
