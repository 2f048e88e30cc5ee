//! One function per command family; each maps onto protocol calls.

use crate::args::{Command, ToolCommand};
use crate::output;
use crate::session::Session;
use browser_pilot_host::cdp::window_size::WindowSize;
use browser_pilot_host::system::paths::Paths;
use browser_pilot_host::{BpError, BpResult, Code};
use serde_json::{json, Value};
use std::path::PathBuf;
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

/// `browser.connect` arguments for `bp connect`: an endpoint, a
/// discovered browser's ID, a launch, or none (the one viable browser).
fn connect_args(
    launch: bool,
    headless: bool,
    executable: Option<PathBuf>,
    window_size: Option<String>,
    profile: Option<String>,
    endpoint: Option<String>,
    browser: Option<String>,
) -> BpResult<Value> {
    Ok(match (endpoint, browser) {
        (Some(endpoint), _) => json!({"endpoint": endpoint}),
        (None, Some(id)) => json!({"browser": id}),
        (None, None) if launch => {
            let mut opts = json!({"headless": headless});
            if let Some(exe) = executable {
                opts["executable"] = json!(exe);
            }
            if let Some(text) = window_size {
                let size = WindowSize::parse(&text)?;
                opts["windowSize"] = json!({"width": size.width, "height": size.height});
            }
            if let Some(dir) = profile {
                opts["profile"] = json!(absolute_profile(&dir)?);
            }
            json!({"launch": opts})
        }
        (None, None)
            if headless || executable.is_some() || window_size.is_some() || profile.is_some() =>
        {
            return Err(BpError::invalid(
                "--headless, --executable, --window-size and --profile need --launch",
            ))
        }
        (None, None) => json!({}),
    })
}

/// `--profile DIR` as the broker takes it: `default`, or DIR made
/// absolute against this command's working directory (the broker's is
/// not the caller's).
fn absolute_profile(dir: &str) -> BpResult<String> {
    if dir == "default" || std::path::Path::new(dir).is_absolute() {
        return Ok(dir.to_string());
    }
    let cwd = std::env::current_dir()
        .map_err(|e| BpError::internal(format!("cannot read the working directory: {e}")))?;
    Ok(cwd.join(dir).display().to_string())
}

async fn browser(command: Command, json: bool) -> BpResult<()> {
    let mut s = Session::open_with(crate::progress::wanted(json)).await?;
    let (v, text) = match command {
        // It holds a session only for each of its calls.
        Command::Console(a) => return crate::console_command::console(s, a, json).await,
        Command::Events(a) => {
            drop(s);
            return crate::events_command::events(a, json).await;
        }
        Command::Click(click) => crate::click_command::click(&mut s, click).await?,
        Command::Wait(wait) => crate::wait_command::wait(&mut s, wait).await?,
        Command::Scroll(scroll) => crate::scroll_command::scroll(&mut s, scroll).await?,
        Command::Back | Command::Forward | Command::Reload => {
            let action = match command {
                Command::Back => "back",
                Command::Forward => "forward",
                _ => "reload",
            };
            crate::history_command::history(&mut s, action).await?
        }
        Command::Viewport(a) => crate::viewport_command::viewport(&mut s, a).await?,
        Command::Takeover(a) if crate::takeover_command::is_done(&a) => {
            crate::takeover_command::done(&mut s, &a).await?
        }
        Command::Takeover(a) => crate::takeover_command::takeover(&mut s, a).await?,
        Command::Window(a) => crate::takeover_command::window(&mut s, a).await?,
        Command::Emulate(a) => crate::viewport_command::emulate(&mut s, a).await?,
        Command::Hover(hover) => crate::hover_command::hover(&mut s, hover).await?,
        Command::Drag(drag) => crate::drag_command::drag(&mut s, drag).await?,
        Command::Fill(fill) => crate::fill_command::fill(&mut s, fill).await?,
        Command::Select(select) => crate::select_command::select(&mut s, select).await?,
        Command::Screenshot { path, full_page } => {
            crate::file_commands::screenshot(&mut s, path, full_page).await?
        }
        Command::Pdf { path } => crate::file_commands::pdf(&mut s, path).await?,
        Command::Upload { reference, paths } => {
            let r = parse_ref(&reference)?;
            crate::file_commands::upload(&mut s, &reference, r, paths).await?
        }
        Command::Artifact { command } => crate::file_commands::artifact(&mut s, command).await?,
        Command::Net { command } => crate::net_commands::net(&mut s, command).await?,
        Command::Auth { command } => crate::net_commands::auth(&mut s, command).await?,
        Command::Cookies { command } => crate::net_commands::cookies(&mut s, command).await?,
        Command::Storage { command } => crate::storage_command::storage(&mut s, command).await?,
        Command::State { command } => {
            if command.wants_user_grant() {
                s.allow_state_load_user();
            }
            crate::state_command::state(&mut s, command).await?
        }
        Command::Dialogs => crate::dialog_commands::list(&mut s).await?,
        Command::Dialog { command } => crate::dialog_commands::respond(&mut s, command).await?,
        Command::PageTools {
            frame,
            allow_consequential,
        } => {
            if allow_consequential {
                s.allow_consequential();
            }
            crate::page_tool_commands::list(&mut s, frame).await?
        }
        Command::PageTool {
            reference,
            input,
            allow_consequential,
        } => {
            if allow_consequential {
                s.allow_consequential();
            }
            crate::page_tool_commands::call(&mut s, reference, &input).await?
        }
        Command::Eval { expression } => crate::net_commands::eval(&mut s, expression).await?,
        c @ (Command::Artifacts
        | Command::Connect { .. }
        | Command::Disconnect { .. }
        | Command::Open { .. }
        | Command::Snapshot { .. }
        | Command::Type { .. }
        | Command::Press { .. }
        | Command::Keyboard { .. }
        | Command::Read { .. }
        | Command::Tabs
        | Command::Tab { .. }
        | Command::Frame { .. }
        | Command::Close { .. }) => return inline(s, c, json).await,
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
        | Command::Janitor => return Err(BpError::internal("unreachable command routing")),
    };
    emit(json, &v, |_| text);
    Ok(())
}

/// The commands written out here rather than in a file of their own.
async fn inline(mut s: Session, command: Command, json: bool) -> BpResult<()> {
    match command {
        Command::Artifacts => crate::artifacts_command::artifacts(&mut s, json).await?,
        Command::Connect {
            launch,
            headless,
            executable,
            window_size,
            profile,
            endpoint,
            browser,
            allowed_origins,
        } => {
            let args = connect_args(
                launch,
                headless,
                executable,
                window_size,
                profile,
                endpoint,
                browser,
            )?;
            if !allowed_origins.is_empty() {
                let ws = s.workspace_id().await?;
                let scope = json!({"workspaceId": ws, "allowedOrigins": allowed_origins});
                s.request("workspaces/configure", scope).await?;
            }
            let v = s.tool("browser.connect", args).await?;
            emit(json, &v, output::connected);
        }
        Command::Disconnect { force } => {
            let args = json!({"force": force, "keepIfInUse": !force});
            let mut v = s.tool("browser.disconnect", args).await?;
            let ws = s.workspace_id().await?;
            s.request("workspaces/release", json!({"workspaceId": ws}))
                .await?;
            // Alone, the CLI takes the broker down too (FLOW-1), and only
            // the broker its locator names.
            if v["kept"] == false {
                v["brokerStopped"] = json!(stop_own_broker(&mut s).await.is_ok());
            }
            emit(json, &v, output::disconnected);
        }
        Command::Open { url } => {
            // Navigate the current tab; with none (or one that is gone),
            // open a managed tab instead. Either refusal happens before
            // any browser traffic.
            let open_tab = json!({"url": url});
            let v = match s.tool("browser.navigate", json!({"url": url})).await {
                Err(e) if no_current_tab(&e) => s.tool("browser.tabs.open", open_tab).await?,
                other => other?,
            };
            emit(json, &v, |v| {
                format!(
                    "opened {} — {}",
                    v["url"].as_str().unwrap_or(""),
                    v["title"].as_str().unwrap_or("")
                )
            });
        }
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

/// Stop the broker this session talks to, compare-and-stop, refused (and
/// kept) if another client took a lease meanwhile.
async fn stop_own_broker(s: &mut Session) -> BpResult<Value> {
    let paths = Paths::from_env()?;
    let locator = browser_pilot_host::broker::connect::locator::Locator::read(&paths)
        .ok_or_else(|| BpError::internal("no broker locator"))?;
    s.request(
        "broker/stop",
        json!({"pid": locator.pid, "executable": locator.executable}),
    )
    .await
}

/// Whether a target tool failed only because the CLI has no usable
/// current tab (none yet, closed, or taken over).
fn no_current_tab(e: &BpError) -> bool {
    let no_target = e.code == Code::InvalidArgument
        && e.context
            .as_ref()
            .is_some_and(|c| c["reason"] == "no_target");
    no_target || e.code == Code::StaleRef || e.code == Code::TargetNotOwned
}
