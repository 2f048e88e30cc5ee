//! The epoch ticker. A call's deadline is counted in epoch ticks: while a
//! component call runs, the engine's epoch advances every [`TICK`]. With
//! no call running the ticker waits instead, waking once a second only to
//! see whether its engine is gone, so an idle broker is not woken a
//! hundred times a second.

use crate::error::{BpError, BpResult};
use std::sync::atomic::{AtomicU64, AtomicUsize, Ordering};
use std::sync::Arc;
use std::thread::Thread;
use std::time::Duration;
use wasmtime::{Engine, EngineWeak};

/// Epoch tick used for call deadlines.
pub(in crate::runtime) const TICK: Duration = Duration::from_millis(10);

/// How often an idle ticker checks that its engine is still there.
const IDLE_CHECK: Duration = Duration::from_secs(1);

/// The ticker thread of one engine, and how many calls it is ticking for.
pub(in crate::runtime) struct Ticker {
    running: Arc<AtomicUsize>,
    /// Ticks given so far (what the tests read).
    #[cfg_attr(not(test), allow(dead_code))]
    ticks: Arc<AtomicU64>,
    thread: Thread,
}

/// Held while one call (or an instance being made ahead of one) runs:
/// the epoch advances until the last is dropped. It owns what it needs,
/// so a task of its own can hold it.
pub(in crate::runtime) struct Running {
    running: Arc<AtomicUsize>,
}

impl Ticker {
    /// Start ticking for `engine`; the thread ends once the engine does.
    pub(in crate::runtime) fn start(engine: &Engine) -> BpResult<Self> {
        let weak = engine.weak();
        let running = Arc::new(AtomicUsize::new(0));
        let ticks = Arc::new(AtomicU64::new(0));
        let (seen, given) = (running.clone(), ticks.clone());
        let handle = std::thread::Builder::new()
            .name("bp-epoch".into())
            .spawn(move || tick(&weak, &seen, &given))
            .map_err(|e| BpError::internal(format!("epoch thread: {e}")))?;
        Ok(Self {
            running,
            ticks,
            thread: handle.thread().clone(),
        })
    }

    /// A call starts: tick until it (and every other) has ended.
    pub(in crate::runtime) fn running(&self) -> Running {
        if self.running.fetch_add(1, Ordering::SeqCst) == 0 {
            self.thread.unpark();
        }
        Running {
            running: self.running.clone(),
        }
    }

    /// Ticks given so far.
    #[cfg(test)]
    fn ticks(&self) -> u64 {
        self.ticks.load(Ordering::SeqCst)
    }
}

impl Drop for Ticker {
    /// The thread ends at once if the engine has gone with it (the
    /// runtime drops its ticker last).
    fn drop(&mut self) {
        self.thread.unpark();
    }
}

impl Drop for Running {
    fn drop(&mut self) {
        self.running.fetch_sub(1, Ordering::SeqCst);
    }
}

/// The thread: a tick after each [`TICK`] of sleep while calls run (a
/// call's time counts from its start, never from an earlier tick); a
/// wait for the next call otherwise.
fn tick(engine: &EngineWeak, running: &AtomicUsize, ticks: &AtomicU64) {
    loop {
        if running.load(Ordering::SeqCst) == 0 {
            std::thread::park_timeout(IDLE_CHECK);
            if engine.upgrade().is_none() {
                return;
            }
            continue;
        }
        std::thread::sleep(TICK);
        match engine.upgrade() {
            Some(engine) => {
                engine.increment_epoch();
                ticks.fetch_add(1, Ordering::SeqCst);
            }
            None => return,
        }
    }
}

#[cfg(test)]
#[allow(clippy::unwrap_used, clippy::expect_used)]
mod tests {
    use super::*;
    use std::time::Instant;

    /// Wait (at most 10 s) until the ticker has given more than `n` ticks.
    fn more_than(t: &Ticker, n: u64) -> bool {
        let start = Instant::now();
        while start.elapsed() < Duration::from_secs(10) {
            if t.ticks() > n {
                return true;
            }
            std::thread::sleep(TICK);
        }
        false
    }

    #[test]
    fn it_ticks_while_a_call_runs_and_rests_otherwise() {
        let engine = Engine::default();
        let t = Ticker::start(&engine).unwrap();
        std::thread::sleep(TICK * 10);
        assert_eq!(t.ticks(), 0, "no call has run");
        {
            let _one = t.running();
            let _two = t.running();
            assert!(more_than(&t, 2), "ticking while calls run");
        }
        // One tick may still be under way when the last call ends.
        std::thread::sleep(TICK * 30);
        let rested = t.ticks();
        std::thread::sleep(TICK * 20);
        assert_eq!(t.ticks(), rested, "no ticks with no call running");
        // The next call wakes it at once, not at the idle check.
        let _again = t.running();
        assert!(more_than(&t, rested));
    }
}
