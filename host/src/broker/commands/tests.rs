//! The command table: records, cancellation, retention and replay.

use super::*;

fn run(c: &mut Commands, key: &str, result: Value) -> Value {
    let req = Request {
        principal: "p",
        workspace_id: "ws",
        command_id: None,
        idempotency_key: Some(key),
        tool: "browser.observe",
        deadline: None,
    };
    match c.accept(req) {
        Ok(Accepted::New { id, .. }) => c.finish("ws", &id, CmdState::Completed, Ok(result)),
        Ok(Accepted::Duplicate(reply)) => reply,
        Err(e) => panic!("{}", e.message),
    }
}

#[test]
fn a_duplicate_gets_the_recorded_reply_back() {
    let mut c = Commands::default();
    let first = run(&mut c, "k", json!({"elements": [1, 2, 3]}));
    assert_eq!(first["result"]["elements"][2], 3);
    let again = run(&mut c, "k", json!({"elements": []}));
    assert_eq!(again, first);
    let id = first["command"]["commandId"].as_str().unwrap();
    let got = c.get("p", id, Some("ws")).unwrap();
    assert_eq!(got["result"], first["result"]);
    assert_eq!(c.recorded_bytes, first.to_string().len());
}

#[test]
fn recorded_replies_beyond_the_byte_budget_go_oldest_first() {
    let mut c = Commands::default();
    let big = "x".repeat(1 << 20);
    let n = MAX_RECORDED_BYTES / big.len() + 3;
    for i in 0..n {
        run(&mut c, &format!("k{i}"), json!({"text": big}));
    }
    assert!(
        c.recorded_bytes <= MAX_RECORDED_BYTES,
        "{}",
        c.recorded_bytes
    );
    assert!(
        c.order.len() < n && c.order.len() + 5 > n,
        "{}",
        c.order.len()
    );
    // The oldest is gone (its key runs anew); the newest is kept.
    let newest = format!("k{}", n - 1);
    assert_eq!(
        run(&mut c, &newest, json!({"text": "new"}))["result"]["text"],
        big
    );
    assert_eq!(
        run(&mut c, "k0", json!({"text": "new"}))["result"]["text"],
        "new"
    );
    c.remove_workspace("ws");
    assert_eq!(c.recorded_bytes, 0);
}
