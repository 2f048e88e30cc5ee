//! The browser side of the broker: the connection to one browser, the
//! registry of its targets, observations, and the per-call operations
//! behind the capability interfaces.

mod actionable;
pub use actionable::{DEFAULT_WAIT_MS, MAX_WAIT_MS};
mod axtree;
pub mod call;
mod call_aim;
mod call_handles;
mod call_input;
mod call_read;
mod call_refs;
mod call_state;
pub mod caller;
pub mod connection;
mod dialogs;
mod element_at;
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
mod settle_after;
pub use settle_after::MAX_SETTLE_MS;
mod typed_readback;
pub mod types;
mod walk;
mod walk_agent;
pub mod workspace_call;
mod workspace_net;
