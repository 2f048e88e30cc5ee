//! The browser side of the broker: the connection to one browser, the
//! registry of its targets, observations, and the per-call operations
//! behind the capability interfaces.

mod axtree;
pub mod call;
mod call_aim;
pub mod call_emulation;
mod call_handles;
mod call_input;
pub mod call_pointer;
mod call_read;
mod call_refs;
mod call_state;
pub mod caller;
pub mod connection;
mod dialogs;
mod focus_editable;
mod frame_ops;
pub mod frames;
pub mod held_refs;
mod interactive;
mod js;
mod keys;
mod media;
mod nav_facts;
mod navigate;
mod netops;
pub mod observations;
pub mod page_tool_hint;
pub mod page_tool_invoke;
pub mod page_tools;
pub mod proof;
pub mod proved_read;
mod read_ahead;
pub mod registry;
mod resolved;
mod rewalk;
mod settle;
mod typed_readback;
pub mod types;
mod walk;
mod walk_agent;
pub mod workspace_call;
mod workspace_console;
mod workspace_net;
