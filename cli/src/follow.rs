//! Reading a journal on (`bp events`, `bp console`): read after read from
//! a cursor, each read's items printed as they come, then, with
//! `--follow`, again every [`FOLLOW_POLL`] until Ctrl-C or `--timeout`.
//! The command gives the fetch (one read from a cursor, and the cursor to
//! read on from) and the line an item prints as for people; each fetch
//! opens a session of its own, so other `bp` commands of the same
//! workspace run between reads.

use crate::commands::emit;
use browser_pilot_host::BpResult;
use serde_json::Value;
use std::future::Future;
use std::time::{Duration, Instant};

/// How often a follow reads the journal again.
const FOLLOW_POLL: Duration = Duration::from_millis(250);

/// When a follow with `--timeout MS` given now stops (none: at Ctrl-C).
pub(crate) fn deadline(timeout_ms: Option<u64>) -> Option<Instant> {
    timeout_ms.map(|ms| Instant::now() + Duration::from_millis(ms))
}

/// A journal as a command prints it.
pub(crate) struct Journal {
    /// The field of a read that lists its items (`events`, `messages`).
    pub items: &'static str,
    /// One item as a line for people.
    pub line: fn(&Value) -> String,
    /// Each item as one JSON object a line instead.
    pub json: bool,
}

impl Journal {
    /// Print each item of one read.
    pub fn print(&self, read: &Value) {
        for item in read[self.items].as_array().into_iter().flatten() {
            emit(self.json, item, self.line);
        }
    }

    /// Everything there is now from `cursor`: read after read while the
    /// journal says it has more, each printed; the cursor to read on from.
    pub async fn drain<C, F, Fut>(&self, mut cursor: C, fetch: &mut F) -> BpResult<C>
    where
        F: FnMut(C) -> Fut,
        Fut: Future<Output = BpResult<(Value, C)>>,
    {
        loop {
            let (read, next) = fetch(cursor).await?;
            self.print(&read);
            cursor = next;
            if read["hasMore"] != true {
                return Ok(cursor);
            }
        }
    }

    /// Read on from `cursor` (as [`Journal::drain`]) every
    /// [`FOLLOW_POLL`], until Ctrl-C or `deadline`.
    pub async fn follow<C, F, Fut>(
        &self,
        deadline: Option<Instant>,
        mut cursor: C,
        mut fetch: F,
    ) -> BpResult<()>
    where
        F: FnMut(C) -> Fut,
        Fut: Future<Output = BpResult<(Value, C)>>,
    {
        loop {
            let wait = match deadline {
                Some(d) if Instant::now() >= d => return Ok(()),
                Some(d) => FOLLOW_POLL.min(d.saturating_duration_since(Instant::now())),
                None => FOLLOW_POLL,
            };
            tokio::select! {
                _ = tokio::signal::ctrl_c() => return Ok(()),
                () = tokio::time::sleep(wait) => {}
            }
            cursor = self.drain(cursor, &mut fetch).await?;
        }
    }
}
