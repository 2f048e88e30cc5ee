//! What a [`TargetCall`](super::call::TargetCall) remembers between its
//! page calls: the struct definitions only, so the hub can hold them
//! without importing the files that work with them. Their `impl` blocks
//! live with that work: [`ReadAhead`] in `read_ahead.rs`, [`Resolved`] in
//! `resolved.rs`, [`TypedBefore`] in `typed_readback.rs`, [`SettleArm`] in
//! `settle_after.rs`. A leaf: it
//! imports only other leaves (`proof.rs`, `types.rs`).

use super::proof::Proof;
use super::types::{NodeHandle, Point, SettleMode};
use crate::cdp::Pending;
use serde_json::Value;

/// A read sent ahead on the page's own session (`read_ahead.rs`).
pub(super) struct ReadAhead {
    pub(super) method: &'static str,
    pub(super) params: Value,
    /// Commands sent on the connection right after it.
    pub(super) sent: u64,
    pub(super) reply: AheadReply,
}

/// The reply of a read sent ahead: still to come, or already seen (a
/// read sent with an input and answered after it, `proved_read.rs`).
pub(super) enum AheadReply {
    Pending(Pending),
    /// Seen, and proved to have run after its input (`proved_read.rs`).
    Ready(Value, Proof),
}

/// What revalidating a ref read, and when (`resolved.rs`).
pub(super) struct Resolved {
    pub(super) handle: NodeHandle,
    /// Commands sent on the connection when the read was answered.
    pub(super) sent: u64,
    /// The document generation it was read in.
    pub(super) doc: u64,
    /// `NODE_STATE`, or `{state, facts}` for a node of the main frame;
    /// taken by the first read of the node.
    pub(super) value: Option<Value>,
    /// Where a click would aim without scrolling (main frame, in view,
    /// not covered); taken by the first aim.
    pub(super) aim: Option<Point>,
    /// The page's `pointerup` count as read (`js::POINTERUPS`).
    pub(super) pointerups: Option<u64>,
}

/// The field a type action focused, as it stood once focused
/// (`typed_readback.rs`).
pub(super) struct TypedBefore {
    pub handle: NodeHandle,
    pub value: Option<String>,
    pub value_length: u32,
    /// Its whole content is selected: the text replaces it.
    pub replaced: bool,
}

/// Settling armed before an action (`settle_after.rs`).
#[derive(Debug, Clone, Copy)]
pub(super) struct SettleArm {
    pub(super) mode: SettleMode,
    /// Requests the page had started when armed.
    pub(super) requests_from: u64,
}
