//! What a policy takes away: whole capabilities (not linked) and single
//! tools (left out while their capabilities stay). The launch policy is
//! one removal; a `bp mcp` session's `--deny`/`--deny-tool` is another,
//! applied on top of it.

use crate::capabilities::Capability;
use crate::error::{BpError, BpResult};
use std::collections::BTreeSet;

/// Capabilities and tools removed.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Removal {
    capabilities: BTreeSet<Capability>,
    tools: BTreeSet<String>,
}

impl Removal {
    /// From capability and tool names; an unknown capability or a name
    /// that is not a tool name is refused (a typo must not widen access
    /// silently).
    pub fn parse(capabilities: &[String], tools: &[String]) -> BpResult<Self> {
        let mut removal = Self::default();
        for cap in capabilities {
            removal.deny(cap)?;
        }
        for tool in tools {
            removal.deny_tool(tool)?;
        }
        Ok(removal)
    }

    /// Remove the capability `name`.
    pub fn deny(&mut self, name: &str) -> BpResult<()> {
        let cap = Capability::parse(name)
            .map_err(|e| BpError::invalid(format!("{} in policy", e.message)))?;
        self.capabilities.insert(cap);
        Ok(())
    }

    /// Remove the single tool `name`.
    pub fn deny_tool(&mut self, name: &str) -> BpResult<()> {
        if !name.contains('.') {
            return Err(BpError::invalid(format!(
                "`{name}` in deny-tools is not a tool name (such as browser.tabs.close)"
            )));
        }
        self.tools.insert(name.to_string());
        Ok(())
    }

    /// Whether `cap` stays.
    pub fn keeps(&self, cap: Capability) -> bool {
        !self.capabilities.contains(&cap)
    }

    /// Whether the single tool `name` stays.
    pub fn keeps_tool(&self, name: &str) -> bool {
        !self.tools.contains(name)
    }

    /// Of `caps`, the ones removed, in order.
    pub fn removed_of(&self, caps: &[Capability]) -> Vec<Capability> {
        let mut out: Vec<Capability> = caps.iter().copied().filter(|c| !self.keeps(*c)).collect();
        out.sort_unstable();
        out.dedup();
        out
    }

    /// The removed capabilities' names, sorted.
    pub fn capability_names(&self) -> Vec<String> {
        let mut names: Vec<String> = self
            .capabilities
            .iter()
            .map(|c| c.name().to_string())
            .collect();
        names.sort();
        names
    }

    /// The removed tools, sorted.
    pub fn tool_names(&self) -> Vec<String> {
        self.tools.iter().cloned().collect()
    }
}
