//! What every capability interface shares: mapping a broker result into
//! an import's typed result. The interfaces themselves are implemented on
//! their scope's view (`host_target.rs`, `host_workspace.rs`).

use super::bindings::types;
use super::HostState;

pub(super) use crate::wit::typed::{typed, Res};

impl types::Host for HostState {}
