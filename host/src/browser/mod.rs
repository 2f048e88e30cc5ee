//! The browser side of the broker: the connection to one browser, the
//! registry of its targets, observations, and the per-call operations
//! behind the capability interfaces.

mod axtree;
pub mod call;
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
pub mod proved_read;
mod read_ahead;
pub mod registry;
mod resolved;
mod rewalk;
mod settle;
mod typed_readback;
pub mod types;
mod walk_agent;
pub mod workspace_call;
mod workspace_net;
