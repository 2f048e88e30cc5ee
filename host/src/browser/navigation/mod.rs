//! Moving a tab between documents: navigation, its facts, frames and dialogs.

pub(in crate::browser) mod frame_ops;
pub mod frames;
pub(in crate::browser) mod nav_facts;
pub(in crate::browser) mod navigate;
