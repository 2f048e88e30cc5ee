//! The browser side of the broker: the connection to one browser, the
//! registry of its targets, observations, and the per-call operations
//! behind the capability interfaces.

pub mod input;
pub use input::actionable::{DEFAULT_WAIT_MS, MAX_WAIT_MS};
pub mod call;
pub mod caller;
pub mod connection;
pub mod console_enable;
pub mod dom_storage;
mod js;
pub mod navigation;
pub mod observe;
pub mod page_tools;
pub mod proof;
pub mod registry;
pub mod workspace;
pub use input::settle_after::MAX_SETTLE_MS;
pub mod types;
