//! Compiled components and their instances: the engine, the cache of compiled artifacts, spare instances, slots, limits and the epoch ticker.

pub mod cache;
pub(in crate::runtime) mod images;
pub(in crate::runtime) mod limits;
pub(in crate::runtime) mod reaper;
pub(in crate::runtime) mod slots;
pub(in crate::runtime) mod spare;
pub(in crate::runtime) mod ticker;
