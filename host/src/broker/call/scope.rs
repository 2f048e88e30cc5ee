//! Step 3, resolve scope: what an authorised call acts on, from its
//! registry row. A native tool resolves its own; a workspace tool gets the
//! calling workspace and no tab; a target tool gets one checked tab, taken
//! by the calling lease, and its turn on the tab's lane.

use super::scope_target;
use super::scope_workspace;
use super::types::{fail, Bound, CallScope, Failed, NestedCall};
use crate::broker::Broker;
use crate::runtime::capability::Reach;
use crate::runtime::{Handler, ToolEntry};
use serde_json::Value;
use std::sync::atomic::AtomicBool;
use std::sync::Arc;

/// Bind the call of `entry` with `args` (a target tool's may gain the
/// observation its bare ref means).
pub(super) async fn resolve(
    broker: &Arc<Broker>,
    scope: &CallScope,
    entry: &ToolEntry,
    args: &mut Value,
    dispatched: &Arc<AtomicBool>,
    nested: NestedCall,
) -> Result<Bound, Failed> {
    if entry.handler == Handler::Native {
        return Ok(Bound::Native);
    }
    let conn = broker.browser().await.map_err(fail)?;
    scope.same_generation(conn.generation).map_err(fail)?;
    match entry.info.scope {
        Reach::Target => {
            let name = entry.info.name.as_str();
            scope_target::bind(broker, scope, name, args, dispatched, conn, nested).await
        }
        Reach::Workspace | Reach::Browser => {
            scope_workspace::bind(broker, scope, args, dispatched, conn, nested)
        }
    }
}
