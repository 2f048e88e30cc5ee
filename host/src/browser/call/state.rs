//! What a [`TargetCall`](crate::browser::call::TargetCall) remembers between its
//! page calls: the struct definitions only, so the hub can hold them
//! without importing the files that work with them. Their `impl` blocks
//! live with that work: [`ReadAhead`] in `observe/read_ahead.rs`, [`Resolved`] in
//! `call/resolved.rs`, [`TypedBefore`] in `input/typed_readback.rs`, [`SettleArm`] in
//! `input/settle_after.rs`. A leaf: it
//! imports only other leaves (`proof.rs`, `types.rs`, `call/wire.rs`).

use crate::browser::call::wire::Wire;
use crate::browser::proof::Proof;
use crate::browser::types::{NodeHandle, Point, SettleMode};
use crate::cdp::Pending;
use serde_json::Value;

/// A read sent ahead on the page's own session (`observe/read_ahead.rs`).
pub(in crate::browser) struct ReadAhead {
    pub(in crate::browser) read: Wire,
    /// Commands sent on the connection right after it.
    pub(in crate::browser) sent: u64,
    pub(in crate::browser) reply: AheadReply,
}

/// The reply of a read sent ahead: still to come, or already seen (a
/// read sent with an input and answered after it, `observe/proved_read.rs`).
pub(in crate::browser) enum AheadReply {
    Pending(Pending),
    /// Seen, and proved to have run after its input (`observe/proved_read.rs`).
    Ready(Value, Proof),
}

/// What revalidating a ref read, and when (`call/resolved.rs`).
pub(in crate::browser) struct Resolved {
    pub(in crate::browser) handle: NodeHandle,
    /// Commands sent on the connection when the read was answered.
    pub(in crate::browser) sent: u64,
    /// The document generation it was read in.
    pub(in crate::browser) doc: u64,
    /// `NODE_STATE`, or `{state, facts}` for a node of the main frame;
    /// taken by the first read of the node.
    pub(in crate::browser) value: Option<Value>,
    /// Where a click would aim without scrolling (main frame, in view,
    /// not covered); taken by the first aim.
    pub(in crate::browser) aim: Option<Point>,
    /// The page's `pointerup` count as read (`js::POINTERUPS`).
    pub(in crate::browser) pointerups: Option<u64>,
}

/// The field a type action focused, as it stood once focused
/// (`input/typed_readback.rs`).
pub(in crate::browser) struct TypedBefore {
    pub handle: NodeHandle,
    pub value: Option<String>,
    pub value_length: u32,
    /// Its whole content is selected: the text replaces it.
    pub replaced: bool,
}

/// Settling armed before an action (`input/settle_after.rs`).
#[derive(Debug, Clone, Copy)]
pub(in crate::browser) struct SettleArm {
    pub(in crate::browser) mode: SettleMode,
    /// Requests the page had started when armed.
    pub(in crate::browser) requests_from: u64,
}
