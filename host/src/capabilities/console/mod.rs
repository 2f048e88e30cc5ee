//! Capability `console` (`tools-wit/console.wit`): the calling
//! workspace's console journal. The journal itself is `crate::console`
//! (fed by the broker from the tabs the workspace controls); this folder
//! is the capability: its view and linking (here), its WIT `Host` impl
//! (`host.rs`), the mapping of levels and entries (`convert.rs`), and its
//! unit tests. It reaches the workspace, never a tab.

mod convert;
mod host;
#[cfg(test)]
mod tests;

crate::workspace_view!(ConsoleView, ConsoleScope, console);
