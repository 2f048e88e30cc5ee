//! The journal's entries as the WIT types.

use crate::store::console::{Entry, Page};
use crate::wit::console::{ConsolePage, Level, Message, Source};

/// A level's name in the journal.
pub fn level_name(l: Level) -> &'static str {
    match l {
        Level::Log => "log",
        Level::Info => "info",
        Level::Warning => "warning",
        Level::Error => "error",
        Level::Debug => "debug",
    }
}

fn level(name: &str) -> Level {
    match name {
        "info" => Level::Info,
        "warning" => Level::Warning,
        "error" => Level::Error,
        "debug" => Level::Debug,
        _ => Level::Log,
    }
}

fn source(name: &str) -> Source {
    match name {
        "exception" => Source::Exception,
        "browser" => Source::Browser,
        _ => Source::Console,
    }
}

fn message(e: Entry) -> Message {
    Message {
        seq: e.seq,
        target_id: e.target_id,
        source: source(e.message.source),
        level: level(e.message.level),
        text: e.message.text,
        url: e.message.url,
        line: e.message.line,
        time_ms: e.time_ms,
    }
}

/// A journal read as the WIT page.
pub fn page(p: Page) -> ConsolePage {
    ConsolePage {
        messages: p.entries.into_iter().map(message).collect(),
        next_seq: p.next_seq,
        dropped: p.dropped,
    }
}
