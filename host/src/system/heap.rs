//! Returning freed heap memory to the system. The broker is long-lived,
//! and a burst of large allocations (a big page's accessibility tree)
//! would otherwise stay resident after it is freed.

/// Release free memory at the top of the heap and in malloc's arenas.
pub fn trim() {
    #[cfg(all(target_os = "linux", target_env = "gnu"))]
    // SAFETY: malloc_trim only walks malloc's own free lists; it has no
    // preconditions and is safe to call from any thread.
    unsafe {
        libc::malloc_trim(0);
    }
}

/// [`trim`] on a blocking thread, unless one is already running (a burst
/// of large replies needs one trim after it, not one each).
pub fn trim_soon() {
    use std::sync::atomic::{AtomicBool, Ordering};
    static RUNNING: AtomicBool = AtomicBool::new(false);
    if RUNNING.swap(true, Ordering::AcqRel) {
        return;
    }
    tokio::task::spawn_blocking(|| {
        trim();
        RUNNING.store(false, Ordering::Release);
    });
}
