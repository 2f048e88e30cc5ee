//! Opaque identifiers.

use std::sync::atomic::{AtomicU64, Ordering};

static COUNTER: AtomicU64 = AtomicU64::new(1);

/// `n` random bytes as hex, from the kernel.
pub fn random_hex(n: usize) -> String {
    let mut bytes = vec![0u8; n];
    if fill_random(&mut bytes).is_err() {
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

/// Fill `bytes` from the kernel's generator (getrandom(2)).
fn fill_random(bytes: &mut [u8]) -> std::io::Result<()> {
    let mut filled = 0;
    while filled < bytes.len() {
        let rest = &mut bytes[filled..];
        // SAFETY: the pointer and length describe `rest`, a live buffer.
        let n = unsafe { libc::getrandom(rest.as_mut_ptr().cast(), rest.len(), 0) };
        if n <= 0 {
            let err = std::io::Error::last_os_error();
            if err.kind() == std::io::ErrorKind::Interrupted {
                continue;
            }
            return Err(err);
        }
        filled += n as usize;
    }
    Ok(())
}

/// A 256-bit secret as hex, from the kernel's generator. Unlike
/// [`random_hex`] there is no fallback: without real randomness no secret
/// is made.
pub fn secret() -> crate::error::BpResult<String> {
    let mut bytes = [0u8; 32];
    fill_random(&mut bytes)
        .map_err(|e| crate::error::BpError::internal(format!("no randomness for a secret: {e}")))?;
    Ok(bytes.iter().map(|b| format!("{b:02x}")).collect())
}

/// Compare two secrets without an early exit on the first difference.
pub fn secrets_equal(a: &str, b: &str) -> bool {
    a.len() == b.len()
        && a.bytes()
            .zip(b.bytes())
            .fold(0u8, |acc, (x, y)| acc | (x ^ y))
            == 0
}

/// Lower-case hex SHA-256 of `bytes`.
pub fn hex_digest(bytes: &[u8]) -> String {
    use sha2::{Digest, Sha256};
    Sha256::digest(bytes)
        .iter()
        .map(|b| format!("{b:02x}"))
        .collect()
}
