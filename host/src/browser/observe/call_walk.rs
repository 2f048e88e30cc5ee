//! [`CallWalk`]: what one tool call's page walk and observation keep
//! between page calls, the observe part of a
//! [`TargetCall`](crate::browser::call::TargetCall) (its `observe`
//! field), as `WasiCtx` is composed of per-area parts. Only the observe
//! files and the ref store (`call/refs.rs`, `call/resolved.rs`) read it;
//! an action's actionability check takes the ref revalidation's read
//! (`input/actionable.rs`), and the hub releases the group of a walk
//! never recorded (`call/mod.rs`). A leaf: it imports only other leaves.

use crate::browser::call::state::{ReadAhead, Resolved};
use crate::browser::observe::held_refs::Known;

/// The page walk's per-call state.
#[derive(Default)]
pub(in crate::browser) struct CallWalk {
    /// Document (and selected frame) the last accessibility read came from.
    pub(in crate::browser) tree_doc: Option<(u64, Option<String>, Option<String>)>,
    /// What the last ref revalidation read (`call/resolved.rs`).
    pub(in crate::browser) resolved: Option<Resolved>,
    /// An active-element read sent ahead (`observe/read_ahead.rs`).
    pub(in crate::browser) read_ahead: Option<ReadAhead>,
    /// The object group the page walk put its candidates in, until the
    /// observation is recorded and the group is held (`observe/held_refs.rs`).
    pub(in crate::browser) refs_group: Option<String>,
    /// The held group of the tab's previous observation, when this call's
    /// walk took its elements from there (`observe/rewalk.rs`); never released
    /// by this call.
    pub(in crate::browser) inherited_group: Option<String>,
    /// The elements this call's walk identified: (backend node, object).
    pub(in crate::browser) walked: Vec<Known>,
    /// The roles this call's walk was asked for.
    pub(in crate::browser) walked_roles: Vec<String>,
    /// The page's walk agent for this document, in the group of the
    /// walk's candidates or the held group (`observe/walk_agent.rs`).
    pub(in crate::browser) agent: Option<String>,
    /// Walk the page afresh, without the known elements.
    pub(in crate::browser) rewalk_off: bool,
    /// Object groups this call handed over to be held.
    pub(in crate::browser) held_count: u32,
}
