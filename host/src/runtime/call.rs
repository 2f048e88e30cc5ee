//! One tool call: the component that serves it, a store (a spare made
//! ahead, or a fresh one in a free slot), the deadline, and the outcome
//! turned into the broker's errors.

use super::*;

impl Runtime {
    /// Run `tool` for broker command `command_id` in a fresh instance with
    /// the call's browser `scope`.
    pub async fn call(
        &self,
        tool: &str,
        scope: Scope,
        command_id: &str,
        input: &str,
    ) -> BpResult<String> {
        let ctx = CallContext {
            command_id: command_id.to_string(),
            deadline_ms: self.call_budget_ms(),
        };
        let (index, loaded, pre) = self.component_for(tool)?;
        let running = self.ticker.running();
        let limits = self.policy.limits;
        let (mut store, made) = self.take_store(index, pre).await;
        store.data_mut().scope = Some(scope);
        // The call's budget runs from now (a spare's ran from its making).
        arm_deadline(&mut store, limits);
        let budget = Duration::from_millis(limits.call_timeout_ms);
        let component = loaded.name.clone();
        let run = async {
            let view = match made {
                Some(view) => view,
                None => pre.instantiate_async(&mut store).await?,
            };
            tracing::trace!(tool, "component instantiated");
            let out = view
                .browser_pilot_tools_tool()
                .call_call(&mut store, &ctx, tool, input)
                .await;
            store.data_mut().finish().await;
            tracing::trace!(tool, "component returned");
            out
        };
        let outcome = tokio::time::timeout(budget + Duration::from_millis(500), run).await;
        drop(running);
        self.reaper.release(store);
        match outcome {
            Err(_) => Err(errors::component_failed(
                &component,
                "deadline",
                "did not finish within its time budget",
            )),
            Ok(Err(trap)) => Err(errors::from_trap(&component, &trap)),
            Ok(Ok(Err(tool_error))) => Err(errors::from_tool_error(tool_error)),
            Ok(Ok(Ok(text))) => Ok(text),
        }
    }

    /// The component that serves `tool`, when the policy lets it run.
    fn component_for(&self, tool: &str) -> BpResult<(usize, &Loaded, &HostViewPre<HostState>)> {
        let entry = self
            .tools
            .get(tool)
            .ok_or_else(|| BpError::invalid(format!("unknown tool `{tool}`")))?;
        let Handler::Component(index) = entry.handler else {
            return Err(BpError::internal(format!(
                "`{tool}` is the broker's own, not a component's"
            )));
        };
        let loaded = self
            .components
            .get(index)
            .ok_or_else(|| BpError::internal("component index"))?;
        match &loaded.pre {
            Some(pre) if self.callable(entry) => Ok((index, loaded, pre)),
            _ => Err(self.denial(entry)),
        }
    }

    /// A store for a call of component `index`: the spare made ahead, or a
    /// fresh one once a slot is free. The instance for the next call is
    /// made while this one runs, in a slot that is free now (none is
    /// waited for; the call took its own first, so a spare never keeps a
    /// call waiting).
    async fn take_store(
        &self,
        index: usize,
        pre: &HostViewPre<HostState>,
    ) -> (Store<HostState>, Option<bindings::HostView>) {
        let limits = self.policy.limits;
        let (store, made) = match self.spares.take(index) {
            Some(spare) => (spare.store, Some(spare.view)),
            None => {
                let slot = self.slots.take().await;
                (fresh_store(&self.engine, limits, slot), None)
            }
        };
        if let Some(slot) = self.slots.try_take() {
            let engine = self.engine.clone();
            self.spares.refill(
                index,
                pre,
                move || fresh_store(&engine, limits, Some(slot)),
                self.ticker.running(),
            );
        }
        (store, made)
    }
}

/// An empty store for one instance: no scope yet, an empty WASI context,
/// the policy's memory cap, and a deadline (instantiation may run guest
/// code; a store made ahead is armed again when a call takes it).
pub(super) fn fresh_store(
    engine: &Engine,
    limits_policy: policy::Limits,
    slot: Option<self::pool::slots::Slot>,
) -> Store<HostState> {
    let limits = self::pool::limits::CallLimits {
        memory_cap: usize::try_from(limits_policy.memory_mb.saturating_mul(1 << 20))
            .unwrap_or(usize::MAX),
    };
    let state = HostState {
        wasi: WasiCtx::builder().build(),
        table: ResourceTable::new(),
        limits,
        scope: None,
        _slot: slot,
    };
    let mut store = Store::new(engine, state);
    store.limiter(|s| &mut s.limits);
    arm_deadline(&mut store, limits_policy);
    store
}

/// Give the store's call its time budget from now (the epoch advances
/// in ticks while calls run; a store made ahead is armed when taken).
fn arm_deadline(store: &mut Store<HostState>, limits: policy::Limits) {
    let ticks = limits.call_timeout_ms / TICK.as_millis() as u64;
    store.set_epoch_deadline(ticks.max(1));
    store.epoch_deadline_trap();
}
