//! Browser Pilot's broker library: the CDP connector, the domain model
//! (workspaces, leases, observations), the WebAssembly component runtime
//! that runs every page-touching tool, and the JSON-RPC service.
pub mod artifacts;
pub mod broker;
pub mod browser;
pub mod capabilities;
pub mod cdp;
pub mod client;
pub mod components;
pub mod console;
pub mod discovery;
pub mod error;
pub mod granter;
pub mod heap;
pub mod ids;
pub mod invisible;
pub mod janitor;
#[cfg(test)]
mod layering_tests;
pub mod network;
pub mod paths;
pub mod redact;
pub mod runtime;
pub mod tab;
pub mod wit;

pub use error::{BpError, BpResult, Code};
