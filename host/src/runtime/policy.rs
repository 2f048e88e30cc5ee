//! The launch-time BrowserControlPolicy: which capability interfaces are
//! linked, which single tools are removed, and the per-call limits. It
//! never changes while a broker runs.

use super::capability::Capability;
use crate::error::{BpError, BpResult};
use crate::granter::{Granter, PageToolLevel, Removal};
use serde::Deserialize;
use std::path::Path;

/// Per-call execution limits for components.
#[derive(Debug, Clone, Copy, Deserialize)]
#[serde(deny_unknown_fields, rename_all = "kebab-case")]
pub struct Limits {
    /// Wall-clock budget of one tool call.
    #[serde(default = "default_timeout")]
    pub call_timeout_ms: u64,
    /// Linear memory a component instance may grow to.
    #[serde(default = "default_memory")]
    pub memory_mb: u64,
    /// Largest single artifact.
    #[serde(default = "default_item_mb")]
    pub artifact_item_mb: u64,
    /// All artifacts of one workspace.
    #[serde(default = "default_workspace_mb")]
    pub artifact_workspace_mb: u64,
    /// All artifacts of the broker.
    #[serde(default = "default_global_mb")]
    pub artifact_global_mb: u64,
    /// How long an unretained artifact lives.
    #[serde(default = "default_ttl")]
    pub artifact_ttl_seconds: u64,
}

fn default_item_mb() -> u64 {
    64
}

fn default_workspace_mb() -> u64 {
    256
}

fn default_global_mb() -> u64 {
    1024
}

fn default_ttl() -> u64 {
    1800
}

impl Limits {
    /// The artifact store limits.
    pub fn artifacts(&self) -> crate::store::artifacts::ArtifactLimits {
        crate::store::artifacts::ArtifactLimits {
            per_item: self.artifact_item_mb << 20,
            per_workspace: self.artifact_workspace_mb << 20,
            global: self.artifact_global_mb << 20,
            ttl: std::time::Duration::from_secs(self.artifact_ttl_seconds),
        }
    }
}

fn default_timeout() -> u64 {
    30_000
}

fn default_memory() -> u64 {
    64
}

impl Default for Limits {
    fn default() -> Self {
        Self {
            call_timeout_ms: default_timeout(),
            memory_mb: default_memory(),
            artifact_item_mb: default_item_mb(),
            artifact_workspace_mb: default_workspace_mb(),
            artifact_global_mb: default_global_mb(),
            artifact_ttl_seconds: default_ttl(),
        }
    }
}

/// The policy file format.
#[derive(Debug, Default, Deserialize)]
#[serde(deny_unknown_fields)]
struct PolicyFile {
    #[serde(default)]
    deny: Vec<String>,
    /// Single tools removed while their capabilities stay linked.
    #[serde(default, rename = "deny-tools")]
    deny_tools: Vec<String>,
    #[serde(default)]
    limits: Option<Limits>,
    /// `read-only`, `write` (the default) or `all`.
    #[serde(default, rename = "page-tools")]
    page_tools: Option<String>,
    /// The origins the tabs the broker controls may reach (none: any).
    #[serde(default, rename = "allowed-origins")]
    allowed_origins: Vec<String>,
}

/// A validated policy: what it removes and the page-tools level (asked
/// of its [`Granter`]), and the per-call limits.
#[derive(Debug, Clone, Default)]
pub struct Policy {
    granter: Granter,
    pub limits: Limits,
    /// The launch list of allowed origins (`allowed-origins`,
    /// `--allowed-origin`); `None`: no origin scope.
    pub scope: Option<crate::scope::Scope>,
}

impl Policy {
    /// Build from an optional TOML file plus `--deny` and `--deny-tool`
    /// flags.
    pub fn load(
        file: Option<&Path>,
        deny_flags: &[String],
        deny_tool_flags: &[String],
    ) -> BpResult<Self> {
        let parsed = match file {
            Some(path) => {
                let text = std::fs::read_to_string(path).map_err(|e| {
                    BpError::invalid(format!("cannot read policy {}: {e}", path.display()))
                })?;
                Self::parse_file(&text)?
            }
            None => PolicyFile::default(),
        };
        let limits = parsed.limits.unwrap_or_default();
        if !(100..=600_000).contains(&limits.call_timeout_ms) {
            return Err(BpError::invalid(
                "limits.call-timeout-ms must be between 100 and 600000",
            ));
        }
        if !(16..=4096).contains(&limits.memory_mb) {
            return Err(BpError::invalid(
                "limits.memory-mb must be between 16 and 4096",
            ));
        }
        let quota = 1..=1_048_576;
        let quotas = [
            limits.artifact_item_mb,
            limits.artifact_workspace_mb,
            limits.artifact_global_mb,
        ];
        if !quotas.iter().all(|q| quota.contains(q)) {
            return Err(BpError::invalid(
                "artifact quotas must be between 1 and 1048576 MB",
            ));
        }
        if !(1..=7 * 24 * 3600).contains(&limits.artifact_ttl_seconds) {
            return Err(BpError::invalid(
                "limits.artifact-ttl-seconds must be between 1 and 604800",
            ));
        }
        let level = match &parsed.page_tools {
            Some(level) => parse_level(level)?,
            None => PageToolLevel::default(),
        };
        let deny: Vec<String> = parsed.deny.iter().chain(deny_flags).cloned().collect();
        let deny_tools: Vec<String> = parsed
            .deny_tools
            .iter()
            .chain(deny_tool_flags)
            .cloned()
            .collect();
        Ok(Policy {
            granter: Granter::new(Removal::parse(&deny, &deny_tools)?, level),
            limits,
            scope: crate::scope::Scope::parse_list(&parsed.allowed_origins)?,
        })
    }

    /// Add the `--allowed-origin` flags to the launch list.
    pub fn with_allowed_origins(mut self, flags: &[String]) -> BpResult<Self> {
        let mut all = self.scope.as_ref().map(|s| s.names()).unwrap_or_default();
        all.extend(flags.iter().cloned());
        self.scope = crate::scope::Scope::parse_list(&all)?;
        Ok(self)
    }

    fn parse_file(text: &str) -> BpResult<PolicyFile> {
        toml::from_str(text)
            .map_err(|e| BpError::invalid(format!("invalid policy: {}", e.message())))
    }

    /// Set the `page-tools` level (`read-only`, `write` or `all`).
    pub fn set_page_tools(&mut self, level: &str) -> BpResult<()> {
        let level = parse_level(level)?;
        self.granter = Granter::new(self.granter.launch().clone(), level);
        Ok(())
    }

    /// The one place that answers what this policy allows.
    pub fn granter(&self) -> &Granter {
        &self.granter
    }

    /// Whether `capability` is linked.
    pub fn allows(&self, capability: Capability) -> bool {
        self.granter.links(capability)
    }

    /// Whether the single tool `name` is left in place.
    pub fn allows_tool(&self, name: &str) -> bool {
        self.granter.launch().keeps_tool(name)
    }

    /// The denied capabilities, sorted.
    pub fn denied(&self) -> Vec<String> {
        self.granter.launch().capability_names()
    }

    /// The removed tools, sorted.
    pub fn denied_tools(&self) -> Vec<String> {
        self.granter.launch().tool_names()
    }
}

/// The `page-tools` level of a policy, or a clear refusal.
fn parse_level(level: &str) -> BpResult<PageToolLevel> {
    PageToolLevel::parse(level).ok_or_else(|| {
        BpError::invalid(format!(
            "page-tools must be read-only, write or all, not `{level}`"
        ))
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn policy_table() {
        let cases: &[(&str, Result<&[&str], &str>)] = &[
            ("", Ok(&[])),
            ("deny = [\"navigation\"]", Ok(&["navigation"])),
            (
                "deny = [\"input\", \"page-read\"]\n[limits]\ncall-timeout-ms = 100",
                Ok(&["input", "page-read"]),
            ),
            ("allow = [\"input\"]", Err("unknown field")),
            ("deny = [\"teleport\"]", Err("unknown capability")),
            ("[limits]\nstack = 1", Err("unknown field")),
        ];
        for (text, expected) in cases {
            let result = Policy::parse_file(text)
                .and_then(|f| Removal::parse(&f.deny, &f.deny_tools))
                .map(|r| Policy {
                    granter: Granter::new(r, PageToolLevel::default()),
                    ..Policy::default()
                });
            match (result, expected) {
                (Ok(p), Ok(denied)) => assert_eq!(p.denied(), denied.to_vec(), "{text}"),
                (Err(e), Err(msg)) => assert!(e.message.contains(msg), "{text}: {}", e.message),
                (r, e) => panic!("{text}: got {r:?}, expected {e:?}"),
            }
        }
    }

    #[test]
    fn single_tools_can_be_removed() {
        let dir = std::env::temp_dir().join(format!("bp-policy-{}", std::process::id()));
        std::fs::create_dir_all(&dir).unwrap();
        let file = dir.join("p.toml");
        std::fs::write(&file, "deny-tools = [\"browser.tabs.close\"]\n").unwrap();
        let p = Policy::load(Some(&file), &[], &["browser.cookies.set".into()]).unwrap();
        assert!(!p.allows_tool("browser.tabs.close"));
        assert!(!p.allows_tool("browser.cookies.set"));
        assert!(p.allows_tool("browser.tabs.open"));
        assert!(p.allows(Capability::TabsManage));
        assert_eq!(
            p.denied_tools(),
            vec!["browser.cookies.set", "browser.tabs.close"]
        );
        let bad = Policy::load(None, &[], &["tabs".into()]).unwrap_err();
        assert!(bad.message.contains("not a tool name"), "{}", bad.message);
        let _ = std::fs::remove_dir_all(&dir);
    }

    #[test]
    fn allowed_origins_join_the_file_and_the_flags() {
        let dir = std::env::temp_dir().join(format!("bp-policy-scope-{}", std::process::id()));
        std::fs::create_dir_all(&dir).unwrap();
        let file = dir.join("p.toml");
        std::fs::write(&file, "allowed-origins = [\"https://*.example.com\"]\n").unwrap();
        let p = Policy::load(Some(&file), &[], &[]).unwrap();
        let p = p
            .with_allowed_origins(&["http://127.0.0.1:8123".into()])
            .unwrap();
        let names = p.scope.as_ref().map(|s| s.names()).unwrap_or_default();
        assert_eq!(names, ["https://*.example.com", "http://127.0.0.1:8123"]);
        // None anywhere: no scope.
        assert!(Policy::load(None, &[], &[]).unwrap().scope.is_none());
        std::fs::write(&file, "allowed-origins = [\"ftp://x\"]\n").unwrap();
        let bad = Policy::load(Some(&file), &[], &[]).unwrap_err();
        assert_eq!(bad.code.as_str(), "invalid_argument");
        let bad = Policy::default().with_allowed_origins(&["https://*".into()]);
        assert!(bad.is_err());
        let _ = std::fs::remove_dir_all(&dir);
    }
}
