//! Input on one tab: aiming and hit tests, actionability, pointer and keys, typing and its read-back, settling after an action.

pub(in crate::browser) mod actionable;
pub(in crate::browser) mod aim;
pub(in crate::browser) mod call_input;
pub(in crate::browser) mod dispatch;
pub(in crate::browser) mod element_at;
pub(in crate::browser) mod focus_editable;
pub(in crate::browser) mod keys;
pub mod pointer;
pub(in crate::browser) mod settle;
pub(in crate::browser) mod settle_after;
pub(in crate::browser) mod typed_readback;
