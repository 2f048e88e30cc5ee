//! The running broker's process, as the bench and the soak see it: its
//! process ID (from `bp broker status`) and its resident memory.

use super::bp;
use browser_pilot_host::discovery::procfs;
use browser_pilot_host::{BpError, BpResult};
use std::path::Path;

/// The running broker's process ID.
pub(crate) fn broker_pid(home: &Path) -> BpResult<u64> {
    let (_, status) = bp(home, &["broker", "status"])?;
    status["pid"]
        .as_u64()
        .ok_or_else(|| BpError::internal("no broker pid"))
}

/// Resident memory of the broker process, in MiB.
pub(crate) fn broker_rss(home: &Path) -> BpResult<f64> {
    let pid = broker_pid(home)?;
    let text = std::fs::read_to_string(format!("/proc/{pid}/status"))
        .map_err(|e| BpError::internal(e.to_string()))?;
    let kb = procfs::parse_status_number(&text, "VmRSS")
        .ok_or_else(|| BpError::internal(format!("no VmRSS for the broker ({pid})")))?;
    Ok(kb as f64 / 1024.0)
}
