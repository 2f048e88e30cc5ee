//! The store's views: what each capability folder's `add_to_linker` is
//! handed (`views.rs`). The capabilities' `Host` impls and conversions
//! live in their folders (`crate::capabilities`).

pub(in crate::runtime) mod views;
