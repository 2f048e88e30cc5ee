//! The broker's place on the machine: its state directory and permissions, the janitor child, and returning freed memory.

pub mod heap;
pub mod janitor;
pub mod paths;
