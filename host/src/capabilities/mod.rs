//! The capability registry: every capability interface of the WIT package,
//! one row each. A row says what the capability is called in WIT and in
//! policy files, what a call that uses it acts on (its scope), whether its
//! calls overtake a busy tab, and which client grant it needs. Policy,
//! dispatch, the granter and `tools/list` read this table; the runtime adds
//! how each row is linked. Nothing else names capabilities. A leaf: it
//! imports only the error type.

pub mod artifacts;
pub mod capture;
pub mod console;
pub mod cookies_read;
pub mod cookies_write;
pub mod dialogs;
pub mod emulation;
pub mod input;
pub mod navigation;
pub mod network_modify;
pub mod network_read;
pub mod page_read;
pub mod page_scroll;
pub mod page_select;
pub mod page_tools;
pub mod page_wait;
pub mod pointer;
pub mod script;
pub mod state_load;
pub mod state_save;
pub mod storage_read;
pub mod storage_write;
pub mod tabs_manage;
pub mod upload;

use crate::error::{BpError, BpResult};

/// What a call acts on. Ordered: a tool's scope is the widest reach of
/// the capabilities it uses (`Target` > `Workspace` > `Browser`).
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub enum Reach {
    /// The browser connection itself.
    Browser,
    /// The calling workspace (its rules, journal, dialogs, tab set): no
    /// tab is selected or taken.
    Workspace,
    /// One tab, selected and controlled by the calling lease.
    Target,
}

impl Reach {
    pub fn as_str(self) -> &'static str {
        match self {
            Reach::Browser => "browser",
            Reach::Workspace => "workspace",
            Reach::Target => "target",
        }
    }
}

/// A capability interface of `browser-pilot:tools`.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub enum Capability {
    PageRead,
    Navigation,
    Input,
    Capture,
    Artifacts,
    Upload,
    NetworkRead,
    NetworkModify,
    CookiesRead,
    CookiesWrite,
    Script,
    Dialogs,
    TabsManage,
    PageTools,
    PageWait,
    PageScroll,
    Pointer,
    PageSelect,
    Emulation,
    Console,
    StorageRead,
    StorageWrite,
    StateSave,
    StateLoad,
    /// The browser window of the call's tab and handing it to a person
    /// (`browser.window`, `browser.takeover`): broker-native tools, so no
    /// WIT interface (a takeover waits up to 10 minutes, longer than a
    /// component call may run).
    Window,
}

/// One row of the registry: what the capability is called, what its
/// calls act on, whether they overtake a busy tab, and the client grant
/// they need. How it is linked is the runtime's (`runtime/capability.rs`).
pub struct Row {
    /// The WIT interface name, also the policy name.
    pub name: &'static str,
    pub reach: Reach,
    /// Calls made only of overtaking capabilities run beside a tab's queue
    /// (a dialog answer must not wait behind the command its dialog holds).
    pub overtakes: bool,
    /// The client grant (from `initialize`) a call needs.
    pub grant: Option<&'static str>,
}

impl Capability {
    /// Every capability, in WIT order.
    pub const ALL: [Capability; 25] = [
        Capability::PageRead,
        Capability::Navigation,
        Capability::Input,
        Capability::Capture,
        Capability::Artifacts,
        Capability::Upload,
        Capability::NetworkRead,
        Capability::NetworkModify,
        Capability::CookiesRead,
        Capability::CookiesWrite,
        Capability::Script,
        Capability::Dialogs,
        Capability::TabsManage,
        Capability::PageTools,
        Capability::PageWait,
        Capability::PageScroll,
        Capability::Pointer,
        Capability::PageSelect,
        Capability::Emulation,
        Capability::Console,
        Capability::StorageRead,
        Capability::StorageWrite,
        Capability::StateSave,
        Capability::StateLoad,
        Capability::Window,
    ];

    /// This capability's row.
    pub fn row(self) -> Row {
        let row = |name, reach| Row {
            name,
            reach,
            overtakes: false,
            grant: None,
        };
        use Reach::{Target, Workspace};
        match self {
            Capability::PageRead => row("page-read", Target),
            Capability::Navigation => row("navigation", Target),
            Capability::Input => row("input", Target),
            Capability::Capture => row("capture", Target),
            Capability::Artifacts => row("artifacts", Workspace),
            Capability::Upload => row("upload", Target),
            Capability::NetworkRead => row("network-read", Workspace),
            Capability::NetworkModify => row("network-modify", Workspace),
            Capability::CookiesRead => row("cookies-read", Target),
            Capability::CookiesWrite => row("cookies-write", Target),
            Capability::Script => Row {
                grant: Some("developer.eval"),
                ..row("script", Target)
            },
            Capability::Dialogs => Row {
                overtakes: true,
                ..row("dialogs", Workspace)
            },
            Capability::TabsManage => row("tabs-manage", Workspace),
            Capability::PageTools => row("page-tools", Target),
            Capability::PageWait => row("page-wait", Target),
            Capability::PageScroll => row("page-scroll", Target),
            Capability::Pointer => row("pointer", Target),
            Capability::PageSelect => row("page-select", Target),
            Capability::Emulation => row("emulation", Target),
            Capability::Console => row("console", Workspace),
            Capability::StorageRead => row("storage-read", Target),
            Capability::StorageWrite => row("storage-write", Target),
            Capability::StateSave => row("state-save", Workspace),
            Capability::StateLoad => row("state-load", Workspace),
            Capability::Window => row("window", Target),
        }
    }

    /// The WIT and policy name.
    pub fn name(self) -> &'static str {
        self.row().name
    }

    /// The capability with this name.
    pub fn from_name(name: &str) -> Option<Self> {
        Self::ALL.into_iter().find(|c| c.name() == name)
    }

    /// Parse a policy or manifest name; unknown names are refused.
    pub fn parse(name: &str) -> BpResult<Self> {
        Self::from_name(name).ok_or_else(|| {
            BpError::invalid(format!(
                "unknown capability `{name}` (known: {})",
                Self::ALL.map(Capability::name).join(", ")
            ))
        })
    }
}

impl std::fmt::Display for Capability {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(self.name())
    }
}

impl serde::Serialize for Capability {
    fn serialize<S: serde::Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        s.serialize_str(self.name())
    }
}

/// What a tool made of `caps` acts on: the widest reach among them (a
/// tool with no capability acts on the browser connection only).
pub fn reach_of(caps: &[Capability]) -> Reach {
    caps.iter()
        .map(|c| c.row().reach)
        .max()
        .unwrap_or(Reach::Browser)
}

/// Whether a tool made of `caps` overtakes a tab's queue.
pub fn overtakes(caps: &[Capability]) -> bool {
    !caps.is_empty() && caps.iter().all(|c| c.row().overtakes)
}

/// The client grants a tool made of `caps` needs.
pub fn grants(caps: &[Capability]) -> Vec<&'static str> {
    let mut g: Vec<&'static str> = caps.iter().filter_map(|c| c.row().grant).collect();
    g.sort_unstable();
    g.dedup();
    g
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn names_round_trip_and_are_unique() {
        let mut names: Vec<&str> = Capability::ALL.iter().map(|c| c.name()).collect();
        for c in Capability::ALL {
            assert_eq!(Capability::from_name(c.name()), Some(c));
        }
        names.sort_unstable();
        names.dedup();
        assert_eq!(names.len(), Capability::ALL.len());
        let err = Capability::parse("teleport").unwrap_err();
        assert!(err.message.contains("unknown capability `teleport`"));
        assert!(err.message.contains("page-read"));
    }

    #[test]
    fn a_tool_reaches_as_far_as_its_widest_capability() {
        use Capability::*;
        assert_eq!(reach_of(&[]), Reach::Browser);
        assert_eq!(reach_of(&[NetworkModify]), Reach::Workspace);
        assert_eq!(reach_of(&[Capture, Artifacts]), Reach::Target);
        assert_eq!(reach_of(&[TabsManage]), Reach::Workspace);
        assert!(overtakes(&[Dialogs]));
        assert!(!overtakes(&[Dialogs, PageRead]));
        assert!(!overtakes(&[]));
        assert_eq!(grants(&[Script, PageRead]), vec!["developer.eval"]);
        assert!(grants(&[Input]).is_empty());
    }
}
