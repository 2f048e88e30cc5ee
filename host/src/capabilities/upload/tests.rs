//! Unit tests of `upload`'s pure logic: the single-file check, the
//! read-back, and the command that sets the files.

use super::files::{check_count, readback, set_input_files};
use crate::error::Code;
use serde_json::json;
use std::path::PathBuf;

#[test]
fn a_single_file_input_refuses_two_files_before_anything_is_set() {
    assert!(check_count(false, 1).is_ok());
    assert!(check_count(true, 3).is_ok());
    let err = check_count(false, 2).err();
    assert_eq!(err.as_ref().map(|e| e.code), Some(Code::InvalidArgument));
    let ctx = err.and_then(|e| e.context);
    assert_eq!(
        ctx,
        Some(json!({"reason": "single_file_input", "files": 2}))
    );
}

#[test]
fn the_read_back_counts_and_names_and_tolerates_nonsense() {
    let read = readback(&json!({"count": 2, "names": ["a.txt", 7, "b.png"]}));
    assert_eq!(read.file_count, 2);
    assert_eq!(read.names, ["a.txt", "b.png"]);
    let empty = readback(&json!(null));
    assert_eq!((empty.file_count, empty.names.len()), (0, 0));
}

#[test]
fn the_files_go_out_as_the_string_call_sent_them() {
    let paths = [PathBuf::from("/s/a.txt"), PathBuf::from("/s/b.png")];
    let set = set_input_files(&paths, 42).ok();
    let sent = set.and_then(|s| serde_json::to_value(s).ok());
    assert_eq!(
        sent,
        Some(json!({"files": ["/s/a.txt", "/s/b.png"], "backendNodeId": 42}))
    );
}
