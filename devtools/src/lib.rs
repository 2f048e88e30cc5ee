//! Browser Pilot's development tools, kept out of the product crates:
//! `bp bench` (speed and cost against the raw-CDP floor), `bp fuzz` (the
//! broker's JSON-RPC boundary in process, or a real `bp mcp` over stdin)
//! and `bp soak` (many bridge clients at once). The `browser-pilot` CLI
//! parses their arguments and calls the entry points here.

pub mod bench;
pub mod fuzz;
pub mod soak;
