//! `bp broker serve|status|stop|logs`: the broker's lifecycle.

use crate::args::BrokerCommand;
use crate::commands::emit;
use crate::session::existing_broker;
use browser_pilot_host::broker::connect::locator::{pid_alive, Locator};
use browser_pilot_host::broker::{serve, Broker, Claim};
use browser_pilot_host::runtime::policy::Policy;
use browser_pilot_host::runtime::Runtime;
use browser_pilot_host::system::paths::Paths;
use browser_pilot_host::{components, BpError, BpResult, Code};
use serde_json::{json, Value};
use std::path::PathBuf;
use std::process::ExitCode;

/// `bp broker status`'s exit status when no broker runs (as LSB `status`
/// actions report "not running").
pub const NOT_RUNNING: u8 = 3;

pub async fn broker(command: BrokerCommand, json: bool) -> BpResult<ExitCode> {
    match command {
        BrokerCommand::Serve {
            policy,
            deny,
            deny_tools,
            allowed_origins,
            components,
        } => serve_broker(policy, (deny, deny_tools), allowed_origins, components).await?,
        BrokerCommand::Status => return status(json).await,
        BrokerCommand::Stop { force } => stop(force, json).await?,
        BrokerCommand::Logs { follow, lines } => {
            crate::broker_logs::show(&Paths::from_env()?, lines, follow, json).await?
        }
    }
    Ok(ExitCode::SUCCESS)
}

/// `bp broker status`: the running broker's status (exit 0), or
/// `running: false` (exit [`NOT_RUNNING`]).
async fn status(json: bool) -> BpResult<ExitCode> {
    let mut client = match existing_broker().await {
        Ok(c) => c,
        Err(e) if e.code == Code::BrokerNotRunning => {
            emit(json, &json!({"running": false}), |_| {
                "broker: not running (for this BROWSER_PILOT_HOME)".to_string()
            });
            return Ok(ExitCode::from(NOT_RUNNING));
        }
        Err(e) => return Err(e),
    };
    let mut v = client.request("broker/status", json!({})).await?;
    v["running"] = json!(true);
    emit(json, &v, |v| {
        format!(
            "broker pid {} version {} up {} ms\nbrowser: {}\nsocket: {}\n",
            v["pid"],
            v["version"].as_str().unwrap_or(""),
            v["uptimeMs"],
            v["browser"]["state"].as_str().unwrap_or(""),
            v["socket"].as_str().unwrap_or("")
        )
    });
    Ok(ExitCode::SUCCESS)
}

async fn stop(force: bool, json: bool) -> BpResult<()> {
    let paths = Paths::from_env()?;
    let locator = Locator::read(&paths);
    let mut client = match existing_broker().await {
        Ok(c) => c,
        Err(e) if e.code == Code::BrokerNotRunning => {
            // Stopping a stopped service succeeds.
            emit(json, &json!({"stopped": false, "running": false}), |_| {
                "no broker was running".to_string()
            });
            return Ok(());
        }
        Err(e) => return Err(e),
    };
    let status = client.request("broker/status", json!({})).await?;
    // Compare-and-stop: only the broker the locator names, and only
    // one of this installation (unless forced).
    let own = std::env::current_exe()
        .map(|p| p.display().to_string())
        .unwrap_or_default();
    let named = locator.as_ref().map(|l| (l.pid, l.executable.clone()));
    if named.is_none() && !force {
        return Err(BpError::new(
            Code::ProtocolIncompatible,
            "a broker answers but no locator names it; nothing was stopped (pass --force to stop it anyway)",
        ));
    }
    if let Some((_, exe)) = &named {
        if *exe != own && !force {
            return Err(BpError::new(
                Code::ProtocolIncompatible,
                format!("the running broker belongs to another installation ({exe}); stop it with that executable, or pass --force"),
            ));
        }
    }
    let mut params = json!({"force": force});
    if let Some((pid, exe)) = named {
        params["pid"] = json!(pid);
        params["executable"] = json!(exe);
    }
    let reply = client.request("broker/stop", params).await?;
    // Hang up (the broker waits for its clients), then wait for the
    // process to go away so callers can rely on it.
    drop(client);
    if let Some(pid) = status["pid"].as_u64().and_then(|p| u32::try_from(p).ok()) {
        for _ in 0..500 {
            if !pid_alive(pid) {
                break;
            }
            tokio::time::sleep(std::time::Duration::from_millis(10)).await;
        }
    }
    let out = json!({"stopped": true, "ended": reply["ended"]});
    emit(json, &out, |v| stopped_text(&v["ended"]));
    Ok(())
}

/// `broker stopped; it ended 1 other client connection, ...`.
fn stopped_text(ended: &Value) -> String {
    let count = |key: &str, one: &str, many: &str| {
        let n = ended[key].as_u64().unwrap_or(0);
        format!("{n} {}", if n == 1 { one } else { many })
    };
    if !ended.is_object() {
        return "broker stopped".into();
    }
    format!(
        "broker stopped; it ended {}, {}, {} and {}",
        count(
            "connections",
            "other client connection",
            "other client connections"
        ),
        count("workspaces", "workspace", "workspaces"),
        count("leases", "lease", "leases"),
        count("managedTabs", "managed tab", "managed tabs"),
    )
}

async fn serve_broker(
    policy: Option<PathBuf>,
    (deny, deny_tools): (Vec<String>, Vec<String>),
    allowed_origins: Vec<String>,
    dir: Option<PathBuf>,
) -> BpResult<()> {
    let paths = Paths::from_env()?;
    // Refused here, before anything of a running broker's (its log
    // included) is touched.
    let claim = Claim::acquire(&paths).await?;
    crate::broker_log::init(&paths);
    let policy = Policy::load(policy.as_deref(), &deny, &deny_tools)?
        .with_allowed_origins(&allowed_origins)?;
    let sources = match dir {
        Some(d) => components::from_dir(&d)?,
        None => components::embedded(),
    };
    let natives = browser_pilot_host::broker::native::rows::rows();
    let runtime = Runtime::load(sources, natives, policy, Some(&paths.cache)).await?;
    let broker = Broker::new(paths, runtime, &claim)?;
    serve(broker, claim).await
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_stop_text_counts_what_ended() {
        let text = stopped_text(
            &json!({"connections": 1, "workspaces": 2, "leases": 2, "managedTabs": 1}),
        );
        assert_eq!(
            text,
            "broker stopped; it ended 1 other client connection, 2 workspaces, 2 leases and 1 managed tab"
        );
        assert_eq!(stopped_text(&Value::Null), "broker stopped");
    }
}
