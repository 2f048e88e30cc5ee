//! Who a tool call acts for, and the lease check it repeats: the caller
//! of a [`TargetCall`](super::call::TargetCall) or a
//! [`WorkspaceCall`](super::workspace_call::WorkspaceCall). A leaf: it
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

/// The client grants `initialize` gave a connection.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Grants {
    /// `developer.eval`: run page script.
    pub eval: bool,
    /// `page.consequential`: call page tools marked consequential.
    pub page_consequential: bool,
}

impl Grants {
    pub const EVAL: &'static str = "developer.eval";
    pub const PAGE_CONSEQUENTIAL: &'static str = "page.consequential";

    /// The grants named in `names` (others are ignored).
    pub fn from_names(names: &[&str]) -> Self {
        Self {
            eval: names.contains(&Self::EVAL),
            page_consequential: names.contains(&Self::PAGE_CONSEQUENTIAL),
        }
    }

    /// Whether the grant `name` is held.
    pub fn has(&self, name: &str) -> bool {
        match name {
            Self::EVAL => self.eval,
            Self::PAGE_CONSEQUENTIAL => self.page_consequential,
            _ => false,
        }
    }
}

/// The most a launch policy lets page-declared tools do (`page-tools`).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, PartialOrd, Ord)]
pub enum PageToolLevel {
    /// Only tools the page marks read-only.
    ReadOnly,
    /// Read-only and ordinary tools; none marked consequential.
    #[default]
    Write,
    /// Every tool; consequential ones for clients granted
    /// `page.consequential`.
    All,
}

impl PageToolLevel {
    /// The policy spelling.
    pub fn parse(text: &str) -> Option<Self> {
        match text {
            "read-only" => Some(Self::ReadOnly),
            "write" => Some(Self::Write),
            "all" => Some(Self::All),
            _ => None,
        }
    }

    pub fn as_str(self) -> &'static str {
        match self {
            Self::ReadOnly => "read-only",
            Self::Write => "write",
            Self::All => "all",
        }
    }
}

/// What one caller may do with page-declared tools: the launch policy's
/// level and its client's grant.
#[derive(Clone, Copy, Debug, Default)]
pub struct PageToolAccess {
    pub level: PageToolLevel,
    pub consequential_granted: bool,
}
