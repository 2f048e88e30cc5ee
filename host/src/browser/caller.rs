//! Who a tool call acts for, and the lease check it repeats: the caller
//! of a [`TargetCall`](crate::browser::call::TargetCall) or a
//! [`WorkspaceCall`](crate::browser::workspace::WorkspaceCall). A leaf: it
//! imports nothing from `browser/`.

use crate::error::BpResult;
use std::sync::Arc;

/// Re-checks that the calling lease still controls the target.
pub type LeaseGuard = Arc<dyn Fn() -> BpResult<()> + Send + Sync>;

/// Who is calling: recorded on observations.
#[derive(Clone)]
pub struct Caller {
    pub workspace_id: String,
    pub lease_id: String,
    /// Which page-declared tools it may see and call.
    pub page_tools: PageToolAccess,
}

pub use crate::granter::{Grants, PageToolAccess, PageToolLevel};
