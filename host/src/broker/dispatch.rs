//! `tools/call`: authorise, pick the target, serialise on its lane, run the
//! tool (native or component) and add the common result fields.

use super::state::State;
use super::Broker;
use crate::browser::call::{CallSetup, Caller, LeaseGuard, TargetCall};
use crate::error::{BpError, BpResult, Code};
use crate::runtime::bindings::types::CallContext;
use crate::runtime::capability::{self, Reach};
use crate::runtime::Scope;
use serde_json::{json, Value};
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::Arc;

/// Who is calling, already authorised.
#[derive(Clone)]
pub struct CallScope {
    pub principal: String,
    pub workspace_id: String,
    pub lease_id: String,
    /// The one-shot CLI's compatibility principal: bare refs resolve
    /// against the latest observation of the target.
    pub compat: bool,
    /// The connection was granted `developer.eval`.
    pub eval_granted: bool,
    pub command_id: String,
    /// The browser connection generation when the command was accepted: a
    /// command never reaches a later generation.
    pub generation: u64,
}

impl CallScope {
    /// Whether the client was granted `grant` at initialize.
    pub fn granted(&self, grant: &str) -> bool {
        match grant {
            "developer.eval" => self.eval_granted,
            _ => false,
        }
    }
}

/// Refuse a command accepted under an earlier connection generation.
pub fn same_generation(scope: &CallScope, current: u64) -> BpResult<()> {
    if scope.generation == current {
        return Ok(());
    }
    Err(BpError::new(
        Code::BrowserDisconnected,
        "the browser was reconnected after this command was accepted; it was not run",
    )
    .with_context(json!({"acceptedGeneration": scope.generation, "generation": current})))
}

/// The outcome of one call: result or error, and whether the browser was
/// touched by a mutation before it ended.
pub struct Outcome {
    pub result: BpResult<Value>,
    pub dispatched: bool,
}

/// The raw target behind a public ID of the caller's workspace.
pub fn raw_target(st: &mut State, scope: &CallScope, public: &str) -> BpResult<String> {
    let raw = st
        .workspace(&scope.principal, &scope.workspace_id)?
        .targets
        .get(public)
        .cloned()
        .filter(|raw| !st.managed_elsewhere(raw, &scope.workspace_id));
    raw.ok_or_else(|| {
        BpError::new(
            Code::TargetNotOwned,
            "no such target in this workspace; list tabs again",
        )
    })
}

/// A ref into an observation of an earlier connection generation:
/// `stale_ref` (`browser_reconnected`), whatever target it named.
fn retired_ref(broker: &Broker, scope: &CallScope, args: &Value) -> Option<BpError> {
    let retired = match args.get("observationId").and_then(Value::as_str) {
        Some(id) => broker.observations.is_retired(id),
        // The CLI's bare refs mean the latest observation of the current
        // tab; a reconnect took both away.
        None => {
            scope.compat
                && args.get("ref").is_some()
                && args.get("targetId").is_none()
                && broker.observations.workspace_retired(&scope.workspace_id)
                && broker
                    .state()
                    .workspaces
                    .get(&scope.workspace_id)
                    .is_some_and(|w| w.current_target.is_none())
        }
    };
    retired.then(|| BpError::stale("browser_reconnected"))
}

/// Run a tool for an authorised caller. `dispatched` is set immediately
/// before the first browser mutation.
pub async fn run(
    broker: &Arc<Broker>,
    scope: &CallScope,
    name: &str,
    args: Value,
    dispatched: Arc<AtomicBool>,
) -> Outcome {
    if !broker.runtime.tool_allowed(name) {
        return Outcome {
            result: Err(crate::runtime::Runtime::removal(name)),
            dispatched: false,
        };
    }
    if super::native::is_native(name) {
        let result = super::native::call(broker, scope, name, &args).await;
        let touched = result.is_ok() && broker.runtime_native_mutates(name);
        return Outcome {
            result,
            dispatched: touched,
        };
    }
    match run_component_inner(broker, scope, name, args, dispatched).await {
        Ok((value, dispatched)) => Outcome {
            result: Ok(value),
            dispatched,
        },
        Err((e, dispatched)) => Outcome {
            result: Err(e),
            dispatched,
        },
    }
}

/// Run a component tool (also used by native tools that compose one).
pub async fn run_component(
    broker: &Arc<Broker>,
    scope: &CallScope,
    name: &str,
    args: Value,
) -> BpResult<Value> {
    run_component_inner(broker, scope, name, args, Arc::new(AtomicBool::new(false)))
        .await
        .map(|(v, _)| v)
        .map_err(|(e, _)| e)
}

async fn run_component_inner(
    broker: &Arc<Broker>,
    scope: &CallScope,
    name: &str,
    mut args: Value,
    dispatched: Arc<AtomicBool>,
) -> Result<(Value, bool), (BpError, bool)> {
    let fail = |e: BpError| (e, false);
    // Policy first: a denied tool is refused before anything reaches CDP.
    let entry = broker
        .runtime
        .tool(name)
        .ok_or_else(|| fail(BpError::invalid(format!("unknown tool `{name}`"))))?;
    if !broker.runtime.callable(entry) {
        return Err(fail(broker.runtime.denial(entry)));
    }
    for grant in capability::grants(&entry.info.capabilities) {
        if !scope.granted(grant) {
            return Err(fail(BpError::new(
                Code::CapabilityDenied,
                format!("`{grant}` was not granted to this client; request it at initialize"),
            )));
        }
    }
    if !args.is_object() {
        if args.is_null() {
            args = json!({});
        } else {
            return Err(fail(BpError::invalid("`arguments` must be an object")));
        }
    }
    let conn = broker.browser().await.map_err(fail)?;
    same_generation(scope, conn.generation).map_err(fail)?;
    if capability::reach_of(&entry.info.capabilities) != Reach::Target {
        return super::scopes::run_workspace_tool(broker, scope, name, &args, dispatched, &conn)
            .await;
    }

    if let Some(e) = retired_ref(broker, scope, &args) {
        return Err(fail(e));
    }
    // Pick and authorise the target.
    let (public, raw) = {
        let mut st = broker.state();
        let requested = match args.get("targetId") {
            None | Some(Value::Null) => None,
            Some(Value::String(s)) => Some(s.clone()),
            Some(_) => return Err(fail(BpError::invalid("`targetId` must be a string"))),
        };
        let public = match requested {
            Some(p) => p,
            None => st
                .workspace(&scope.principal, &scope.workspace_id)
                .map_err(fail)?
                .current_target
                .clone()
                .ok_or_else(|| {
                    fail(BpError::invalid(
                        "no target: open one (bp open URL / browser.tabs.open) or pass `targetId`",
                    ))
                })?,
        };
        let raw = raw_target(&mut st, scope, &public).map_err(fail)?;
        if !conn.registry.with(&raw, |t| t.eligible()).unwrap_or(false) {
            return Err(fail(
                BpError::stale("target_closed").with_context(json!({"reason": "target_closed"})),
            ));
        }
        st.acquire(&scope.lease_id, &raw).map_err(fail)?;
        st.workspace(&scope.principal, &scope.workspace_id)
            .map_err(fail)?
            .current_target = Some(public.clone());
        (public, raw)
    };
    if scope.compat && args.get("ref").is_some() && args.get("observationId").is_none() {
        if let (Some(obs), Some(obj)) = (
            broker.observations.latest(&scope.workspace_id, &raw),
            args.as_object_mut(),
        ) {
            obj.insert("observationId".into(), json!(obs));
        }
    }

    // One command at a time per physical target.
    let lane = conn
        .registry
        .with(&raw, |t| t.lane.clone())
        .ok_or_else(|| fail(BpError::stale("target_closed")))?;
    // Dialog answers overtake: a paused page holds its lane until answered.
    let overtakes = broker.runtime.overtakes(name);
    let _turn = if overtakes {
        None
    } else {
        Some(lane.lock().await)
    };
    // Cancelled or expired while it waited for the target.
    broker
        .state()
        .commands
        .start(&scope.principal, &scope.command_id, true)
        .map_err(fail)?;
    let session = conn.attach(&raw).await.map_err(fail)?;

    let guard_broker = broker.clone();
    let guard_scope = scope.clone();
    let guard_raw = raw.clone();
    let lease_guard: LeaseGuard = Arc::new(move || {
        let mut st = guard_broker.state();
        st.live_lease(
            &guard_scope.principal,
            &guard_scope.workspace_id,
            &guard_scope.lease_id,
        )?;
        match st.controllers.get(&guard_raw) {
            Some(l) if *l == guard_scope.lease_id => Ok(()),
            _ => Err(BpError::stale("control_released")),
        }
    });
    let workspace = super::scopes::workspace_call(
        broker,
        scope,
        &conn,
        Some((raw.clone(), public.clone())),
        &dispatched,
    );
    let call = TargetCall::new(CallSetup {
        cdp: conn.cdp.clone(),
        registry: conn.registry.clone(),
        observations: broker.observations.clone(),
        workspace,
        frames: broker.frames.clone(),
        raw_id: raw.clone(),
        session,
        generation: conn.generation,
        current_generation: broker.generation_handle(),
        caller: Caller {
            workspace_id: scope.workspace_id.clone(),
            lease_id: scope.lease_id.clone(),
        },
        lease_guard,
        dispatched: dispatched.clone(),
    })
    .map_err(fail)?;
    // Workspaces with rules or credentials see their requests intercepted.
    if !overtakes && broker.network.wants_interception(&scope.workspace_id) {
        call.ensure_interception().await.map_err(fail)?;
    }
    let call = Scope::Target(Box::new(call));
    let (mut value, was_dispatched) =
        call_component(broker, scope, name, &args, call, &dispatched).await?;
    let (url, origin) = {
        let url = conn
            .registry
            .with(&raw, |t| t.url.clone())
            .unwrap_or_default();
        let mut st = broker.state();
        let origin = st
            .workspace(&scope.principal, &scope.workspace_id)
            .map(|w| w.origin(&raw))
            .unwrap_or("user_tab");
        (url, origin)
    };
    if let Some(obj) = value.as_object_mut() {
        // Components name artifacts by ID; clients get full descriptors.
        for key in ["artifact", "preview"] {
            let id = obj
                .get(key)
                .and_then(|a| a["artifactId"].as_str())
                .map(str::to_string);
            if let Some(id) = id {
                let ws = scope.workspace_id.clone();
                let d = broker
                    .artifacts
                    .get(&id, &|w| w == ws)
                    .map_err(|e| (e, was_dispatched))?;
                obj.insert(key.into(), d);
            }
        }
        obj.insert("workspaceId".into(), json!(scope.workspace_id));
        obj.insert("leaseId".into(), json!(scope.lease_id));
        obj.insert("targetId".into(), json!(public));
        obj.entry("url").or_insert(json!(url));
        // A tool's own `origin` (e.g. browser.auth.set) wins over the tag.
        obj.entry("origin").or_insert(json!(origin));
        obj.insert("generation".into(), json!(conn.generation));
    }
    Ok((value, was_dispatched))
}

/// Run the component tool in `scope` and parse its JSON result; errors
/// carry whether the browser was touched.
pub(super) async fn call_component(
    broker: &Broker,
    scope: &CallScope,
    name: &str,
    args: &Value,
    call_scope: Scope,
    dispatched: &AtomicBool,
) -> Result<(Value, bool), (BpError, bool)> {
    let ctx = CallContext {
        command_id: scope.command_id.clone(),
        deadline_ms: broker.runtime.call_budget_ms(),
    };
    let result = broker
        .runtime
        .call(name, call_scope, ctx, &args.to_string())
        .await;
    let was_dispatched = dispatched.load(Ordering::SeqCst);
    let text = result.map_err(|e| (e, was_dispatched))?;
    let value = serde_json::from_str(&text).map_err(|_| {
        (
            BpError::internal(format!("`{name}` returned malformed JSON")),
            was_dispatched,
        )
    })?;
    Ok((value, was_dispatched))
}
