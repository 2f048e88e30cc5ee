//! The vocabulary of page-declared tool permissions: what a page tool may
//! do (its effect), the most a launch policy lets page tools do (the
//! `page-tools` level), and what one caller may see and call.

/// What calling a page tool may do, from the page's annotations (read in
/// `browser/page_tools/mod.rs`).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Effect {
    Read,
    Write,
    Consequential,
    /// The browser does not report annotations: it may be consequential.
    Unknown,
}

impl Effect {
    pub fn as_str(self) -> &'static str {
        match self {
            Effect::Read => "read",
            Effect::Write => "write",
            Effect::Consequential => "consequential",
            Effect::Unknown => "unknown",
        }
    }

    /// The lowest `page-tools` level that admits this effect.
    fn needs(self) -> PageToolLevel {
        match self {
            Effect::Read => PageToolLevel::ReadOnly,
            Effect::Write => PageToolLevel::Write,
            Effect::Consequential | Effect::Unknown => PageToolLevel::All,
        }
    }

    /// Whether a caller needs `page.consequential` for it.
    fn consequential(self) -> bool {
        matches!(self, Effect::Consequential | Effect::Unknown)
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

/// Why a caller may not use a page tool.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Hidden {
    /// The launch policy's level is below the tool's effect.
    Policy,
    /// Consequential, and the client lacks `page.consequential`.
    Grant,
}

/// What one caller may do with page-declared tools: the launch policy's
/// level and its client's grant.
#[derive(Clone, Copy, Debug, Default)]
pub struct PageToolAccess {
    pub level: PageToolLevel,
    pub consequential_granted: bool,
}

impl PageToolAccess {
    /// Whether this caller may see and call a tool of `effect`.
    pub fn admits(&self, effect: Effect) -> Result<(), Hidden> {
        if self.level < effect.needs() {
            return Err(Hidden::Policy);
        }
        if effect.consequential() && !self.consequential_granted {
            return Err(Hidden::Grant);
        }
        Ok(())
    }
}
