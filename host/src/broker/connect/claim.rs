//! A broker's claim on its home. Only the process holding it may touch
//! the state a broker keeps there (artifacts, staged downloads, launched
//! browsers' profiles), so a second broker started for a home that is in
//! use is refused before it removes or changes anything of the running
//! one's.

use crate::client::{Client, FileLock};
use crate::error::{BpError, BpResult, Code};
use crate::system::paths::Paths;

/// Held for the broker's whole life: the home's serve lock, which the
/// kernel releases if the process dies.
pub struct Claim {
    _serving: FileLock,
}

impl Claim {
    /// Claim `paths`'s home: refused with `broker_in_use` while another
    /// broker holds it or still answers on its socket.
    pub async fn acquire(paths: &Paths) -> BpResult<Self> {
        paths.prepare()?;
        let in_use = || {
            BpError::new(
                Code::BrokerInUse,
                "a broker is already running for this BROWSER_PILOT_HOME",
            )
        };
        let serving =
            FileLock::try_acquire(&paths.home.join("broker.serve.lock")).ok_or_else(in_use)?;
        if Client::connect(paths).await.is_ok() {
            return Err(in_use());
        }
        Ok(Claim { _serving: serving })
    }

    /// Remove what earlier brokers of this home left behind: staged
    /// downloads (never adopted) and the profiles of browsers they
    /// launched (a broker killed outright cannot remove its own; its
    /// browser dies with it). Artifacts go when the store opens.
    pub(in crate::broker) fn clear_leftovers(&self, paths: &Paths) -> BpResult<()> {
        if paths.downloads.exists() {
            std::fs::remove_dir_all(&paths.downloads)
                .map_err(|e| BpError::internal(format!("removing stale downloads: {e}")))?;
        }
        crate::system::paths::ensure_private_dir(&paths.downloads)?;
        let profiles = crate::cdp::launch::remove_stale_profiles(&paths.profiles);
        if profiles > 0 {
            tracing::info!(
                profiles,
                "removed the profiles of browsers earlier brokers launched"
            );
        }
        Ok(())
    }
}
