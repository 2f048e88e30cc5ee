//! The `workspaces/*` methods: create, resume (take over or watch), get,
//! configure and release. Who may reach a workspace is `connect/identity.rs`.

use super::Broker;
use crate::broker::rpc::params::{opt_str, str_param};
use crate::error::{BpError, BpResult};
use serde_json::{json, Value};

/// One `workspaces/*` request of `principal`.
pub(super) async fn method(
    broker: &Broker,
    principal: &str,
    method: &str,
    p: &Value,
) -> BpResult<Value> {
    match method {
        "workspaces/create" => {
            let label = opt_str(p, "label").map(str::to_string);
            // Checked before anything is created.
            let own = crate::broker::scope_args::allowed_origins(broker, p)?;
            let mut reply = {
                let mut st = broker.state();
                let ws = st.create_workspace(principal, opt_str(p, "key"), label)?;
                json!({"workspaceId": ws.id, "eventCursor": st.cursor(&ws.id), "resumeSecret": ws.resume_secret})
            };
            crate::broker::scope_args::apply(broker, &mut reply, own).await;
            Ok(reply)
        }
        "workspaces/resume" => {
            let id = str_param(p, "workspaceId")?;
            let secret = str_param(p, "resumeSecret")?;
            let observe = match p.get("observe") {
                None | Some(Value::Null) => false,
                Some(v) => v
                    .as_bool()
                    .ok_or_else(|| BpError::invalid("`observe` must be true or false"))?,
            };
            let mut st = broker.state();
            if observe {
                st.observe(principal, id, secret)?;
            } else {
                st.resume(principal, id, secret)?;
            }
            Ok(
                json!({"workspaceId": id, "eventCursor": st.cursor(id), "resumed": !observe, "observing": observe}),
            )
        }
        "workspaces/get" => get(broker, principal, str_param(p, "workspaceId")?),
        "workspaces/configure" => {
            let id = str_param(p, "workspaceId")?;
            broker.state().workspace(principal, id)?;
            let own = crate::broker::scope_args::allowed_origins(broker, p)?;
            if let Some(v) = p.get("networkEvents") {
                let on = v
                    .as_bool()
                    .ok_or_else(|| BpError::invalid("`networkEvents` must be a boolean"))?;
                broker.network.set_events(id, on);
            }
            if let Some(v) = p.get("consoleEvents") {
                let on = v
                    .as_bool()
                    .ok_or_else(|| BpError::invalid("`consoleEvents` must be a boolean"))?;
                broker.console.set_events(id, on);
                if on {
                    start_console(broker, id).await;
                }
            }
            let mut reply = json!({"workspaceId": id, "networkEvents": broker.network.events_on(id),
                                   "consoleEvents": broker.console.events_on(id)});
            crate::broker::scope_args::apply(broker, &mut reply, own).await;
            Ok(reply)
        }
        "workspaces/release" => release(broker, principal, str_param(p, "workspaceId")?).await,
        other => Err(BpError::invalid(format!("unknown method `{other}`"))),
    }
}

/// Console events switched on: the workspace uses the console, so its
/// tabs' console is enabled now (and on every later attach).
async fn start_console(broker: &Broker, ws: &str) {
    broker.console.start_using(ws);
    let raws: Vec<String> = {
        let st = broker.state();
        st.controllers
            .iter()
            .filter(|(_, lease)| st.leases.get(*lease).is_some_and(|l| l.workspace_id == ws))
            .map(|(raw, _)| raw.to_string())
            .collect()
    };
    if let Ok(conn) = broker.browser().await {
        for raw in raws {
            conn.enable_console(&raw).await;
        }
    }
}

fn get(broker: &Broker, principal: &str, id: &str) -> BpResult<Value> {
    let st = broker.state();
    let cursor = st.cursor(id);
    let leases: Vec<String> = st
        .leases
        .values()
        .filter(|l| l.workspace_id == id)
        .map(|l| l.id.to_string())
        .collect();
    let ws = st.readable(principal, id)?;
    Ok(
        json!({"workspaceId": ws.id, "label": ws.label, "targets": ws.targets.keys().collect::<Vec<_>>(),
              "currentTarget": ws.current_target, "leases": leases, "eventCursor": cursor}),
    )
}

/// Release a workspace: its leases, observations, frames and artifacts
/// go, and the tabs it created are closed.
pub(super) async fn release(broker: &Broker, principal: &str, id: &str) -> BpResult<Value> {
    let managed = broker.state().release_workspace(principal, id)?;
    broker.observations.remove_workspace(id);
    broker.console.remove_workspace(id);
    broker.scopes.remove_workspace(id);
    broker.frames.remove_workspace(id);
    broker.artifacts.remove_workspace(id);
    broker.progress.reset_workspace(id);
    broker.auth_states.forget_workspace(id);
    if let Ok(conn) = broker.browser().await {
        for raw in managed {
            let _ = conn.close_target(&raw).await;
        }
    }
    broker.clear_released_overrides().await;
    Ok(json!({"released": true}))
}
