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

/// A string identifier with a type of its own, so a raw target ID cannot
/// be passed where a public one is meant, nor a lease where a workspace
/// is. It is the same string on the wire (`serde(transparent)`), and a
/// map keyed by it is looked up with a `&str` (`Borrow<str>`).
macro_rules! id_type {
    ($(#[$doc:meta])* $name:ident $(, $prefix:literal)?) => {
        $(#[$doc])*
        #[derive(
            Debug, Clone, PartialEq, Eq, Hash, PartialOrd, Ord, Default,
            serde::Serialize, serde::Deserialize,
        )]
        #[serde(transparent)]
        pub struct $name(String);

        impl $name {
            /// The ID `s`, as given (no check: IDs are opaque).
            pub fn new(s: impl Into<String>) -> Self {
                Self(s.into())
            }

            pub fn as_str(&self) -> &str {
                &self.0
            }

            pub fn into_string(self) -> String {
                self.0
            }

            $(
                /// A new random ID of this kind.
                pub fn fresh() -> Self {
                    Self(new_id($prefix))
                }
            )?
        }

        impl std::fmt::Display for $name {
            fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
                f.write_str(&self.0)
            }
        }

        impl AsRef<str> for $name {
            fn as_ref(&self) -> &str {
                &self.0
            }
        }

        impl std::borrow::Borrow<str> for $name {
            fn borrow(&self) -> &str {
                &self.0
            }
        }

        impl std::ops::Deref for $name {
            type Target = str;
            fn deref(&self) -> &str {
                &self.0
            }
        }

        impl From<String> for $name {
            fn from(s: String) -> Self {
                Self(s)
            }
        }

        impl From<&str> for $name {
            fn from(s: &str) -> Self {
                Self(s.to_string())
            }
        }

        impl From<$name> for String {
            fn from(id: $name) -> String {
                id.0
            }
        }

        impl PartialEq<str> for $name {
            fn eq(&self, other: &str) -> bool {
                self.0 == other
            }
        }

        impl PartialEq<&str> for $name {
            fn eq(&self, other: &&str) -> bool {
                self.0 == *other
            }
        }
    };
}

id_type!(
    /// The browser's own ID of a target (`Target.TargetID`). Never shown
    /// to a client.
    RawTargetId
);
id_type!(
    /// A target's ID as one workspace's clients see it.
    TabId
);
id_type!(
    /// A flat CDP session (`Target.SessionID`).
    SessionId
);
id_type!(
    /// The browser's ID of a frame (`Page.FrameId`).
    RawFrameId
);
id_type!(
    /// A workspace.
    WorkspaceId,
    "ws"
);
id_type!(
    /// A lease on a tab.
    LeaseId,
    "lease"
);
id_type!(
    /// A recorded observation, whose refs name its elements.
    ObservationId,
    "obs"
);
id_type!(
    /// A command (one tool call) in the command log.
    CommandId,
    "cmd"
);

#[cfg(test)]
mod id_type_tests {
    use super::*;
    use std::collections::HashMap;

    #[test]
    fn an_id_is_its_string_on_the_wire_and_a_map_key_found_by_str() {
        let ws = WorkspaceId::fresh();
        assert!(ws.as_str().starts_with("ws_"), "{ws}");
        let json = serde_json::to_value(&ws).unwrap();
        assert_eq!(json, serde_json::json!(ws.as_str()));
        let back: WorkspaceId = serde_json::from_value(json).unwrap();
        assert_eq!(back, ws);
        let mut map = HashMap::new();
        map.insert(RawTargetId::from("T1"), 1);
        assert_eq!(map.get("T1"), Some(&1));
        assert_eq!(RawTargetId::new("T1"), "T1");
    }
}
