//! The `browser-pilot` command line: argument parsing, the one-shot
//! session with the broker, output for humans and `--json`.

mod about;
mod args;
mod artifacts_command;
mod bridge;
mod bridge_wire;
mod broker_commands;
mod broker_log;
mod broker_logs;
mod click_command;
mod commands;
mod console_command;
mod dialog_commands;
mod doctor;
mod drag_command;
mod events_command;
mod file_commands;
mod fill_command;
mod follow;
mod guide;
mod history_command;
mod hover_command;
mod mcp;
mod net_commands;
mod output;
mod pace_args;
mod page_tool_commands;
mod progress;
mod resume;
mod scroll_command;
mod select_command;
mod session;
mod session_commands;
mod state_command;
mod storage_command;
mod takeover_command;
mod viewport_command;
mod wait_command;

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
        let _ = about::help_now(None);
        return ExitCode::from(2);
    };
    // The bridge's stdout carries protocol messages only.
    let json = cli.json
        && !matches!(
            command,
            args::Command::Bridge { .. } | args::Command::Mcp(_)
        );
    let Ok(runtime) = runtime_for(&command) else {
        return no_runtime(json);
    };
    finish(runtime, commands::run(command, json), json)
}

/// `bp`: the one-shot commands that talk to the broker (the browser
/// commands and `tool`) run right here, with the same code as in
/// `browser-pilot` but in a small executable that starts in a fraction of
/// the time. Everything else (help, version, the broker, bench, bridge,
/// doctor, ...), and anything that does not parse, replaces this process
/// with the `browser-pilot` beside it, which prints and exits exactly as
/// when called by that name.
pub fn run_alias() -> ExitCode {
    session::running_as_short_bp();
    let cli = match args::Cli::try_parse() {
        Ok(cli) if !cli.version => cli,
        _ => return exec_full(),
    };
    let Some(command) = cli.command.filter(commands::runs_in_alias) else {
        return exec_full();
    };
    let Ok(runtime) = runtime_for(&command) else {
        return no_runtime(cli.json);
    };
    let json = cli.json;
    let command = async move {
        commands::run_session(command, json)
            .await
            .map(|()| ExitCode::SUCCESS)
    };
    finish(runtime, command, json)
}

/// Replace this process with `browser-pilot` (beside this executable),
/// passing the arguments on.
fn exec_full() -> ExitCode {
    use std::os::unix::process::CommandExt;
    // Whether `--json` was asked for (the arguments may not parse).
    let json = std::env::args_os().any(|a| a == "--json");
    let exe = match browser_pilot_host::system::paths::current_exe() {
        Ok(p) => p.with_file_name("browser-pilot"),
        Err(e) => return fail(&e, json),
    };
    let err = std::process::Command::new(&exe)
        .args(std::env::args_os().skip(1))
        .exec();
    let message = format!("cannot run {}: {err}", exe.display());
    fail(
        &browser_pilot_host::client::exec_failed(message, &exe, &err),
        json,
    )
}

fn no_runtime(json: bool) -> ExitCode {
    fail(&BpError::internal("cannot start the async runtime"), json)
}

/// Run the command to its end, print its error if any.
fn finish(
    runtime: tokio::runtime::Runtime,
    command: impl std::future::Future<Output = browser_pilot_host::BpResult<ExitCode>>,
    json: bool,
) -> ExitCode {
    let outcome = runtime.block_on(command);
    // Do not wait for tasks still blocked in a read to finish.
    runtime.shutdown_background();
    match outcome {
        Ok(code) => code,
        Err(e) => fail(&e, json),
    }
}

/// The broker and the commands that run many calls at once (fuzz, soak,
/// bench, and `bp mcp`, whose calls, heartbeats and cancels overlap) get
/// worker threads; the bridge relays on threads of its own.
/// Every other command mostly makes a request and waits, so it runs on
/// the calling thread and starts no workers: a one-shot step saves their
/// start and their joining at exit.
fn runtime_for(command: &args::Command) -> std::io::Result<tokio::runtime::Runtime> {
    use args::{BrokerCommand, Command};
    let concurrent = matches!(
        command,
        Command::Broker {
            command: BrokerCommand::Serve { .. }
        } | Command::Fuzz { .. }
            | Command::Soak { .. }
            | Command::Bench { .. }
            | Command::Mcp(_)
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
