//! The caller's pace for an action a capability makes (WIT `types.pace`,
//! shared by `pointer` and `page-select`): how long the target is waited
//! for (`wait-ms`, as a click's `waitMs`, each capability's own wait),
//! and the settling after the input (`settle`, as a click's), armed
//! before the input is sent and read once it is. The one mapping between
//! the WIT settle types and the browser's.

use super::Tab;
use crate::browser::types;
use crate::error::BpResult;
use crate::wit::types::{Pace, SettleMode, SettleReport};

/// The longest settle after an action, as a click's.
pub const SETTLE_MS: u32 = 2_000;

impl From<SettleMode> for types::SettleMode {
    fn from(m: SettleMode) -> Self {
        match m {
            SettleMode::None => Self::None,
            SettleMode::Dom => Self::Dom,
            SettleMode::Network => Self::Network,
        }
    }
}

impl From<types::SettleReport> for SettleReport {
    fn from(r: types::SettleReport) -> Self {
        Self {
            settled: r.settled,
            requests: r.requests,
            waited_ms: r.waited_ms,
        }
    }
}

impl Tab<'_> {
    /// Arm settling as `pace` asks, for the input about to be sent
    /// (nothing for `none`).
    pub async fn pace_arm(&mut self, pace: Pace) -> BpResult<()> {
        if pace.settle == SettleMode::None {
            return Ok(());
        }
        self.settle_arm(pace.settle.into()).await
    }

    /// Settle as armed, for at most [`SETTLE_MS`]: the report, or none
    /// for `none`.
    pub async fn pace_settle(&mut self, pace: Pace) -> BpResult<Option<SettleReport>> {
        if pace.settle == SettleMode::None {
            return Ok(None);
        }
        Ok(Some(self.settle(SETTLE_MS).await?.into()))
    }
}
