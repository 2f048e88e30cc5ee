pub mod cmp;
pub(crate) mod numeric;
