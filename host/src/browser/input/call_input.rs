//! [`CallInput`]: what one tool call's input actions keep between page
//! calls, the input part of a
//! [`TargetCall`](crate::browser::call::TargetCall) (its `input` field),
//! as `WasiCtx` is composed of per-area parts: the nodes focused and
//! aimed at, the active element as last read, the counts that prove a
//! read came after its input, and settling. The input files read it, the
//! active-element read (`navigation/frame_ops.rs`) and the first command
//! of that read, sent ahead (`observe/read_ahead.rs`). A leaf: it imports
//! only other leaves.

use crate::browser::call::state::{SettleArm, TypedBefore};
use crate::browser::types::NodeHandle;

/// The input actions' per-call state.
#[derive(Default)]
pub(in crate::browser) struct CallInput {
    /// Input was dispatched and the page not settled since (`input/settle.rs`).
    pub(in crate::browser) unsettled: bool,
    /// The last active element read: its token and remote object, so the
    /// next read can confirm it in one page call.
    pub(in crate::browser) last_active: Option<(String, String)>,
    /// The active element's token as a page call that focused it found
    /// it, with the commands sent on the connection by then: the next
    /// read takes it if nothing was sent since (`input/focus_editable.rs`).
    pub(in crate::browser) active_known: Option<(u64, String)>,
    /// Active-element reads that named an element by its object.
    pub(in crate::browser) active_reads: u32,
    /// The node given focus last, and the node aimed at last.
    pub(in crate::browser) focused_handle: Option<NodeHandle>,
    pub(in crate::browser) aimed_handle: Option<NodeHandle>,
    /// The page's `pointerup` count read as the click was aimed (main
    /// frame only), which its read sent with the release must pass.
    pub(in crate::browser) pointerups_before: Option<u64>,
    /// The field a type action focused, as it read then, until other
    /// input (`input/typed_readback.rs`).
    pub(in crate::browser) typed_before: Option<TypedBefore>,
    /// The `keyup` count of the active element's document as the last
    /// active-element read confirmed it, with the commands sent on the
    /// connection by then: a key sent next with nothing sent between
    /// proves its focus read by it (`observe/proved_read.rs`).
    pub(in crate::browser) keyups_seen: Option<(u64, u64)>,
    /// Settling armed for the action under way (`input/settle_after.rs`).
    pub(in crate::browser) settle_arm: Option<SettleArm>,
    /// The document generation where this call installed the settle
    /// observer last.
    pub(in crate::browser) observer_doc: Option<u64>,
    /// The settle observer's mutation count as the last main-frame node
    /// read saw it, with the commands sent by then (`input/settle_after.rs`).
    pub(in crate::browser) mutations_seen: Option<(u64, u64)>,
}
