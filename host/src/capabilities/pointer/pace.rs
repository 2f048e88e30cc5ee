//! The caller's pace for a hover or a drag: how long the target is
//! waited for (`wait-ms`, as a click's `waitMs`), and the settling after
//! the input (`settle`, as a click's), armed before the input is sent and
//! read once it is.

use crate::browser::types::SettleMode;
use crate::error::BpResult;
use crate::tab::Tab;
use crate::wit::pointer::{self as wit, Pace};

/// The longest settle, as a click's.
const SETTLE_MS: u32 = 2_000;

fn mode(m: wit::SettleMode) -> SettleMode {
    match m {
        wit::SettleMode::None => SettleMode::None,
        wit::SettleMode::Dom => SettleMode::Dom,
        wit::SettleMode::Network => SettleMode::Network,
    }
}

/// Arm settling for the input about to be sent (nothing for `none`).
pub async fn arm(tab: &mut Tab<'_>, pace: Pace) -> BpResult<()> {
    if pace.settle == wit::SettleMode::None {
        return Ok(());
    }
    tab.settle_arm(mode(pace.settle)).await
}

/// Settle as armed: the report, or none for `none`.
pub async fn settle(tab: &mut Tab<'_>, pace: Pace) -> BpResult<Option<wit::SettleReport>> {
    if pace.settle == wit::SettleMode::None {
        return Ok(None);
    }
    let r = tab.settle(SETTLE_MS).await?;
    Ok(Some(wit::SettleReport {
        settled: r.settled,
        requests: r.requests,
        waited_ms: r.waited_ms,
    }))
}
