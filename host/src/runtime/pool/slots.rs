//! Instance slots: component instances come from wasmtime's pooling
//! allocator, and a call waits for a free slot rather than fail.
//!
//! Every call still runs in an instance of its own, made for it and
//! dropped after it. What the pool changes is where that instance's
//! linear memory, tables and async stack come from: address space the
//! engine reserved once, reused slot after slot, instead of a fresh
//! `mmap` for each instance and an `munmap` (with a TLB flush on every
//! core) when it is dropped. Wasmtime resets a slot before reusing it,
//! so nothing one call left in memory reaches the next. The top of each
//! async stack stays resident between calls (`STACK_KEEP_RESIDENT`), so
//! a call does not fault its stack in page by page; linear memory does
//! not, so the broker's resident size stays within about 1 MiB of what
//! it was (keeping 1 MiB of each memory resident saved a little more
//! CPU but added about 20 MiB).
//!
//! Measured with `bp bench` on 2 cores, three runs of each build taking
//! turns: bp's own cost per call (the trivial-call row) went from
//! 0.28-0.35 ms to 0.25-0.27 ms, and the broker's CPU per bridge step
//! from 0.74-0.85 to 0.66-0.69 ms for `type` and from 0.86-0.96 to
//! 0.69-0.78 ms for `click`.
//!
//! The pool has a fixed size, so instances are counted: each store holds
//! a permit for its slot until it is dropped (on the reaper's thread,
//! with the store). A call that finds none waits; a spare is made only
//! when a permit is free. Compiled code does not depend on the allocator,
//! so the components precompiled at build time load either way, and a
//! broker that may not reserve the pool's address space (`ulimit -v`)
//! falls back to mapping instances one by one (`new_engine`).

use std::sync::Arc;
use tokio::sync::{OwnedSemaphorePermit, Semaphore};

/// Component instances alive at once: calls running, spares, and stores
/// the reaper has yet to drop. A connection runs its calls one at a
/// time, so this is about how many clients can be mid-call together
/// before one waits.
pub(in crate::runtime) const INSTANCES: u32 = 128;

/// Bytes at the top of each async stack kept resident between calls.
const STACK_KEEP_RESIDENT: usize = 256 * 1024;

/// Bytes at the start of each linear memory whose written pages stay
/// resident between the instances of a slot: reset in place to the
/// component's image instead of given back to the kernel and faulted in
/// again by the next instance. Only where the kernel reports which pages
/// were written (`PAGEMAP_SCAN`, Linux 6.7): without it the whole range
/// would be reset and kept in every slot ever used, tens of MiB of idle
/// memory (measured in docs/performance.md).
const MEMORY_KEEP_RESIDENT: usize = 2 << 20;

/// Core instances, memories and tables one component may have. A
/// component built from Rust for `wasm32-wasip2` has a main module and
/// a few small shims: one memory, a handful of core instances and tables.
const CORE_INSTANCES_EACH: u32 = 16;
const MEMORIES_EACH: u32 = 2;
const TABLES_EACH: u32 = 16;

/// Use the pooling allocator, sized for [`INSTANCES`] components of at
/// most the bounds above each, so that a permit always finds room. A
/// component beyond those bounds is refused when it is loaded (wasmtime
/// checks it against the pool then), not when it is called.
pub(in crate::runtime) fn pool(config: &mut wasmtime::Config) {
    let mut pool = wasmtime::PoolingAllocationConfig::new();
    pool.total_component_instances(INSTANCES)
        .max_core_instances_per_component(CORE_INSTANCES_EACH)
        .max_memories_per_component(MEMORIES_EACH)
        .max_tables_per_component(TABLES_EACH)
        .total_core_instances(INSTANCES * CORE_INSTANCES_EACH)
        .total_memories(INSTANCES * MEMORIES_EACH)
        .total_tables(INSTANCES * TABLES_EACH)
        .total_stacks(INSTANCES)
        .max_memories_per_module(MEMORIES_EACH)
        .max_tables_per_module(TABLES_EACH)
        .table_elements(65_536)
        .async_stack_keep_resident(STACK_KEEP_RESIDENT);
    if wasmtime::PoolingAllocationConfig::is_pagemap_scan_available() {
        pool.pagemap_scan(wasmtime::Enabled::Yes)
            .linear_memory_keep_resident(MEMORY_KEEP_RESIDENT);
    }
    config.allocation_strategy(wasmtime::InstanceAllocationStrategy::Pooling(pool));
}

/// Permits for the pool's component instances.
pub(in crate::runtime) struct Slots(Arc<Semaphore>);

/// A slot held by one store, freed when the store is dropped.
pub(in crate::runtime) type Slot = OwnedSemaphorePermit;

impl Slots {
    pub(in crate::runtime) fn new(count: u32) -> Self {
        Slots(Arc::new(Semaphore::new(count as usize)))
    }

    /// A slot, waiting for one if every slot is taken.
    pub(in crate::runtime) async fn take(&self) -> Option<Slot> {
        self.0.clone().acquire_owned().await.ok()
    }

    /// A slot if one is free now.
    pub(in crate::runtime) fn try_take(&self) -> Option<Slot> {
        self.0.clone().try_acquire_owned().ok()
    }

    /// Slots free now (what `broker/status` shows).
    pub(in crate::runtime) fn free(&self) -> usize {
        self.0.available_permits()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[tokio::test]
    async fn a_taken_slot_comes_back_when_dropped() {
        let slots = Slots::new(1);
        let held = slots.take().await;
        assert!(held.is_some());
        assert!(slots.try_take().is_none(), "the only slot is held");
        let waiting = tokio::spawn({
            let slots = Slots(slots.0.clone());
            async move { slots.take().await.is_some() }
        });
        tokio::task::yield_now().await;
        assert!(!waiting.is_finished(), "a second take waits");
        drop(held);
        assert!(
            waiting.await.unwrap_or(false),
            "and gets the slot once freed"
        );
    }
}
