//! The host's WIT bindings, generated in `crate::wit` (a leaf that the
//! capabilities import too); named here as the runtime always named them.

pub use crate::wit::*;
