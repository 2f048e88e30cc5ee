//! Per-workspace state kept outside the browser: the artifact store and the network journal, rules and credentials.

pub mod artifacts;
pub mod console;
pub mod event_gate;
pub mod network;
pub mod scope;
