//! A finished call's store is freed off the answer's path. Unmapping an
//! instance's linear memory costs tens of microseconds (and a TLB flush on
//! every core), which the answer need not wait for. The call's scope and
//! resource table are still dropped at once, on the caller's thread, so
//! whatever they hold (the tab's lane, in-flight page state) is released
//! before the answer goes out, exactly as when the whole store was dropped
//! there.

use crate::error::{BpError, BpResult};
use crate::runtime::HostState;
use std::sync::mpsc::{sync_channel, SyncSender};
use wasmtime::Store;

/// Stores waiting to be freed at most; past that, the caller frees its own.
const BACKLOG: usize = 16;

pub(in crate::runtime) struct Reaper {
    stores: SyncSender<Store<HostState>>,
}

impl Reaper {
    /// Start the thread that frees stores; it ends when the reaper is
    /// dropped with its runtime.
    pub(in crate::runtime) fn start() -> BpResult<Self> {
        let (stores, finished) = sync_channel::<Store<HostState>>(BACKLOG);
        std::thread::Builder::new()
            .name("bp-reaper".into())
            .spawn(move || finished.into_iter().for_each(drop))
            .map_err(|e| BpError::internal(format!("reaper thread: {e}")))?;
        Ok(Reaper { stores })
    }

    /// Take a finished call's store: its scope and resource table are
    /// dropped now, its instances and memory on the reaper's thread.
    pub(in crate::runtime) fn release(&self, mut store: Store<HostState>) {
        let data = store.data_mut();
        drop(data.scope.take());
        drop(std::mem::take(&mut data.table));
        // With the thread behind (or gone), the store is dropped here, as
        // before: the backlog of unfreed memory stays bounded.
        drop(self.stores.try_send(store));
    }
}
