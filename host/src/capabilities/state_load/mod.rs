//! Capability `state-load` (`tools-wit/state-load.wit`): load a saved state (a `bp-state` file in an artifact) into the connected browser, checked whole first, each part read back. Into the user's own browser only with the client grant `state.load-user` (the granter's answer, carried by the workspace call). The work is the workspace's (`browser/workspace/state.rs`); this folder is the capability: its view and linking (here) and its WIT `Host` impl (`host.rs`).

mod host;

crate::workspace_view!(StateLoadView, StateLoadScope, state_load);
