//! Capability `state-save` (`tools-wit/state-save.wit`): save the calling workspace's signed-in state (the browser's cookies, the local storage of the origins its tabs show) into a `state` artifact (sensitivity `secret`, an owner-only file). The work is the workspace's (`browser/workspace/state.rs`, the file format in `state_file.rs`); this folder is the capability: its view and linking (here) and its WIT `Host` impl (`host.rs`). Only counts and origins come back to the component, never a value.

mod host;

crate::workspace_view!(StateSaveView, StateSaveScope, state_save);
