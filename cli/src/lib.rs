//! The `browser-pilot` command line: argument parsing, the one-shot
//! session with the broker, output for humans and `--json`.

mod about;
mod args;
mod bench;
mod bench_floor;
mod bench_own;
mod bench_speed;
mod bench_workflow;
mod bridge;
mod commands;
mod dialog_commands;
mod doctor;
mod file_commands;
mod fuzz;
mod net_commands;
mod output;
mod progress;
mod resume;
mod session;
mod soak;

use browser_pilot_host::BpError;
use clap::Parser;
use std::process::ExitCode;

/// Parse arguments, run the command, print the result or the error.
pub fn run() -> ExitCode {
    let cli = args::Cli::parse();
    if cli.version {
        about::version(cli.json);
        return ExitCode::SUCCESS;
    }
    let Some(command) = cli.command else {
        // arg_required_else_help covers a bare `bp`; `bp --json` lands here.
        let _ = about::help(None);
        return ExitCode::from(2);
    };
    // The bridge's stdout carries protocol messages only.
    let json = cli.json && !matches!(command, args::Command::Bridge { .. });
    let runtime = match runtime_for(&command) {
        Ok(rt) => rt,
        Err(e) => {
            return fail(
                &BpError::internal(format!("cannot start the async runtime: {e}")),
                json,
            )
        }
    };
    let outcome = runtime.block_on(commands::run(command, json));
    // Do not wait for blocking readers (the bridge's stdin) to finish.
    runtime.shutdown_background();
    match outcome {
        Ok(()) => ExitCode::SUCCESS,
        Err(e) => fail(&e, json),
    }
}

/// The broker and the commands that run many calls at once (bridge,
/// fuzz, soak, bench) get worker threads. Every other command mostly
/// makes a request and waits, so it runs on the calling thread and starts
/// no workers: a one-shot step saves their start and their joining at
/// exit.
fn runtime_for(command: &args::Command) -> std::io::Result<tokio::runtime::Runtime> {
    use args::{BrokerCommand, Command};
    let concurrent = matches!(
        command,
        Command::Broker {
            command: BrokerCommand::Serve { .. }
        } | Command::Bridge { .. }
            | Command::Fuzz { .. }
            | Command::Soak { .. }
            | Command::Bench { .. }
    );
    if concurrent {
        tokio::runtime::Builder::new_multi_thread()
            .worker_threads(2)
            .enable_all()
            .build()
    } else {
        tokio::runtime::Builder::new_current_thread()
            .enable_all()
            .build()
    }
}

fn fail(e: &BpError, json: bool) -> ExitCode {
    if json {
        println!("{}", serde_json::json!({"error": e.to_json()}));
    }
    eprintln!("{}", output::error_line(e));
    ExitCode::from(1)
}
