//! Browser Pilot's broker library: the CDP connector, the domain model
//! (workspaces, leases, observations), the WebAssembly component runtime
//! that runs every page-touching tool, and the JSON-RPC service.
pub mod broker;
pub mod browser;
pub mod capabilities;
pub mod cdp;
pub mod client;
pub mod components;
pub mod discovery;
pub mod error;
pub mod granter;
pub mod ids;
#[cfg(test)]
mod layering_tests;
pub mod runtime;
pub mod sanitize;
pub mod scope;
pub mod store;
pub mod system;
pub mod tab;
pub mod wit;

pub use error::{BpError, BpResult, Code};
