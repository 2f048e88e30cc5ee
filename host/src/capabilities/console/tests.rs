//! Unit tests: levels and entries cross the interface unchanged.

use super::convert::{level_name, page};
use crate::store::console::{Console, Message, LEVELS};
use crate::wit::console::{Level, Source};

#[test]
fn levels_and_entries_cross_unchanged() {
    let all = [
        Level::Log,
        Level::Info,
        Level::Warning,
        Level::Error,
        Level::Debug,
    ];
    assert_eq!(all.map(level_name), LEVELS);
    let c = Console::default();
    c.record(
        "ws",
        "R",
        "t1",
        Message {
            source: "exception",
            level: "error",
            text: "Error: boom".into(),
            url: Some("http://h/p".into()),
            line: Some(7),
        },
    );
    let p = page(c.read("ws", 0, &[], 10));
    let m = &p.messages[0];
    assert_eq!((m.seq, m.target_id.as_str(), m.line), (1, "t1", Some(7)));
    assert!(matches!(m.source, Source::Exception));
    assert!(matches!(m.level, Level::Error));
    assert_eq!(p.next_seq, 1);
}
