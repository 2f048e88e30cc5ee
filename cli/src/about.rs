//! What the executable says about itself: `--version` (with `--json`),
//! `bp help [COMMAND|agents]`, shell completions and the man page, all
//! generated from the clap definition.

use crate::args::Cli;
use browser_pilot_host::broker::{PROTOCOL_MAX, PROTOCOL_MIN, VERSION};
use browser_pilot_host::{components, BpError, BpResult};
use clap::CommandFactory;
use serde_json::json;

/// The WIT package the embedded components and this host speak.
const WIT_PACKAGE: &str = "browser-pilot:tools@0.1.0";

/// `bp --version [--json]`.
pub fn version(json: bool) {
    if !json {
        println!("browser-pilot {VERSION}");
        return;
    }
    let components: Vec<_> = components::embedded()
        .iter()
        .map(|c| {
            json!({"name": c.name, "sha256": browser_pilot_host::runtime::pool::cache::hex_digest(&c.wasm),
                   "bytes": c.wasm.len(), "precompiled": c.precompiled.is_some()})
        })
        .collect();
    let profile = if cfg!(debug_assertions) {
        "debug"
    } else {
        "release"
    };
    println!(
        "{}",
        json!({"version": VERSION, "protocol": {"min": PROTOCOL_MIN, "max": PROTOCOL_MAX},
               "wit": WIT_PACKAGE, "components": components, "profile": profile})
    );
}

/// `bp help [TOPIC]`; the agents guide asks the broker which tools it
/// offers, so this one is async.
pub async fn help(topic: Option<&str>) -> BpResult<()> {
    if topic == Some("agents") {
        print!("{}", crate::guide::live().await);
        return Ok(());
    }
    help_now(topic)
}

/// `bp help [COMMAND]`, from the clap definition alone.
pub fn help_now(topic: Option<&str>) -> BpResult<()> {
    let mut cmd = Cli::command();
    let printed = match topic {
        None => cmd.print_help(),
        Some(name) => match cmd.find_subcommand_mut(name) {
            Some(sub) => sub.print_help(),
            None => {
                return Err(BpError::invalid(format!(
                    "no command or topic `{name}`; topics: agents"
                )))
            }
        },
    };
    printed.map_err(|e| BpError::internal(format!("printing help: {e}")))
}

/// `bp completions SHELL`.
pub fn completions(shell: clap_complete::Shell) {
    let mut cmd = Cli::command();
    clap_complete::generate(shell, &mut cmd, "bp", &mut std::io::stdout());
}

/// `bp man`.
pub fn man() -> BpResult<()> {
    clap_mangen::Man::new(Cli::command())
        .render(&mut std::io::stdout())
        .map_err(|e| BpError::internal(format!("rendering the man page: {e}")))
}
