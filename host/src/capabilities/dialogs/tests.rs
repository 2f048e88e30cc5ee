//! Unit tests of `dialogs`: the answer goes out as the string call sent
//! it (no `promptText` unless given).

use super::answer::answer;
use serde_json::json;

#[test]
fn the_answer_goes_out_as_the_string_call_sent_it() {
    let sent = |accept, text: Option<&str>| {
        serde_json::to_value(answer(accept, text.map(str::to_string))).ok()
    };
    assert_eq!(sent(true, None), Some(json!({"accept": true})));
    assert_eq!(
        sent(false, Some("name")),
        Some(json!({"accept": false, "promptText": "name"}))
    );
}
