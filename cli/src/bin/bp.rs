//! `bp`: the short alias of `browser-pilot`. It replaces itself with the
//! `browser-pilot` executable installed beside it.

use std::os::unix::process::CommandExt;
use std::process::{Command, ExitCode};

fn main() -> ExitCode {
    let exe = match std::env::current_exe() {
        Ok(p) => p.with_file_name("browser-pilot"),
        Err(e) => {
            eprintln!("error[internal_error]: cannot locate myself: {e}");
            return ExitCode::from(1);
        }
    };
    let err = Command::new(&exe).args(std::env::args_os().skip(1)).exec();
    eprintln!("error[internal_error]: cannot run {}: {err}", exe.display());
    ExitCode::from(1)
}
