//! The granter: the one place that answers whether something is allowed.
//! Every permission question goes through it, from every source:
//!
//! - the launch policy: capabilities not linked, single tools removed
//!   ([`Removal`]), and the `page-tools` level;
//! - the client's grants from `initialize` (`developer.eval`,
//!   `page.consequential`): which ones this broker offers, and whether a
//!   call's capabilities need one the client lacks;
//! - a page-declared tool's effect against the level and the grant;
//! - lease ownership of a tab;
//! - the narrowing of a `bp mcp` session (`--deny`, `--deny-tool`), judged
//!   on top of the launch policy with the same code.
//!
//! Callers keep no rules of their own: they ask, and turn a [`Denial`]
//! into the client's error with [`Denial::error`]. A leaf: it imports
//! only the capability registry and the error type.

mod page;
mod removal;
#[cfg(test)]
mod tests;

pub use page::{Effect, Hidden, PageToolAccess, PageToolLevel};
pub use removal::Removal;

use crate::capabilities::{self, Capability};
use crate::error::{BpError, Code};
use serde_json::{json, Value};

/// The client grants `initialize` gave a connection.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Grants {
    /// `developer.eval`: run page script.
    pub eval: bool,
    /// `page.consequential`: call page tools marked consequential.
    pub page_consequential: bool,
    /// `state.load-user`: load a saved state into the user's own browser.
    pub state_load_user: bool,
}

impl Grants {
    pub const EVAL: &'static str = "developer.eval";
    pub const PAGE_CONSEQUENTIAL: &'static str = "page.consequential";
    pub const STATE_LOAD_USER: &'static str = "state.load-user";

    /// The grants named in `names` (others are ignored).
    pub fn from_names(names: &[&str]) -> Self {
        Self {
            eval: names.contains(&Self::EVAL),
            page_consequential: names.contains(&Self::PAGE_CONSEQUENTIAL),
            state_load_user: names.contains(&Self::STATE_LOAD_USER),
        }
    }

    /// Whether the grant `name` is held.
    pub fn has(&self, name: &str) -> bool {
        match name {
            Self::EVAL => self.eval,
            Self::PAGE_CONSEQUENTIAL => self.page_consequential,
            Self::STATE_LOAD_USER => self.state_load_user,
            _ => false,
        }
    }
}

/// Why something is not allowed.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Denial {
    /// The launch policy removed the single tool.
    ToolRemoved { tool: String },
    /// The launch policy does not link capabilities the tool needs.
    CapabilitiesDenied {
        tool: String,
        capabilities: Vec<Capability>,
    },
    /// The client lacks a grant the tool's capabilities need.
    GrantMissing { grant: &'static str },
    /// A `bp mcp` session's `--deny`/`--deny-tool` leaves the tool out.
    SessionNarrowed { tool: String },
    /// A page tool above the level or without the grant.
    PageTool {
        effect: Effect,
        why: Hidden,
        level: PageToolLevel,
    },
    /// Another lease controls the tab.
    TabControlled,
    /// A saved state into the user's own browser, without `state.load-user`.
    UserBrowserState,
}

impl Denial {
    /// The client's error: `capability_denied` with its context, or
    /// `target_busy` for a tab another lease controls.
    pub fn error(&self) -> BpError {
        match self {
            Denial::ToolRemoved { tool } => BpError::new(
                Code::CapabilityDenied,
                format!("`{tool}` is removed by this broker's policy"),
            )
            .with_context(json!({"tool": tool})),
            Denial::CapabilitiesDenied { tool, capabilities } => {
                let names: Vec<&str> = capabilities.iter().map(|c| c.name()).collect();
                BpError::new(
                    Code::CapabilityDenied,
                    format!(
                        "`{tool}` needs {}, which this broker's policy does not grant",
                        names.join(", ")
                    ),
                )
                .with_context(json!({"capabilities": names}))
            }
            Denial::GrantMissing { grant } => BpError::new(
                Code::CapabilityDenied,
                format!("`{grant}` was not granted to this client; request it at initialize"),
            ),
            Denial::SessionNarrowed { tool } => BpError::new(
                Code::CapabilityDenied,
                format!("`{tool}` is not offered by this MCP server (--deny/--deny-tool)"),
            )
            .with_context(json!({"tool": tool})),
            Denial::PageTool { effect, why, level } => page_tool_refusal(*effect, *why, *level),
            Denial::TabControlled => BpError::new(
                Code::TargetBusy,
                "another lease controls this target; try again later",
            ),
            Denial::UserBrowserState => BpError::new(
                Code::CapabilityDenied,
                format!(
                    "this is the user's own browser, not one the broker launched; loading a saved state into it needs the `{}` grant, requested at initialize",
                    Grants::STATE_LOAD_USER
                ),
            )
            .with_context(json!({"grant": Grants::STATE_LOAD_USER})),
        }
    }
}

/// The `capability_denied` error for a page tool the caller may not call.
fn page_tool_refusal(effect: Effect, why: Hidden, level: PageToolLevel) -> BpError {
    let (message, reason) = match why {
        Hidden::Policy => (
            format!(
                "this page tool's effect is {}, above this broker's page-tools level `{}`",
                effect.as_str(),
                level.as_str()
            ),
            "policy",
        ),
        Hidden::Grant => (
            format!(
                "this page tool's effect is {}; it needs the `page.consequential` grant, requested at initialize",
                effect.as_str()
            ),
            "grant",
        ),
    };
    BpError::new(Code::CapabilityDenied, message).with_context(json!({
        "effect": effect.as_str(), "reason": reason, "pageTools": level.as_str(),
    }))
}

/// The launch policy's answers. Built once when the broker starts; it
/// never changes while the broker runs.
#[derive(Debug, Clone, Default)]
pub struct Granter {
    launch: Removal,
    page_tools: PageToolLevel,
}

impl Granter {
    pub fn new(launch: Removal, page_tools: PageToolLevel) -> Self {
        Self { launch, page_tools }
    }

    /// What the launch policy removes.
    pub fn launch(&self) -> &Removal {
        &self.launch
    }

    /// Whether the capability interface `cap` is linked.
    pub fn links(&self, cap: Capability) -> bool {
        self.launch.keeps(cap)
    }

    /// The launch policy's `page-tools` level.
    pub fn page_tool_level(&self) -> PageToolLevel {
        self.page_tools
    }

    /// Whether the launch policy lets the tool `name`, made of `caps`,
    /// run at all (whatever the client).
    pub fn tool(&self, name: &str, caps: &[Capability]) -> Result<(), Denial> {
        if !self.launch.keeps_tool(name) {
            return Err(Denial::ToolRemoved { tool: name.into() });
        }
        let denied = self.launch.removed_of(caps);
        if !denied.is_empty() {
            return Err(Denial::CapabilitiesDenied {
                tool: name.into(),
                capabilities: denied,
            });
        }
        Ok(())
    }

    /// Whether a client holding `grants` may call a tool made of `caps`.
    pub fn client(&self, caps: &[Capability], grants: Grants) -> Result<(), Denial> {
        match capabilities::grants(caps)
            .into_iter()
            .find(|g| !grants.has(g))
        {
            Some(grant) => Err(Denial::GrantMissing { grant }),
            None => Ok(()),
        }
    }

    /// The whole question for one call: the launch policy, then the
    /// client's grants.
    pub fn call(&self, name: &str, caps: &[Capability], grants: Grants) -> Result<(), Denial> {
        self.tool(name, caps)?;
        self.client(caps, grants)
    }

    /// The grants this broker offers at `initialize`: each only where the
    /// policy lets the tools that need it run (`developer.eval` with
    /// `script` linked, `page.consequential` with `page-tools` linked at
    /// level `all`).
    pub fn offered_grants(&self) -> Vec<&'static str> {
        let mut offered = Vec::new();
        if self.links(Capability::Script) {
            offered.push(Grants::EVAL);
        }
        if self.links(Capability::PageTools) && self.page_tools == PageToolLevel::All {
            offered.push(Grants::PAGE_CONSEQUENTIAL);
        }
        if self.links(Capability::StateLoad) {
            offered.push(Grants::STATE_LOAD_USER);
        }
        offered
    }

    /// Whether a client holding `grants` may load a saved state into the
    /// connected browser: always into one the broker launched, into the
    /// user's own only with `state.load-user`.
    pub fn state_load(launched: bool, grants: Grants) -> Result<(), Denial> {
        if launched || grants.state_load_user {
            Ok(())
        } else {
            Err(Denial::UserBrowserState)
        }
    }

    /// What a client holding `grants` may do with page-declared tools.
    pub fn page_tool_access(&self, grants: Grants) -> PageToolAccess {
        PageToolAccess {
            level: self.page_tools,
            consequential_granted: grants.page_consequential,
        }
    }

    /// Whether a client holding `grants` may see and call a page tool of
    /// `effect`.
    pub fn page_tool(&self, effect: Effect, grants: Grants) -> Result<(), Denial> {
        self.page_tool_access(grants)
            .admits(effect)
            .map_err(|why| Denial::PageTool {
                effect,
                why,
                level: self.page_tools,
            })
    }

    /// Whether `lease` may take control of a tab that `holder` controls
    /// (`None`: nobody). Control is exclusive: only its holder keeps it.
    pub fn control(holder: Option<&str>, lease: &str) -> Result<(), Denial> {
        match holder {
            Some(h) if h != lease => Err(Denial::TabControlled),
            _ => Ok(()),
        }
    }

    /// The broker tools a call of `name` with `args` runs on its own
    /// behalf, each to be judged as if it were called directly: opening a
    /// tab with a URL navigates it, so a policy without `navigation`
    /// refuses it before any tab is created.
    pub fn nested_calls(name: &str, args: &Value) -> &'static [&'static str] {
        match name {
            "browser.tabs.open" if !args["url"].is_null() => &["browser.navigate"],
            _ => &[],
        }
    }

    /// Whether a `bp mcp` session narrowed by `session` offers the broker
    /// tool `name`, made of the capabilities named `caps` (as the
    /// broker's `tools/list` spells them, which already left out what the
    /// launch policy removes). Unknown capability names are left to the
    /// broker, which refuses what it does not offer.
    pub fn narrowed(session: &Removal, name: &str, caps: &[&str]) -> Result<(), Denial> {
        let known: Vec<Capability> = caps
            .iter()
            .filter_map(|c| Capability::from_name(c))
            .collect();
        if !session.keeps_tool(name) || !session.removed_of(&known).is_empty() {
            return Err(Denial::SessionNarrowed { tool: name.into() });
        }
        Ok(())
    }
}
