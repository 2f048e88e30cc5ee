//! The component runtime: compile each tool component once, link it with
//! exactly the capability interfaces the policy grants, and run every call
//! in a fresh store with a deadline and a memory limit.

pub mod bindings;
mod call;
use call::fresh_store;
pub mod capability;
mod engine_config;
mod errors;
pub mod host;
mod linker;
pub mod manifest;
pub mod policy;
pub mod pool;
#[cfg(test)]
pub mod tests;

use crate::browser::call::TargetCall;
use crate::browser::workspace::WorkspaceCall;
use crate::error::{BpError, BpResult};
use bindings::{types::CallContext, HostViewPre};
use capability::Capability;
use manifest::ToolInfo;
use policy::Policy;
use serde_json::{json, Value};
use std::collections::BTreeMap;
use std::path::Path;
use std::time::Duration;
use wasmtime::component::{Linker, ResourceTable};
use wasmtime::{Engine, Store};
use wasmtime_wasi::{WasiCtx, WasiCtxView, WasiView};

use self::pool::ticker::TICK;

/// What one call may touch: one tab (with its workspace), or the
/// workspace alone.
pub enum Scope {
    Target(Box<TargetCall>),
    Workspace(Box<WorkspaceCall>),
}

/// Per-call store data: an empty WASI context and the call's scope
/// (`None` only while a manifest is read).
pub struct HostState {
    wasi: WasiCtx,
    table: ResourceTable,
    limits: self::pool::limits::CallLimits,
    scope: Option<Scope>,
    /// The pool slot the store's instance is in, freed with the store.
    _slot: Option<self::pool::slots::Slot>,
}

impl WasiView for HostState {
    fn ctx(&mut self) -> WasiCtxView<'_> {
        WasiCtxView {
            ctx: &mut self.wasi,
            table: &mut self.table,
        }
    }
}

/// One loaded component file.
struct Loaded {
    name: String,
    /// `None` when the policy denies one of its imports.
    pre: Option<HostViewPre<HostState>>,
    /// Denied capabilities it imports.
    denied: Vec<Capability>,
    /// Where its native code came from.
    origin: self::pool::cache::Origin,
}

/// What runs a tool: a component, or the broker itself.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Handler {
    /// The index of its component.
    Component(usize),
    /// A broker-native handler (`broker/native/mod.rs`).
    Native,
}

/// A tool known to the runtime: one row of the registry, native or not.
pub struct ToolEntry {
    pub info: ToolInfo,
    pub handler: Handler,
    /// Imports of its component that the policy does not link (the
    /// component cannot be instantiated, so none of its tools runs).
    denied: Vec<Capability>,
}

/// The loaded tool components of one broker.
pub struct Runtime {
    engine: Engine,
    components: Vec<Loaded>,
    tools: BTreeMap<String, ToolEntry>,
    /// The broker-native tools, in the order they are listed (first).
    natives: Vec<String>,
    policy: Policy,
    /// An instance of each component made ahead of its next call (before
    /// the ticker: a spare's store holds the engine, and the ticker's
    /// thread ends once the engine has gone).
    spares: std::sync::Arc<self::pool::spare::Spares>,
    reaper: self::pool::reaper::Reaper,
    /// Permits for the engine's pool of instances (`pool/slots.rs`).
    slots: self::pool::slots::Slots,
    /// Whether the engine has that pool (else instances are mapped one
    /// by one, and the permits only bound how many live at once).
    pooled: bool,
    /// Advances the engine's epoch while calls run (their deadlines).
    ticker: self::pool::ticker::Ticker,
}

/// The engine every component is compiled for, its instances drawn
/// from a pool (which compiled code does not depend on), and whether
/// they are. The pool reserves its address space up front (about 1 TiB,
/// none of it resident); where the process may not reserve that much
/// (`ulimit -v`), instances are mapped one by one as before.
fn new_engine() -> BpResult<(Engine, bool)> {
    let cow = self::pool::images::images_allowed();
    let mut config = engine_config::engine_config_with(cow);
    self::pool::slots::pool(&mut config);
    match Engine::new(&config) {
        Ok(engine) => Ok((engine, true)),
        Err(e) => {
            tracing::warn!("no instance pool ({e:#}); instances are mapped one by one");
            Engine::new(&engine_config::engine_config_with(cow))
                .map(|engine| (engine, false))
                .map_err(|e| BpError::internal(format!("wasmtime engine: {e:#}")))
        }
    }
}

impl Runtime {
    /// Load `(name, wasm)` components under `policy`, beside the rows of
    /// the broker's own tools (`natives`). A component whose manifest is
    /// invalid, or that imports anything outside the WIT package and the
    /// WASI subset, is refused and start-up fails.
    pub async fn load(
        sources: Vec<crate::components::Source>,
        natives: Vec<ToolInfo>,
        policy: Policy,
        cache_dir: Option<&Path>,
    ) -> BpResult<Self> {
        let (engine, pooled) = new_engine()?;
        let granted = linker::build(&engine, &policy)?;
        let ticker = self::pool::ticker::Ticker::start(&engine)?;
        let mut runtime = Runtime {
            ticker,
            engine,
            components: Vec::new(),
            tools: BTreeMap::new(),
            natives: Vec::new(),
            policy,
            reaper: self::pool::reaper::Reaper::start()?,
            slots: self::pool::slots::Slots::new(self::pool::slots::INSTANCES),
            pooled,
            spares: self::pool::spare::Spares::new(),
        };
        for info in natives {
            let entry = ToolEntry {
                handler: Handler::Native,
                denied: Vec::new(),
                info,
            };
            runtime.natives.push(entry.info.name.clone());
            runtime.tools.insert(entry.info.name.clone(), entry);
        }
        for source in sources {
            runtime.load_one(&granted, source, cache_dir).await?;
        }
        // A policy that removes a tool nobody offers is a typo, not a rule.
        if let Some(unknown) = runtime
            .policy
            .denied_tools()
            .into_iter()
            .find(|t| !runtime.tools.contains_key(t))
        {
            return Err(BpError::invalid(format!(
                "the policy removes `{unknown}`, which no loaded component or the broker offers"
            )));
        }
        Ok(runtime)
    }

    /// Compile, link and register one component.
    async fn load_one(
        &mut self,
        granted: &Linker<HostState>,
        source: crate::components::Source,
        cache_dir: Option<&Path>,
    ) -> BpResult<()> {
        let (component, origin) = self::pool::cache::load_source(&self.engine, &source, cache_dir)
            .map_err(|e| {
                BpError::internal(format!(
                    "component `{}` does not compile: {e:#}",
                    source.name
                ))
            })?;
        let name = source.name;
        let imported = linker::imported_capabilities(&self.engine, &component)
            .map_err(|e| BpError::internal(format!("component `{name}` refused: {e}")))?;
        let denied: Vec<Capability> = imported
            .iter()
            .copied()
            .filter(|c| !self.policy.allows(*c))
            .collect();
        let (pre, manifest) = if denied.is_empty() {
            let pre = granted
                .instantiate_pre(&component)
                .and_then(HostViewPre::new)
                .map_err(|e| {
                    BpError::internal(format!("component `{name}` cannot be linked: {e:#}"))
                })?;
            let manifest = self.read_manifest(&pre).await?;
            (Some(pre), manifest)
        } else {
            // Read the manifest with the denied imports stubbed as traps;
            // this instance is discarded and never serves a call.
            let mut probe = granted.clone();
            let pre = probe
                .define_unknown_imports_as_traps(&component)
                .and_then(|()| probe.instantiate_pre(&component))
                .and_then(HostViewPre::new)
                .map_err(|e| BpError::internal(format!("component `{name}`: {e:#}")))?;
            tracing::info!(component = %name, denied = ?denied, "component not loaded: policy denies its imports");
            (None, self.read_manifest(&pre).await?)
        };
        let infos = manifest::validate(&name, &manifest, &imported)?;
        self.register_tools(&name, infos, &denied)?;
        self.components.push(Loaded {
            name,
            pre,
            denied,
            origin,
        });
        Ok(())
    }

    /// Register the tools of the component about to be pushed, with the
    /// component's imports the policy does not link.
    fn register_tools(
        &mut self,
        name: &str,
        infos: Vec<ToolInfo>,
        denied: &[Capability],
    ) -> BpResult<()> {
        let index = self.components.len();
        for info in infos {
            if self.tools.contains_key(&info.name) {
                return Err(BpError::internal(format!(
                    "component `{name}` refused: tool `{}` is already provided",
                    info.name
                )));
            }
            let entry = ToolEntry {
                info,
                handler: Handler::Component(index),
                denied: denied.to_vec(),
            };
            self.tools.insert(entry.info.name.clone(), entry);
        }
        Ok(())
    }

    async fn read_manifest(
        &self,
        pre: &HostViewPre<HostState>,
    ) -> BpResult<bindings::tool::ComponentManifest> {
        let _running = self.ticker.running();
        let slot = self.slots.take().await;
        let mut store = fresh_store(&self.engine, self.policy.limits, slot);
        let view = pre
            .instantiate_async(&mut store)
            .await
            .map_err(|e| BpError::internal(format!("component instantiation failed: {e:#}")))?;
        view.browser_pilot_tools_tool()
            .call_manifest(&mut store)
            .await
            .map_err(|e| BpError::internal(format!("component manifest failed: {e:#}")))
    }

    /// The tool with this name, loaded or denied.
    pub fn tool(&self, name: &str) -> Option<&ToolEntry> {
        self.tools.get(name)
    }

    /// Whether calls of `name` overtake: they run beside the connection's
    /// ordered calls and the target's lane (dialog answers, which a page
    /// paused by its dialog would otherwise wait for forever).
    pub fn overtakes(&self, name: &str) -> bool {
        self.tool(name)
            .is_some_and(|t| capability::overtakes(&t.info.capabilities))
    }

    /// Whether a cancel stops `tool` while it runs (its manifest says
    /// `cooperative`).
    pub fn cooperative(&self, name: &str) -> bool {
        self.tool(name).is_some_and(|t| {
            matches!(
                t.info.cancellation,
                bindings::tool::Cancellation::Cooperative
            )
        })
    }

    /// Whether the policy lets `tool` run.
    pub fn callable(&self, tool: &ToolEntry) -> bool {
        self.judge(tool).is_ok()
    }

    /// The granter's answer for `tool`: its capabilities as the tool
    /// declares them, with the imports its component was refused for.
    fn judge(&self, tool: &ToolEntry) -> Result<(), crate::granter::Denial> {
        let mut caps = tool.info.capabilities.clone();
        caps.extend(tool.denied.iter().copied());
        self.granter().tool(&tool.info.name, &caps)
    }

    /// The one place that answers what this broker allows.
    pub fn granter(&self) -> &crate::granter::Granter {
        self.policy.granter()
    }

    /// Whether the policy links `cap`.
    pub fn allows(&self, cap: Capability) -> bool {
        self.granter().links(cap)
    }

    /// The launch policy's `page-tools` level.
    pub fn page_tool_level(&self) -> crate::granter::PageToolLevel {
        self.granter().page_tool_level()
    }

    /// The `capability_denied` error for a tool the policy removed.
    pub fn removal(name: &str) -> BpError {
        crate::granter::Denial::ToolRemoved { tool: name.into() }.error()
    }

    /// The `capability_denied` error for a denied tool.
    pub fn denial(&self, tool: &ToolEntry) -> BpError {
        match self.judge(tool) {
            Err(d) => d.error(),
            Ok(()) => Self::removal(&tool.info.name),
        }
    }

    /// The policy's limits.
    pub fn limits(&self) -> policy::Limits {
        self.policy.limits
    }

    /// The policy's launch list of allowed origins.
    pub fn allowed_origins(&self) -> Option<crate::scope::Scope> {
        self.policy.scope.clone()
    }

    /// Milliseconds a call may run.
    pub fn call_budget_ms(&self) -> u64 {
        self.policy.limits.call_timeout_ms
    }

    /// Manifest entries of the tools that can be called by a client
    /// holding `grants`.
    /// The broker-native tools come first, in their own order; then the
    /// component tools, by name.
    pub fn manifest(&self, grants: crate::granter::Grants) -> Vec<Value> {
        let natives = self.natives.iter().filter_map(|n| self.tools.get(n));
        let components = self.tools.values().filter(|t| t.handler != Handler::Native);
        natives
            .chain(components)
            .filter(|t| self.callable(t))
            .filter(|t| self.granter().client(&t.info.capabilities, grants).is_ok())
            .map(|t| t.info.to_json())
            .collect()
    }

    /// What was loaded, for status output.
    pub fn describe(&self) -> Value {
        let components: Vec<Value> = self
            .components
            .iter()
            .map(|c| {
                json!({"name": c.name, "loaded": c.pre.is_some(), "deniedCapabilities": c.denied,
                           "code": c.origin})
            })
            .collect();
        let (made, taken) = self.spares.counts();
        json!({"components": components, "instancesMadeAhead": {"made": made, "taken": taken},
               "instanceSlots": {"total": self::pool::slots::INSTANCES, "free": self.slots.free(),
                                 "pooled": self.pooled},
               "deniedCapabilities": self.policy.denied(),
               "allowedOrigins": self.policy.scope.as_ref().map(|s| s.names()),
               "deniedTools": self.policy.denied_tools(), "limits": {
            "callTimeoutMs": self.policy.limits.call_timeout_ms, "memoryMb": self.policy.limits.memory_mb}})
    }
}
