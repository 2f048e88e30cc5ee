//! Opaque identifiers.

use std::sync::atomic::{AtomicU64, Ordering};

static COUNTER: AtomicU64 = AtomicU64::new(1);

/// `n` random bytes as hex, from the OS.
pub fn random_hex(n: usize) -> String {
    let mut bytes = vec![0u8; n];
    let ok = std::fs::File::open("/dev/urandom")
        .and_then(|mut f| std::io::Read::read_exact(&mut f, &mut bytes))
        .is_ok();
    if !ok {
        // Fall back to time and a counter; IDs stay unique, only less opaque.
        let seed = std::time::SystemTime::now()
            .duration_since(std::time::UNIX_EPOCH)
            .map(|d| d.as_nanos())
            .unwrap_or(0)
            ^ u128::from(COUNTER.fetch_add(1, Ordering::Relaxed));
        for (i, b) in bytes.iter_mut().enumerate() {
            *b = (seed >> ((i % 16) * 8)) as u8;
        }
    }
    bytes.iter().map(|b| format!("{b:02x}")).collect()
}

/// A new opaque ID with a readable prefix, e.g. `obs_3f9a...`.
pub fn new_id(prefix: &str) -> String {
    format!("{prefix}_{}", random_hex(8))
}
