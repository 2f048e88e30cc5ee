//! A fresh instance made ahead of the call that takes it.
//!
//! Every call runs in an instance of its own, made for it and dropped
//! after it, so nothing a component keeps in its memory reaches the next
//! call. Making that instance (a store, the component's linear memory
//! mapped from its image) took 0.08-0.12 ms of every call before the
//! component ran (0.02-0.04 ms with a spare; traced in a release build
//! on 2 cores). Each component now has at most one instance made ahead
//! and never used: a call takes it, and the next one is made in the
//! background while the call waits on the browser. A call that finds none
//! (the first of its component, or one of several running at once) makes
//! its own, as before.

use crate::runtime::bindings::{HostView, HostViewPre};
use crate::runtime::pool::ticker::Running;
use crate::runtime::HostState;
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::{Arc, Mutex, MutexGuard};
use wasmtime::Store;

/// An instance made ahead, in a store of its own, never called.
pub(in crate::runtime) struct Spare {
    pub store: Store<HostState>,
    pub view: HostView,
}

enum Slot {
    Empty,
    Making,
    Ready(Spare),
}

/// At most one spare per component (by its index in the runtime; a
/// component's slot exists once a call has asked for it).
pub(in crate::runtime) struct Spares {
    slots: Mutex<Vec<Slot>>,
    /// Spares made, and those a call took (what `broker/status` shows).
    made: AtomicU64,
    taken: AtomicU64,
}

impl Spares {
    pub(in crate::runtime) fn new() -> Arc<Self> {
        Arc::new(Self {
            slots: Mutex::new(Vec::new()),
            made: AtomicU64::new(0),
            taken: AtomicU64::new(0),
        })
    }

    /// Spares made so far, and how many of them calls took.
    pub(in crate::runtime) fn counts(&self) -> (u64, u64) {
        (
            self.made.load(Ordering::Relaxed),
            self.taken.load(Ordering::Relaxed),
        )
    }

    fn lock(&self) -> MutexGuard<'_, Vec<Slot>> {
        self.slots.lock().unwrap_or_else(|p| p.into_inner())
    }

    /// Take `component`'s spare, if one is ready.
    pub(in crate::runtime) fn take(&self, component: usize) -> Option<Spare> {
        let mut slots = self.lock();
        let slot = slots.get_mut(component)?;
        match std::mem::replace(slot, Slot::Empty) {
            Slot::Ready(spare) => {
                self.taken.fetch_add(1, Ordering::Relaxed);
                Some(spare)
            }
            other => {
                *slot = other;
                None
            }
        }
    }

    /// Make a spare for `component` in the background, unless one is
    /// ready or being made (or there is no runtime to make it on).
    /// `store` makes the empty store it goes in, with a deadline;
    /// `ticking` keeps the epoch advancing while it is made, since
    /// instantiating runs the component's start functions, and one that
    /// never returns must meet that deadline as it would in a call.
    pub(in crate::runtime) fn refill(
        self: &Arc<Self>,
        component: usize,
        pre: &HostViewPre<HostState>,
        store: impl FnOnce() -> Store<HostState> + Send + 'static,
        ticking: Running,
    ) {
        let Ok(runtime) = tokio::runtime::Handle::try_current() else {
            return;
        };
        {
            let mut slots = self.lock();
            if slots.len() <= component {
                slots.resize_with(component + 1, || Slot::Empty);
            }
            match slots.get_mut(component) {
                Some(slot @ Slot::Empty) => *slot = Slot::Making,
                _ => return,
            }
        }
        let making = Making {
            spares: self.clone(),
            component,
            done: false,
        };
        let pre = pre.clone();
        runtime.spawn(async move {
            let mut making = making;
            let _ticking = ticking;
            let mut store = store();
            match pre.instantiate_async(&mut store).await {
                Ok(view) => making.finish(Spare { store, view }),
                Err(e) => tracing::debug!("instance made ahead failed: {e:#}"),
            }
        });
    }
}

/// A spare being made: its slot goes back to empty if the making ends
/// without one (failed, or cancelled with its runtime).
struct Making {
    spares: Arc<Spares>,
    component: usize,
    done: bool,
}

impl Making {
    fn finish(&mut self, spare: Spare) {
        if let Some(slot) = self.spares.lock().get_mut(self.component) {
            *slot = Slot::Ready(spare);
            self.done = true;
            self.spares.made.fetch_add(1, Ordering::Relaxed);
        }
    }
}

impl Drop for Making {
    fn drop(&mut self) {
        if self.done {
            return;
        }
        if let Some(slot) = self.spares.lock().get_mut(self.component) {
            if matches!(slot, Slot::Making) {
                *slot = Slot::Empty;
            }
        }
    }
}
