//! What every capability interface shares: mapping a broker result into
//! an import's typed result. The interfaces themselves are implemented on
//! their scope's view (`host/target.rs`, `host/workspace.rs`).

pub(in crate::runtime) mod convert;
mod convert_data;
pub(in crate::runtime) mod page_tools;
pub(in crate::runtime) mod target;
pub(in crate::runtime) mod views;
pub(in crate::runtime) mod workspace;
