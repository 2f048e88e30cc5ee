//! `cdp_method!`: give a hand-written protocol type (for a domain or a
//! method chromiumoxide's protocol revision lacks) the method identity
//! chromiumoxide's generated types have, so it goes through the same typed
//! calls ([`super::Cdp::send`]) and event matches ([`super::CdpEvent::is`]).

/// Implement chromiumoxide's `Method`, `MethodType` (and, given a reply
/// type, `Command`) for `$ty`, with an `IDENTIFIER` constant for match arms.
macro_rules! cdp_method {
    ($ty:ident, $name:literal) => {
        impl $ty {
            pub const IDENTIFIER: &'static str = $name;
        }
        impl chromiumoxide::types::Method for $ty {
            fn identifier(&self) -> chromiumoxide::types::MethodId {
                Self::IDENTIFIER.into()
            }
        }
        impl chromiumoxide::types::MethodType for $ty {
            fn method_id() -> chromiumoxide::types::MethodId {
                Self::IDENTIFIER.into()
            }
        }
    };
    ($ty:ident, $name:literal, $response:ty) => {
        cdp_method!($ty, $name);
        impl chromiumoxide::types::Command for $ty {
            type Response = $response;
        }
    };
}
