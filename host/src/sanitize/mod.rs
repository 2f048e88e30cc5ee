//! What page text and URLs may carry to an agent: invisible characters stripped, credentials in URLs redacted.

pub mod invisible;
pub mod redact;
