//! `allowedOrigins` of `workspaces/create` and `workspaces/configure`: a
//! workspace's own origin scope, which may only narrow the broker's launch
//! list (wider: `capability_denied`; a bad pattern or an empty list:
//! `invalid_argument`).

use super::Broker;
use crate::error::{BpError, BpResult};
use crate::scope::Scope;
use serde_json::{json, Value};

/// The workspace's own list in `p`, checked; `None` when not given.
pub(super) fn allowed_origins(broker: &Broker, p: &Value) -> BpResult<Option<Scope>> {
    let list = match p.get("allowedOrigins") {
        None | Some(Value::Null) => return Ok(None),
        Some(Value::Array(list)) => list,
        Some(_) => {
            return Err(BpError::invalid(
                "`allowedOrigins` must be an array of origins",
            ))
        }
    };
    let texts = list
        .iter()
        .map(|v| {
            v.as_str()
                .ok_or_else(|| BpError::invalid("`allowedOrigins` must hold strings"))
        })
        .collect::<BpResult<Vec<_>>>()?;
    let own = Scope::parse_list(&texts)?.ok_or_else(|| {
        BpError::invalid("`allowedOrigins` must name at least one origin (leave it out for none)")
    })?;
    Scope::narrow(broker.scopes.launch(), own).map(Some)
}

/// Put `own` in force for the workspace named in `reply`, and report the
/// workspace's scope there (`allowedOrigins`, null when none).
pub(super) async fn apply(broker: &Broker, reply: &mut Value, own: Option<Scope>) {
    let ws = reply["workspaceId"]
        .as_str()
        .unwrap_or_default()
        .to_string();
    if let Some(own) = own {
        broker.scopes.set(&ws, own);
        if let Ok(conn) = broker.browser().await {
            crate::broker::watch::scopeflow::arm(broker, &conn).await;
        }
    }
    reply["allowedOrigins"] = json!(broker.scopes.of(&ws).map(|s| s.names()));
}
