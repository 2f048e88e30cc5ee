//! The commands that set up or end the session (`bp connect`, `bp
//! disconnect`), open a page (`bp open`) and list the artifacts; each maps
//! onto protocol calls.

use crate::args::Command;
use crate::commands::emit;
use crate::output;
use crate::session::Session;
use browser_pilot_host::cdp::window_size::WindowSize;
use browser_pilot_host::system::paths::Paths;
use browser_pilot_host::{BpError, BpResult, Code};
use serde_json::{json, Value};
use std::path::PathBuf;

/// The commands written out here that set up or end the session, open a
/// page, or list the artifacts.
pub(crate) async fn session_command(mut s: Session, command: Command, json: bool) -> BpResult<()> {
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
        // `browser` sends only the commands above here.
        _ => return Err(BpError::internal("unreachable command routing")),
    }
    Ok(())
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
