//! One function per command family; each maps onto protocol calls.

use crate::args::{Command, ToolCommand};
use crate::output;
use crate::session::Session;
use browser_pilot_host::{BpError, BpResult};
use serde_json::{json, Value};
use std::process::ExitCode;

/// Print `value` as JSON or through `human`.
/// A reader that stops early (`bp tool list | head`) ends the output, not
/// the process with a panic.
pub(crate) fn emit(json: bool, value: &Value, human: impl FnOnce(&Value) -> String) {
    use std::io::Write;
    let mut text = if json {
        value.to_string()
    } else {
        human(value)
    };
    if !text.ends_with('\n') {
        text.push('\n');
    }
    let mut out = std::io::stdout().lock();
    let _ = out.write_all(text.as_bytes()).and_then(|()| out.flush());
}

/// A ref argument: a positive number.
pub(crate) fn parse_ref(r: &str) -> BpResult<u64> {
    r.trim_start_matches('[')
        .trim_end_matches(']')
        .parse::<u64>()
        .ok()
        .filter(|n| *n >= 1)
        .ok_or_else(|| {
            BpError::invalid(format!(
                "`{r}` is not a ref; use a number from `bp snapshot`"
            ))
        })
}

pub async fn run(command: Command, json: bool) -> BpResult<ExitCode> {
    // The same routing as `bp`'s, so both names run a command alike.
    if runs_in_alias(&command) {
        return run_session(command, json).await.map(|()| ExitCode::SUCCESS);
    }
    if let Command::Broker { command } = command {
        return crate::broker_commands::broker(command, json).await;
    }
    match command {
        Command::Help { topic } => crate::about::help(topic.as_deref()).await,
        Command::Completions { shell } => {
            crate::about::completions(shell);
            Ok(())
        }
        Command::Man => crate::about::man(),
        Command::Bench {
            iterations,
            fixtures,
            workflow_only,
            page_tools_only,
        } => {
            browser_pilot_devtools::bench::run(iterations, fixtures, workflow_only, page_tools_only)
                .await
        }
        Command::BenchFloor {
            ws_url,
            target,
            step,
            arg,
        } => browser_pilot_devtools::bench::one_step(&ws_url, &target, &step, arg.as_deref()).await,
        Command::Bridge { .. } => crate::bridge::run().await,
        Command::Mcp(args) => crate::mcp::run(args).await,
        Command::Soak {
            clients,
            calls,
            rounds,
            fixtures,
        } => browser_pilot_devtools::soak::run(clients, calls, rounds, fixtures).await,
        Command::Fuzz {
            inputs,
            seconds,
            seed,
            max_rss_mb,
            out,
            jobs,
            mcp,
        } => {
            if mcp {
                return browser_pilot_devtools::fuzz::mcp::run(inputs, seconds, seed, json)
                    .await
                    .map(|()| ExitCode::SUCCESS);
            }
            let opts = browser_pilot_devtools::fuzz::Options {
                inputs,
                time_limit: seconds.map(std::time::Duration::from_secs),
                seed,
                max_rss_mb,
                out,
            };
            browser_pilot_devtools::fuzz::run(opts, jobs, json).await
        }
        Command::Janitor => browser_pilot_host::system::janitor::run().await,
        Command::Browsers => crate::doctor::browsers(json),
        Command::Doctor => crate::doctor::doctor(json).await,
        _ => Err(BpError::internal("unreachable command routing")),
    }
    .map(|()| ExitCode::SUCCESS)
}

/// Whether `command` is a one-shot request to the broker (see
/// [`run_session`]), which the `bp` executable runs itself; `bp` hands
/// every other command to `browser-pilot`.
pub fn runs_in_alias(command: &Command) -> bool {
    !matches!(
        command,
        Command::Help { .. }
            | Command::Completions { .. }
            | Command::Man
            | Command::Broker { .. }
            | Command::Bench { .. }
            | Command::BenchFloor { .. }
            | Command::Bridge { .. }
            | Command::Mcp(_)
            | Command::Soak { .. }
            | Command::Fuzz { .. }
            | Command::Janitor
            | Command::Browsers
            | Command::Doctor
    )
}

/// The commands that make one-shot requests to the broker: `tool` and
/// the browser commands.
pub async fn run_session(command: Command, json: bool) -> BpResult<()> {
    match command {
        Command::Tool {
            command: ToolCommand::List,
        } => {
            let mut s = Session::open().await?;
            let v = s.request("tools/list", json!({})).await?;
            emit(json, &v, output::tool_list);
            Ok(())
        }
        Command::Tool {
            command: ToolCommand::Call { name, input },
        } => {
            let args: Value = serde_json::from_str(&input)
                .map_err(|e| BpError::invalid(format!("--input is not JSON: {e}")))?;
            let v = Session::open().await?.tool(&name, args).await?;
            emit(true, &v, |_| String::new());
            Ok(())
        }
        other => browser(other, json).await,
    }
}

async fn browser(command: Command, json: bool) -> BpResult<()> {
    let mut s = Session::open_with(crate::progress::wanted(json)).await?;
    match command {
        // It holds a session only for each of its calls.
        Command::Console(a) => crate::console_command::console(s, a, json).await,
        Command::Events(a) => {
            drop(s);
            crate::events_command::events(a, json).await
        }
        c @ (Command::Artifacts
        | Command::Connect { .. }
        | Command::Disconnect { .. }
        | Command::Open { .. }) => crate::session_commands::session_command(s, c, json).await,
        c @ (Command::Snapshot { .. }
        | Command::Type { .. }
        | Command::Press { .. }
        | Command::Keyboard { .. }
        | Command::Read { .. }) => page_command(s, c, json).await,
        c @ (Command::Tabs
        | Command::Tab { .. }
        | Command::Frame { .. }
        | Command::Close { .. }) => tab_command(s, c, json).await,
        Command::Broker { .. }
        | Command::Bench { .. }
        | Command::BenchFloor { .. }
        | Command::Fuzz { .. }
        | Command::Soak { .. }
        | Command::Bridge { .. }
        | Command::Mcp(_)
        | Command::Tool { .. }
        | Command::Browsers
        | Command::Doctor
        | Command::Help { .. }
        | Command::Completions { .. }
        | Command::Man
        | Command::Janitor => Err(BpError::internal("unreachable command routing")),
        // Every other command has a file of its own.
        c => {
            let (v, text) = own_file(&mut s, c).await?;
            emit(json, &v, |_| text);
            Ok(())
        }
    }
}

/// A command whose own file runs it: its result, and the result as text
/// for people.
async fn own_file(s: &mut Session, command: Command) -> BpResult<(Value, String)> {
    Ok(match command {
        Command::Click(click) => crate::click_command::click(s, click).await?,
        Command::Wait(wait) => crate::wait_command::wait(s, wait).await?,
        Command::Scroll(scroll) => crate::scroll_command::scroll(s, scroll).await?,
        Command::Back | Command::Forward | Command::Reload => {
            let action = match command {
                Command::Back => "back",
                Command::Forward => "forward",
                _ => "reload",
            };
            crate::history_command::history(s, action).await?
        }
        Command::Viewport(a) => crate::viewport_command::viewport(s, a).await?,
        Command::Takeover(a) if crate::takeover_command::is_done(&a) => {
            crate::takeover_command::done(s, &a).await?
        }
        Command::Takeover(a) => crate::takeover_command::takeover(s, a).await?,
        Command::Window(a) => crate::takeover_command::window(s, a).await?,
        Command::Emulate(a) => crate::viewport_command::emulate(s, a).await?,
        Command::Hover(hover) => crate::hover_command::hover(s, hover).await?,
        Command::Drag(drag) => crate::drag_command::drag(s, drag).await?,
        Command::Fill(fill) => crate::fill_command::fill(s, fill).await?,
        Command::Select(select) => crate::select_command::select(s, select).await?,
        Command::Screenshot { path, full_page } => {
            crate::file_commands::screenshot(s, path, full_page).await?
        }
        Command::Pdf { path } => crate::file_commands::pdf(s, path).await?,
        Command::Upload { reference, paths } => {
            let r = parse_ref(&reference)?;
            crate::file_commands::upload(s, &reference, r, paths).await?
        }
        Command::Artifact { command } => crate::file_commands::artifact(s, command).await?,
        Command::Net { command } => crate::net_commands::net(s, command).await?,
        Command::Auth { command } => crate::net_commands::auth(s, command).await?,
        Command::Cookies { command } => crate::net_commands::cookies(s, command).await?,
        Command::Storage { command } => crate::storage_command::storage(s, command).await?,
        Command::State { command } => {
            if command.wants_user_grant() {
                s.allow_state_load_user();
            }
            crate::state_command::state(s, command).await?
        }
        Command::Dialogs => crate::dialog_commands::list(s).await?,
        Command::Dialog { command } => crate::dialog_commands::respond(s, command).await?,
        Command::PageTools {
            frame,
            allow_consequential,
        } => {
            if allow_consequential {
                s.allow_consequential();
            }
            crate::page_tool_commands::list(s, frame).await?
        }
        Command::PageTool {
            reference,
            input,
            allow_consequential,
        } => {
            if allow_consequential {
                s.allow_consequential();
            }
            crate::page_tool_commands::call(s, reference, &input).await?
        }
        Command::Eval { expression } => crate::net_commands::eval(s, expression).await?,
        // `browser` sends only the commands above here.
        _ => return Err(BpError::internal("unreachable command routing")),
    })
}

/// The commands written out here that read the current page or type
/// into it.
async fn page_command(mut s: Session, command: Command, json: bool) -> BpResult<()> {
    match command {
        Command::Snapshot { limit, query } => {
            let mut args = json!({});
            if let Some(limit) = limit {
                args["limit"] = json!(limit);
            }
            if let Some(query) = query {
                args["query"] = json!(query);
            }
            let v = s.tool("browser.observe", args).await?;
            emit(json, &v, output::snapshot);
        }
        Command::Type {
            reference,
            text,
            clear,
            submit,
            wait_ms,
            settle,
        } => {
            let mut args = json!({"ref": parse_ref(&reference)?, "text": text, "clear": clear, "submit": submit});
            if let Some(ms) = wait_ms {
                args["waitMs"] = json!(ms);
            }
            if let Some(s) = settle {
                args["settle"] = json!(s);
            }
            let v = s.tool("browser.type", args).await?;
            emit(json, &v, |v| output::action("typed into", &reference, v));
        }
        Command::Press { key, settle } => {
            let mut args = json!({"key": key});
            if let Some(s) = settle {
                args["settle"] = json!(s);
            }
            let v = s.tool("browser.press", args).await?;
            emit(json, &v, |v| {
                output::action(&format!("pressed {key}"), "", v)
            });
        }
        Command::Keyboard { text } => {
            let v = s.tool("browser.keyboard", json!({"text": text})).await?;
            emit(json, &v, |v| output::action("typed", "", v));
        }
        Command::Read {
            reference,
            max_chars,
            include_hidden,
        } => {
            let mut args = json!({});
            if let Some(r) = reference {
                args["ref"] = json!(parse_ref(&r)?);
            }
            if let Some(m) = max_chars {
                args["maxChars"] = json!(m);
            }
            if include_hidden {
                args["includeHidden"] = json!(true);
            }
            let v = s.tool("browser.read", args).await?;
            if !json {
                if let Some(note) = output::hidden_text_note(&v["hiddenText"], include_hidden) {
                    eprintln!("{note}");
                }
            }
            emit(json, &v, |v| v["text"].as_str().unwrap_or("").to_string());
        }
        // `browser` sends only the commands above here.
        _ => return Err(BpError::internal("unreachable command routing")),
    }
    Ok(())
}

/// The commands written out here on the workspace's tabs and frames.
async fn tab_command(mut s: Session, command: Command, json: bool) -> BpResult<()> {
    match command {
        Command::Tabs => {
            let v = s.tool("browser.tabs.list", json!({})).await?;
            emit(json, &v, output::tabs);
        }
        Command::Tab { target } => {
            let v = s
                .tool("browser.tabs.acquire", json!({"targetId": target}))
                .await?;
            emit(json, &v, |v| {
                format!("current tab: {}", v["targetId"].as_str().unwrap_or(""))
            });
        }
        Command::Frame { frame, main } => {
            if frame.is_none() && !main {
                let v = s.tool("browser.frames.list", json!({})).await?;
                emit(json, &v, output::frames);
            } else {
                let v = s
                    .tool("browser.frames.select", json!({"frameId": frame}))
                    .await?;
                emit(json, &v, |v| {
                    format!("selected frame {}", v["frameId"].as_str().unwrap_or(""))
                });
            }
        }
        Command::Close { target, all } => {
            let args = match target {
                Some(t) => json!({"targetId": t}),
                None => json!({"all": all}),
            };
            let v = s.tool("browser.tabs.close", args).await?;
            emit(json, &v, output::closed);
        }
        // `browser` sends only the commands above here.
        _ => return Err(BpError::internal("unreachable command routing")),
    }
    Ok(())
}
