//! Observations: the page walks, the accessibility tree, refs held and proved, reads ahead.

pub(in crate::browser) mod axtree;
pub(in crate::browser) mod call_walk;
pub(in crate::browser) mod frame_extras;
pub mod held_refs;
pub(in crate::browser) mod interactive;
pub mod observations;
pub mod proved_read;
pub(in crate::browser) mod read_ahead;
pub(in crate::browser) mod rewalk;
pub(in crate::browser) mod walk;
pub(in crate::browser) mod walk_agent;
pub(in crate::browser) mod walk_facts;
