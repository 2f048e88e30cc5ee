//! `bp bridge --stdio`: real bridge processes, one broker, real Chromium.
#![allow(clippy::unwrap_used, clippy::expect_used)] // tests may panic

mod support;
use serde_json::{json, Value};
use support::bridge::{two_clients, user_blank_tab, Bridge, Session};
use support::{find_ref, Env};

fn tab_id(result: &Value) -> String {
    result["targetId"].as_str().expect("targetId").to_string()
}

fn unix_ms() -> u64 {
    let now = std::time::SystemTime::now().duration_since(std::time::UNIX_EPOCH);
    now.map(|d| d.as_millis() as u64).unwrap_or_default()
}

/// Wait until the wall clock (the broker's, same machine) reaches `ms`:
/// for checks about a lease's age, where the passing time is the point.
fn wait_for_clock(ms: u64) {
    support::poll_until(support::POLL_LIMIT, "the clock", || unix_ms() >= ms);
}

#[test]
fn two_clients_work_concurrently_and_cannot_cross() {
    let env = Env::new();
    env.launch();
    let (mut a, sa, mut b, sb) = two_clients(&env, 60_000);
    let ta = tab_id(&a.tool_ok(
        &sa,
        "browser.tabs.open",
        json!({"url": env.url("form.html")}),
    ));
    let tb = tab_id(&b.tool_ok(
        &sb,
        "browser.tabs.open",
        json!({"url": env.url("navigate.html")}),
    ));

    // Both observe at once, each its own tab.
    let ia = a.send_tool(&sa, "browser.observe", json!({"targetId": ta}), json!({}));
    let ib = b.send_tool(&sb, "browser.observe", json!({"targetId": tb}), json!({}));
    let oa = a.wait(ia)["result"]["result"].clone();
    let ob = b.wait(ib)["result"]["result"].clone();
    assert_eq!(oa["title"], "Sign in form", "{oa}");
    assert_eq!(ob["title"], "Navigate start", "{ob}");
    let name = find_ref(&oa, "textbox", "Name");
    let typed = a.tool_ok(&sa, "browser.type", json!({"targetId": ta, "observationId": oa["observationId"], "ref": name.parse::<u32>().unwrap(), "text": "Ada"}));
    assert_eq!(typed["evidence"]["status"], "verified");

    // Managed tabs are private to their workspace: not listed, and no
    // events about them reach another workspace.
    let list_a = a.tool_ok(&sa, "browser.tabs.list", json!({}));
    assert!(!list_a.to_string().contains("navigate.html"), "{list_a}");
    let seen_by_b = b.call(
        "events/poll",
        json!({"workspaceId": sb.workspace, "cursor": sb.cursor, "limit": 500}),
    );
    assert!(
        !seen_by_b.to_string().contains("form.html"),
        "B saw A's tab: {seen_by_b}"
    );
    let ws_b = b.call("workspaces/get", json!({"workspaceId": sb.workspace}));
    assert_eq!(ws_b["targets"].as_array().map(Vec::len), Some(1), "{ws_b}");
    // Command IDs are per client: both may use the same one, and each gets
    // its own command, run in its own workspace (not the other's record
    // replayed as a duplicate).
    for (bridge, s, own, other) in [
        (&mut a, &sa, "form.html", "navigate.html"),
        (&mut b, &sb, "navigate.html", "form.html"),
    ] {
        let id = bridge.send_tool(
            s,
            "browser.tabs.list",
            json!({}),
            json!({"commandId": "same-id"}),
        );
        let reply = bridge.wait(id);
        let envelope = &reply["result"];
        assert_eq!(envelope["command"]["state"], "completed", "{reply}");
        assert_eq!(envelope["command"]["commandId"], "same-id", "{reply}");
        assert_ne!(envelope["duplicate"], true, "{reply}");
        let listed = envelope["result"].to_string();
        assert!(listed.contains(own) && !listed.contains(other), "{reply}");
        let got = bridge.call("commands/get", json!({"commandId": "same-id"}));
        assert_eq!(got["result"], envelope["result"], "{got}");
    }
    // A notification (no id) gets no reply.
    a.send_raw(
        &json!({"jsonrpc": "2.0", "method": "commands/get", "params": {"commandId": "same-id"}})
            .to_string(),
    );
    let after = a.send(
        "events/poll",
        json!({"workspaceId": sa.workspace, "cursor": sa.cursor}),
    );
    let next = a
        .next_message(std::time::Duration::from_secs(10))
        .expect("a reply");
    assert_eq!(
        next["id"].as_u64(),
        Some(after),
        "a notification was answered: {next}"
    ); // A's refs, targets, lease and workspace are useless to B.
    let stolen = json!({"targetId": tb, "observationId": oa["observationId"], "ref": 1});
    let r = b.tool(&sb, "browser.click", stolen);
    assert_eq!(r["error"]["code"], "stale_ref", "{r}");
    assert!(
        r["error"].get("context").is_none(),
        "cross-workspace stale_ref must not explain: {r}"
    );
    assert_eq!(
        b.tool_code(&sb, "browser.observe", json!({"targetId": ta})),
        "target_not_owned"
    );
    let foreign_lease = Session {
        lease: sa.lease.clone(),
        ..sb.clone()
    };
    assert_eq!(
        b.tool_code(&foreign_lease, "browser.observe", json!({"targetId": tb})),
        "lease_expired"
    );
    let foreign_ws = b.call_err("workspaces/get", json!({"workspaceId": sa.workspace}));
    assert_eq!(foreign_ws["code"], "workspace_not_found");
    let foreign_cmd = Session {
        workspace: sa.workspace.clone(),
        ..sb.clone()
    };
    let r = b.call_err("tools/call", json!({"name": "browser.observe", "arguments": {}, "workspaceId": foreign_cmd.workspace, "leaseId": sb.lease}));
    assert_eq!(r["code"], "workspace_not_found");

    // Killing A leaves B working; A's tab is not closed by B's actions.
    a.kill();
    let ob2 = b.tool_ok(&sb, "browser.observe", json!({"targetId": tb}));
    let link = find_ref(&ob2, "link", "Go to next page");
    let clicked = b.tool_ok(&sb, "browser.click", json!({"targetId": tb, "observationId": ob2["observationId"], "ref": link.parse::<u32>().unwrap()}));
    assert!(
        clicked["evidence"]["signals"]
            .to_string()
            .contains("navigation"),
        "{clicked}"
    );
    assert_eq!(b.call("shutdown", json!({})), json!({}));
    assert!(b.exits_with_stdin_open().success());
}

#[test]
fn one_lease_controls_a_tab_until_it_expires() {
    let env = Env::new();
    env.launch();
    let (mut a, sa, mut b, sb) = two_clients(&env, 3_000);
    let user_a = user_blank_tab(&mut a, &sa);
    let user_b = user_blank_tab(&mut b, &sb);
    assert_ne!(
        user_a, user_b,
        "one tab must have a different opaque ID per workspace"
    );

    a.tool_ok(&sa, "browser.tabs.acquire", json!({"targetId": user_a}));
    let expiry = |a: &mut Bridge| {
        a.call("leases/heartbeat", json!({"leaseId": sa.lease}))["expiresAt"]
            .as_u64()
            .expect("expiresAt")
    };
    let first = expiry(&mut a);
    assert_eq!(
        b.tool_code(&sb, "browser.tabs.acquire", json!({"targetId": user_b})),
        "target_busy"
    );
    assert_eq!(
        b.tool_code(&sb, "browser.observe", json!({"targetId": user_b})),
        "target_busy"
    );
    // Heartbeats keep it: one halfway through the lease moves the expiry
    // on, so past the first expiry the tab is still A's.
    wait_for_clock(first - 1_500);
    let renewed = expiry(&mut a);
    assert!(renewed > first, "{renewed} <= {first}");
    wait_for_clock(first + 300);
    assert_eq!(
        b.tool_code(&sb, "browser.tabs.acquire", json!({"targetId": user_b})),
        "target_busy"
    );
    // Then A stops heartbeating and the lease lapses: B gets the tab, not
    // before the renewed expiry.
    let got = support::poll_for(support::POLL_LIMIT, "A's lease to lapse", || {
        let r = b.tool(&sb, "browser.tabs.acquire", json!({"targetId": user_b}));
        match r["error"]["code"].as_str() {
            Some("target_busy") => None,
            Some(_) => panic!("{r}"),
            None => Some(r["result"].clone()),
        }
    });
    assert!(unix_ms() >= renewed, "the tab was freed before {renewed}");
    assert_eq!(got["controlledByThisLease"], true, "{got}");
    assert_eq!(
        a.tool_code(&sa, "browser.observe", json!({"targetId": user_a})),
        "lease_expired"
    );
    let kinds = a.event_kinds(&sa);
    assert!(
        ["control.acquired", "lease.expired", "control.released"]
            .iter()
            .all(|k| kinds.iter().any(|got| got == k)),
        "{kinds:?}"
    );
    // Releasing B's workspace leaves the user tab open.
    b.call("workspaces/release", json!({"workspaceId": sb.workspace}));
    let sc = b.call("workspaces/create", json!({}));
    let lc = b.call("leases/create", json!({"workspaceId": sc["workspaceId"]}));
    let sc = Session {
        workspace: sc["workspaceId"].as_str().unwrap().into(),
        lease: lc["leaseId"].as_str().unwrap().into(),
        cursor: "0".into(),
    };
    user_blank_tab(&mut b, &sc);
}

#[test]
fn commands_are_idempotent_cancellable_and_ordered() {
    let env = Env::new();
    env.launch();
    let mut a = Bridge::start(&env);
    let s = a.session("agent-a", 60_000);
    let t = tab_id(&a.tool_ok(
        &s,
        "browser.tabs.open",
        json!({"url": env.url("form.html")}),
    ));

    // A slow navigation holds the tab; an observe queued behind it is
    // cancelled before dispatch; the cancel overtakes both.
    let slow = a.send_tool(
        &s,
        "browser.navigate",
        json!({"targetId": t, "url": env.url("slow?ms=1500")}),
        json!({"idempotencyKey": "nav-1"}),
    );
    let queued = a.send_tool(
        &s,
        "browser.observe",
        json!({"targetId": t}),
        json!({"commandId": "obs-queued"}),
    );
    let cancel = a.send("commands/cancel", json!({"commandId": "obs-queued"}));
    let cancelled = a.wait(cancel);
    assert_eq!(
        cancelled["result"]["command"]["state"], "cancelled",
        "{cancelled}"
    );
    let slow_reply = a.wait(slow);
    let queued_reply = a.wait(queued);
    let pos = |id: u64| a.arrivals.iter().position(|x| *x == id);
    assert!(
        pos(cancel) < pos(slow),
        "commands/cancel must overtake: {:?}",
        a.arrivals
    );
    assert_eq!(
        slow_reply["result"]["command"]["state"], "completed",
        "{slow_reply}"
    );
    assert_eq!(slow_reply["result"]["result"]["title"], "Slow page");
    assert_eq!(
        queued_reply["result"]["error"]["code"], "command_cancelled",
        "{queued_reply}"
    );
    assert_eq!(queued_reply["result"]["command"]["state"], "cancelled");

    // Retrying the completed key returns the recorded result, without
    // running again: the server saw the slow page requested once.
    let retry = a.send_tool(
        &s,
        "browser.navigate",
        json!({"targetId": t, "url": env.url("slow?ms=1500")}),
        json!({"idempotencyKey": "nav-1"}),
    );
    let retry = a.wait(retry);
    let log = a.tool_ok(&s, "browser.network.log", json!({}));
    assert_eq!(
        log.to_string().matches("slow?ms=1500").count(),
        1,
        "the retry ran again: {log}"
    );
    assert_eq!(
        retry["result"]["command"]["commandId"],
        slow_reply["result"]["command"]["commandId"]
    );
    assert_eq!(retry["result"]["result"], slow_reply["result"]["result"]);

    // A duplicate of a command still in flight reports its state and does
    // not run twice.
    let first = a.send_tool(
        &s,
        "browser.navigate",
        json!({"targetId": t, "url": env.url("slow?ms=1200")}),
        json!({"idempotencyKey": "nav-2"}),
    );
    let dup = a.send_tool(
        &s,
        "browser.navigate",
        json!({"targetId": t, "url": env.url("slow?ms=1200")}),
        json!({"idempotencyKey": "nav-2"}),
    );
    let dup = a.wait(dup);
    assert_eq!(dup["result"]["duplicate"], true, "{dup}");
    let state = dup["result"]["command"]["state"]
        .as_str()
        .unwrap()
        .to_string();
    assert!(state == "accepted" || state == "dispatched", "{dup}");
    let first = a.wait(first);
    assert_eq!(first["result"]["command"]["state"], "completed");
    let got = a.call(
        "commands/get",
        json!({"commandId": first["result"]["command"]["commandId"]}),
    );
    assert_eq!(got["command"]["state"], "completed");
    assert_eq!(got["result"]["title"], "Slow page");

    // A deadline too short for the queue expires the command unrun.
    let blocker = a.send_tool(
        &s,
        "browser.navigate",
        json!({"targetId": t, "url": env.url("slow?ms=1200")}),
        json!({}),
    );
    let late = a.send_tool(
        &s,
        "browser.observe",
        json!({"targetId": t}),
        json!({"deadlineMs": 300}),
    );
    a.wait(blocker);
    let late = a.wait(late);
    assert_eq!(late["result"]["error"]["code"], "command_expired", "{late}");
    assert_eq!(late["result"]["command"]["state"], "expired");
}

#[test]
fn events_are_polled_by_cursor_and_compaction_is_reported() {
    let env = Env::new();
    env.launch();
    let mut a = Bridge::start(&env);
    let s = a.session("agent-a", 60_000);
    let t = tab_id(&a.tool_ok(
        &s,
        "browser.tabs.open",
        json!({"url": env.url("navigate.html")}),
    ));
    let obs = a.tool_ok(&s, "browser.observe", json!({"targetId": t}));
    let link = find_ref(&obs, "link", "Go to next page")
        .parse::<u32>()
        .unwrap();
    a.tool_ok(
        &s,
        "browser.click",
        json!({"targetId": t, "observationId": obs["observationId"], "ref": link}),
    );

    let page = a.call(
        "events/poll",
        json!({"workspaceId": s.workspace, "cursor": s.cursor, "limit": 500}),
    );
    let events = page["events"].as_array().unwrap().clone();
    let kinds: Vec<&str> = events.iter().filter_map(|e| e["type"].as_str()).collect();
    for k in [
        "control.acquired",
        "navigation",
        "document.changed",
        "observation.invalidated",
        "command.status",
    ] {
        assert!(kinds.contains(&k), "{k} missing from {kinds:?}");
    }
    let seqs: Vec<u64> = events.iter().map(|e| e["seq"].as_u64().unwrap()).collect();
    assert!(seqs.windows(2).all(|w| w[1] == w[0] + 1), "{seqs:?}");
    for e in &events {
        for f in [
            "eventId",
            "seq",
            "timestamp",
            "workspaceId",
            "type",
            "payloadVersion",
            "sensitivity",
            "generation",
            "payload",
        ] {
            assert!(e.get(f).is_some(), "{f} missing in {e}");
        }
    }
    // Paging.
    let one = a.call(
        "events/poll",
        json!({"workspaceId": s.workspace, "cursor": s.cursor, "limit": 1}),
    );
    assert_eq!(one["events"].as_array().unwrap().len(), 1);
    assert_eq!(one["hasMore"], true);
    let next = a.call(
        "events/poll",
        json!({"workspaceId": s.workspace, "cursor": one["nextCursor"], "limit": 1}),
    );
    assert_eq!(next["events"][0]["seq"], seqs[1]);
    // Pushed too.
    assert!(
        a.notes
            .iter()
            .any(|n| n["method"] == "events/event" && n["params"]["type"] == "navigation"),
        "no pushed navigation event"
    );

    // Overflow the journal: the old cursor is refused, not silently skipped.
    for _ in 0..6 {
        let ids: Vec<u64> = (0..200)
            .map(|_| a.send_tool(&s, "browser.status", json!({}), json!({})))
            .collect();
        for id in ids {
            let r = a.wait(id);
            assert!(r["result"]["command"]["state"] == "completed", "{r}");
        }
    }
    let expired = a.call_err(
        "events/poll",
        json!({"workspaceId": s.workspace, "cursor": s.cursor}),
    );
    assert_eq!(expired["code"], "cursor_expired", "{expired}");
    assert!(expired["context"]["oldestCursor"].is_string(), "{expired}");
    let fresh = a.call("workspaces/get", json!({"workspaceId": s.workspace}));
    let ok = a.call(
        "events/poll",
        json!({"workspaceId": s.workspace, "cursor": fresh["eventCursor"]}),
    );
    assert_eq!(ok["events"].as_array().unwrap().len(), 0);
}

#[test]
fn negotiation_and_bad_framing() {
    let env = Env::new();
    let mut a = Bridge::start(&env);
    let early = a.call_err("tools/list", json!({}));
    assert_eq!(early["code"], "not_initialized");
    let none = a.call_err(
        "initialize",
        json!({"client": {"name": "x"}, "protocol": {"min": "2.0", "max": "2.3"}}),
    );
    assert_eq!(none["code"], "protocol_incompatible");
    assert_eq!(none["context"]["service"]["max"], "1.1");
    let init = a.call("initialize", json!({"client": {"name": "x"}, "protocol": {"min": "1.0", "max": "1.1"},
        "capabilities": ["developer.eval"], "limits": {"maxMessageBytes": 65536, "maxResultBytes": 1048576}}));
    assert_eq!(init["protocolVersion"], "1.1");
    assert_eq!(init["limits"]["maxMessageBytes"], 65536);
    // The default policy links `script`, so a requested developer.eval is granted.
    assert_eq!(init["capabilities"]["granted"], json!(["developer.eval"]));
    let tools = a.call("tools/list", json!({}));
    let observe = tools["tools"]
        .as_array()
        .unwrap()
        .iter()
        .find(|t| t["name"] == "browser.observe")
        .cloned()
        .unwrap();
    for f in [
        "inputSchema",
        "outputSchema",
        "capabilities",
        "mutates",
        "idempotency",
        "cancellation",
        "sensitivity",
    ] {
        assert!(observe.get(f).is_some(), "{f} missing: {observe}");
    }
    assert!(
        !tools.to_string().contains("cdp"),
        "raw CDP must never be listed"
    );
    let unknown = a.call_err("nope/nope", json!({}));
    assert_eq!(unknown["code"], "invalid_argument");
    // Over the negotiated message size: refused by the broker unread, with
    // its id (read before the cut), and the connection goes on. Sent with
    // a call right behind it, in one write.
    a.send_raw(&format!(
        "{{\"jsonrpc\":\"2.0\",\"id\":99,\"method\":\"tools/list\",\"params\":{{\"pad\":\"{}\"}}}}\n{}",
        "x".repeat(70_000),
        json!({"jsonrpc": "2.0", "id": 100, "method": "broker/status"})
    ));
    let refused = a.wait(99);
    assert_eq!(refused["error"]["code"], -32600, "{refused}");
    let data = &refused["error"]["data"];
    assert_eq!(data["code"], "result_too_large", "{refused}");
    assert_eq!(data["context"]["limitBytes"], 65536, "{refused}");
    assert_eq!(data["context"]["refusedBy"], "broker", "{refused}");
    let after = a.wait(100);
    assert!(after["result"]["version"].is_string(), "{after}");
    // Its id after the cut: the broker cannot know it and answers with
    // `id: null`. The bridge knows the limit in force, so it does not wait
    // for an answer by id (no `unknown_outcome` for it at the end).
    a.send_raw(&format!(
        "{{\"jsonrpc\":\"2.0\",\"method\":\"tools/list\",\"params\":{{\"pad\":\"{}\"}},\"id\":101}}",
        "x".repeat(70_000)
    ));
    let anonymous = a
        .next_message(std::time::Duration::from_secs(10))
        .expect("a refusal");
    assert_eq!(anonymous["id"], Value::Null, "{anonymous}");
    assert_eq!(anonymous["error"]["data"]["code"], "result_too_large");
    assert_eq!(a.call("tools/list", json!({}))["tools"], tools["tools"]);
    assert!(a.finish().success());
    assert!(
        a.next_message(std::time::Duration::from_millis(200))
            .is_none(),
        "nothing after the end"
    );

    // Malformed JSON: a parse error, then the bridge ends.
    let mut b = Bridge::start(&env);
    b.send_raw("this is not json");
    let parse = b
        .next_message(std::time::Duration::from_secs(10))
        .expect("a parse error");
    assert_eq!(parse["error"]["code"], -32700, "{parse}");
    b.finish();
}

/// Calls whose workspace is released right behind them still end with a
/// result or an error: a reply never carries a bare command record.
#[test]
fn calls_raced_by_their_workspace_release_still_answer() {
    let env = Env::new();
    let mut a = Bridge::start(&env);
    let s = a.session("racer", 60_000);
    // Queued one behind another, so the release (which overtakes the
    // queue) lands while some are still waiting.
    let calls: Vec<u64> = (0..40)
        .map(|_| a.send_tool(&s, "browser.status", json!({}), json!({})))
        .collect();
    let release = a.send("workspaces/release", json!({"workspaceId": s.workspace}));
    let mut states = Vec::new();
    for id in calls {
        let reply = a.wait(id);
        let envelope = &reply["result"];
        assert!(
            envelope.get("result").is_some() != envelope.get("error").is_some(),
            "neither (or both) result and error: {reply}"
        );
        let state = envelope["command"]["state"].as_str().unwrap_or_default();
        match state {
            "completed" => assert!(envelope.get("result").is_some(), "{reply}"),
            "failed" => assert!(envelope["error"]["code"].is_string(), "{reply}"),
            other => panic!("unexpected state {other:?}: {reply}"),
        }
        states.push(state.to_string());
    }
    let released = a.wait(release);
    assert_eq!(released["result"]["released"], true, "{released}");
    assert!(states.iter().any(|s| s == "failed"), "{states:?}");
    a.finish();
}

/// `initialize` can open a keyed session, so a `tools/call` written right
/// behind it (no IDs) runs in it; `require.serviceVersion` keeps requests
/// from reaching a broker of another version.
#[test]
fn initialize_opens_a_session_for_pipelined_calls() {
    let env = Env::new();
    let mut wrong = Bridge::start(&env);
    let refused = wrong.send(
        "initialize",
        json!({"client": {"name": "pipe"}, "require": {"serviceVersion": "0.0.0-other"},
               "session": {"workspaceKey": "w"}}),
    );
    let behind = wrong.send(
        "tools/call",
        json!({"name": "browser.status", "arguments": {}}),
    );
    let refused = wrong.wait(refused);
    assert_eq!(
        refused["error"]["data"]["code"], "protocol_incompatible",
        "{refused}"
    );
    let behind = wrong.wait(behind);
    assert_eq!(
        behind["error"]["data"]["code"], "not_initialized",
        "{behind}"
    );
    wrong.finish();

    let mut a = Bridge::start(&env);
    let init = a.send(
        "initialize",
        json!({"client": {"name": "pipe"}, "require": {"serviceVersion": env!("CARGO_PKG_VERSION")},
               "session": {"workspaceKey": "w", "leaseTtlMs": 30000}}),
    );
    let call = a.send(
        "tools/call",
        json!({"name": "browser.status", "arguments": {}}),
    );
    let init = a.wait(init);
    let session = &init["result"]["session"];
    let ws = session["workspaceId"]
        .as_str()
        .expect("session workspace")
        .to_string();
    assert!(
        session["leaseId"]
            .as_str()
            .is_some_and(|l| l.starts_with("lease_")),
        "{init}"
    );
    let call = a.wait(call);
    assert_eq!(call["result"]["command"]["state"], "completed", "{call}");
    // The call ran in the session's workspace: its status event is there.
    let events = a.call(
        "events/poll",
        json!({"workspaceId": ws, "cursor": session["eventCursor"]}),
    );
    assert!(
        events["events"]
            .as_array()
            .unwrap()
            .iter()
            .any(|e| e["type"] == "command.status"),
        "{events}"
    );
    // The same name and key on another connection is another client: a
    // workspace of its own. With the resume secret it is the same client,
    // and takes the workspace over.
    let mut b = Bridge::start(&env);
    let other = b.call(
        "initialize",
        json!({"client": {"name": "pipe"}, "session": {"workspaceKey": "w"}}),
    );
    assert_ne!(other["session"]["workspaceId"], ws.as_str(), "{other}");
    assert_eq!(other["session"]["resumed"], false, "{other}");
    b.finish();
    let secret = session["resumeSecret"].as_str().expect("resume secret");
    let mut b = Bridge::start(&env);
    let again = b.call(
        "initialize",
        json!({"client": {"name": "pipe"}, "session": {"workspaceKey": "w", "resumeSecret": secret}}),
    );
    assert_eq!(again["session"]["workspaceId"], ws.as_str(), "{again}");
    assert_eq!(again["session"]["resumed"], true, "{again}");
    let lost = a.call_err("workspaces/get", json!({"workspaceId": ws}));
    assert_eq!(lost["code"], "workspace_not_found", "{lost}");
    // Bad session parameters fail the whole initialize.
    let mut c = Bridge::start(&env);
    let bad = c.call_err(
        "initialize",
        json!({"client": {"name": "pipe"}, "protocol": {"min": "1.1"},
               "limits": {"maxMessageBytes": 65536}, "session": {"workspaceKey": ""}}),
    );
    assert_eq!(bad["code"], "invalid_argument", "{bad}");
    let still = c.call_err("tools/list", json!({}));
    assert_eq!(still["code"], "not_initialized", "{still}");
    // Nothing of the failed one stayed: not its lower message limit.
    let init = c.call(
        "initialize",
        json!({"client": {"name": "pipe"}, "protocol": {"min": "1.1"}}),
    );
    assert_eq!(
        init["limits"]["maxMessageBytes"],
        16 * 1024 * 1024,
        "{init}"
    );
    for bridge in [&mut a, &mut b, &mut c] {
        bridge.finish();
    }
}

/// A broker killed while a call is in flight: the bridge answers that call
/// (`unknown_outcome`, interruption `broker_exited`) and exits with an
/// error instead of silently exiting 0.
#[test]
fn a_killed_broker_leaves_no_call_unanswered() {
    let env = Env::new();
    env.launch();
    let mut a = Bridge::start(&env);
    let s = a.session("orphan", 60_000);
    a.tool_ok(&s, "browser.tabs.open", json!({}));
    let pid = a.call("broker/status", json!({}))["pid"].as_i64().unwrap() as i32;
    let slow = a.send_tool(
        &s,
        "browser.navigate",
        json!({"url": env.url("slow?ms=8000")}),
        json!({"commandId": "slow-nav"}),
    );
    // Killed once the navigation is on its way to the browser.
    a.wait_dispatched("slow-nav");
    // SAFETY: the broker this test started (its own home).
    unsafe {
        libc::kill(pid, libc::SIGKILL);
    }
    let reply = a.wait(slow);
    assert_eq!(reply["error"]["data"]["code"], "unknown_outcome", "{reply}");
    assert_eq!(
        reply["error"]["data"]["context"]["interruption"], "broker_exited",
        "{reply}"
    );
    let status = a.finish();
    assert!(
        !status.success(),
        "the bridge exited {status} after losing the broker"
    );
}

/// A cancel that arrives before its call leaves a tombstone: the late call
/// never runs, cancelling again is the same answer, and a replayed command
/// ID with another key is refused before execution.
#[test]
fn early_cancels_leave_tombstones_and_replays_are_refused() {
    let env = Env::new();
    let mut a = Bridge::start(&env);
    let s = a.session("tombs", 60_000);
    let first = a.call("commands/cancel", json!({"commandId": "late-1"}));
    assert_eq!(first["command"]["state"], "cancelled", "{first}");
    assert_eq!(first["command"]["tombstone"], true, "{first}");
    let again = a.call("commands/cancel", json!({"commandId": "late-1"}));
    assert_eq!(again, first);
    let late = a.send_tool(
        &s,
        "browser.status",
        json!({}),
        json!({"commandId": "late-1"}),
    );
    let late = a.wait(late);
    assert_eq!(late["error"]["data"]["code"], "command_cancelled", "{late}");
    // Another client's tombstone does not touch this one's IDs.
    let mut b = Bridge::start(&env);
    let t = b.session("other", 60_000);
    let other = b.tool(&t, "browser.status", json!({}));
    assert_eq!(other["command"]["state"], "completed", "{other}");
    let used = b.send_tool(
        &t,
        "browser.status",
        json!({}),
        json!({"commandId": "late-1"}),
    );
    let used = b.wait(used);
    assert_eq!(used["result"]["command"]["state"], "completed", "{used}");
    // Replay: the same command ID under another idempotency key.
    let replay = b.send_tool(
        &t,
        "browser.status",
        json!({}),
        json!({"commandId": "late-1", "idempotencyKey": "other-key"}),
    );
    let replay = b.wait(replay);
    assert_eq!(
        replay["error"]["data"]["code"], "invalid_argument",
        "{replay}"
    );
    a.finish();
    b.finish();
}

/// A second `initialize` on one connection is refused, and a tool result
/// over the negotiated size is `result_too_large`, not a cut reply.
#[test]
fn second_initialize_and_oversized_tool_results_are_refused() {
    let env = Env::new();
    env.launch();
    let mut a = Bridge::start(&env);
    a.call(
        "initialize",
        json!({"client": {"name": "small"}, "protocol": {"min": "1.0", "max": "1.1"},
               "limits": {"maxResultBytes": 65536}}),
    );
    let again = a.call_err("initialize", json!({"client": {"name": "small"}}));
    assert_eq!(again["code"], "invalid_argument", "{again}");
    assert!(
        again["message"].as_str().unwrap().contains("already"),
        "{again}"
    );
    let ws = a.call("workspaces/create", json!({}));
    let ws = ws["workspaceId"].as_str().unwrap().to_string();
    let lease = a.call("leases/create", json!({"workspaceId": ws}));
    let s = support::bridge::Session {
        workspace: ws,
        lease: lease["leaseId"].as_str().unwrap().to_string(),
        cursor: "0".into(),
    };
    a.tool_ok(
        &s,
        "browser.tabs.open",
        json!({"url": env.url("large.html")}),
    );
    // A full observation of the large page is ~430 KB: over 64 KiB.
    let id = a.send_tool(&s, "browser.observe", json!({"limit": 10000}), json!({}));
    let big = a.wait(id);
    assert_eq!(big["error"]["data"]["code"], "result_too_large", "{big}");
    // The connection is still usable.
    let small = a.tool_ok(&s, "browser.observe", json!({"limit": 5}));
    assert_eq!(small["elements"].as_array().unwrap().len(), 5, "{small}");
    a.finish();
}

/// More calls pipelined on one connection than the broker queues (256)
/// behind a slow one: the surplus is refused at once, each with an
/// answer, and the queued ones still run.
#[test]
fn calls_beyond_the_pending_limit_are_refused_not_dropped() {
    const LIMIT: usize = 256;
    let env = Env::new();
    env.launch();
    let mut a = Bridge::start(&env);
    let s = a.session("flood", 60_000);
    a.tool_ok(&s, "browser.tabs.open", json!({}));
    let slow = a.send_tool(
        &s,
        "browser.navigate",
        json!({"url": env.url("slow?ms=8000")}),
        json!({"commandId": "slow-head"}),
    );
    a.wait_dispatched("slow-head");
    let sent = LIMIT + 40;
    let calls: Vec<u64> = (0..sent)
        .map(|_| a.send_tool(&s, "browser.status", json!({}), json!({})))
        .collect();
    let (mut refused, mut completed) = (Vec::new(), 0);
    for id in &calls {
        let reply = a.wait(*id);
        let envelope = &reply["result"];
        match envelope["command"]["state"].as_str() {
            Some("completed") => completed += 1,
            Some("failed") => {
                assert_eq!(envelope["error"]["code"], "internal_error", "{reply}");
                assert!(
                    envelope["error"]["message"]
                        .as_str()
                        .is_some_and(|m| m.contains(&format!("{LIMIT} calls pending"))),
                    "{reply}"
                );
                refused.push(*id);
            }
            _ => panic!("neither completed nor refused: {reply}"),
        }
    }
    assert_eq!(completed, LIMIT, "{} refused", refused.len());
    assert_eq!(refused.len(), sent - LIMIT);
    // The refusals came back before the slow call ended, not after it.
    a.wait(slow);
    let pos = |id: u64| a.arrivals.iter().position(|x| *x == id).unwrap();
    assert!(
        refused.iter().all(|r| pos(*r) < pos(slow)),
        "{:?}",
        a.arrivals
    );
    a.finish();
}

/// Every connection is its own principal: clients with the same name, or
/// with none, never see each other's workspaces. The resume secret lets a
/// holder watch a workspace read-only, or take it over.
#[test]
fn same_named_clients_are_isolated_and_resuming_needs_the_secret() {
    let env = Env::new();
    let (mut a, mut b) = (Bridge::start(&env), Bridge::start(&env));
    a.initialize("twin");
    b.initialize("twin");
    let made = a.call("workspaces/create", json!({"key": "k"}));
    let ws = made["workspaceId"].as_str().expect("workspace").to_string();
    let secret = made["resumeSecret"].as_str().expect("secret").to_string();
    assert_eq!(secret.len(), 64, "{made}");
    // Same key on the same connection: the same workspace and secret.
    let again = a.call("workspaces/create", json!({"key": "k"}));
    assert_eq!(again, made);
    let not_found = |r: Value| assert_eq!(r["code"], "workspace_not_found", "{r}");
    not_found(b.call_err("workspaces/get", json!({"workspaceId": ws})));
    let theirs = b.call("workspaces/create", json!({"key": "k"}));
    assert_ne!(theirs["workspaceId"], ws.as_str(), "{theirs}");
    // Unnamed connections are apart too.
    let (mut c, mut d) = (Bridge::start(&env), Bridge::start(&env));
    c.call("initialize", json!({}));
    d.call("initialize", json!({}));
    let cw = c.call("workspaces/create", json!({}))["workspaceId"].clone();
    not_found(d.call_err("workspaces/get", json!({"workspaceId": cw})));
    // A wrong secret looks like an unknown workspace.
    let wrong = json!({"workspaceId": ws, "resumeSecret": "0".repeat(64)});
    not_found(b.call_err("workspaces/resume", wrong));
    let bad = b.call_err(
        "workspaces/resume",
        json!({"workspaceId": ws, "resumeSecret": secret, "observe": "yes"}),
    );
    assert_eq!(bad["code"], "invalid_argument", "{bad}");
    // Watching: reads work, nothing that changes the workspace does.
    let watch = json!({"workspaceId": ws, "resumeSecret": secret, "observe": true});
    assert_eq!(b.call("workspaces/resume", watch)["observing"], true);
    let seen = b.call("workspaces/get", json!({"workspaceId": ws}));
    assert_eq!(seen["workspaceId"], ws.as_str(), "{seen}");
    b.call("events/poll", json!({"workspaceId": ws, "cursor": "0"}));
    not_found(b.call_err("leases/create", json!({"workspaceId": ws})));
    not_found(b.call_err("workspaces/release", json!({"workspaceId": ws})));
    a.call("workspaces/get", json!({"workspaceId": ws}));
    // Taking over: the old connection loses the workspace.
    let took = b.call(
        "workspaces/resume",
        json!({"workspaceId": ws, "resumeSecret": secret}),
    );
    assert_eq!(took["resumed"], true, "{took}");
    not_found(a.call_err("workspaces/get", json!({"workspaceId": ws})));
    b.call("leases/create", json!({"workspaceId": ws}));
    for bridge in [&mut a, &mut b, &mut c, &mut d] {
        bridge.finish();
    }
}

/// How soon a cancelled running tool must end: well below the 20 s a
/// navigation waits for its load before it ends `unknown_outcome` anyway.
const CANCEL_WITHIN: std::time::Duration = std::time::Duration::from_secs(8);

/// A cancel stops a running cooperative tool at its current wait: a
/// navigation waiting for a 30 s page, a key sequence held by a page that
/// blocks on its first key, and `browser.tabs.open` waiting for its URL.
/// Each had reached the browser, so each ends `unknown_outcome` with
/// `interruption: command_cancelled`; without the stop, each would finish
/// (or hang) instead. The tab `tabs.open` made stays in the workspace.
#[test]
fn cancelling_stops_running_cooperative_tools() {
    let env = Env::new();
    env.launch();
    let mut a = Bridge::start(&env);
    let s = a.session("canceller", 60_000);
    let tools = a.call("tools/list", json!({}));
    let cancellation = |name: &str| {
        tools["tools"]
            .as_array()
            .unwrap()
            .iter()
            .find(|t| t["name"] == name)
            .map(|t| t["cancellation"].clone())
            .unwrap_or_default()
    };
    for name in ["browser.navigate", "browser.keyboard", "browser.tabs.open"] {
        assert_eq!(cancellation(name), "cooperative", "{name}");
    }
    assert_eq!(cancellation("browser.click"), "before_dispatch");
    a.tool_ok(
        &s,
        "browser.tabs.open",
        json!({"url": env.url("busy.html")}),
    );

    let cancel_running = |a: &mut Bridge, id: &str, tool: &str, args: Value| {
        let sent = a.send_tool(&s, tool, args, json!({"commandId": id}));
        a.wait_dispatched(id);
        let cancelled_at = std::time::Instant::now();
        let c = a.call("commands/cancel", json!({"commandId": id}));
        assert_eq!(c["command"]["cancelRequested"], true, "{c}");
        let reply = a.wait(sent)["result"].clone();
        // An uncancelled navigation also ends `unknown_outcome`, after its
        // 20 s load wait: only a prompt end shows the cancel stopped it.
        let took = cancelled_at.elapsed();
        assert!(took < CANCEL_WITHIN, "{id} ended {took:?} after its cancel");
        assert_eq!(
            reply["command"]["state"], "unknown_outcome",
            "{id}: {reply}"
        );
        assert_eq!(
            reply["error"]["context"]["interruption"], "command_cancelled",
            "{id}: {reply}"
        );
        reply
    };
    // The busy page's first key blocks it for 60 s.
    cancel_running(
        &mut a,
        "keys-held",
        "browser.keyboard",
        json!({"text": "abcdef"}),
    );
    a.tool_ok(
        &s,
        "browser.tabs.open",
        json!({"url": env.url("form.html")}),
    );
    cancel_running(
        &mut a,
        "nav-slow",
        "browser.navigate",
        json!({"url": env.url("slow?ms=30000")}),
    );
    let managed = |a: &mut Bridge| {
        let tabs = a.tool_ok(&s, "browser.tabs.list", json!({}));
        let all = tabs["tabs"].as_array().cloned().unwrap_or_default();
        all.iter().filter(|t| t["origin"] == "managed").count()
    };
    let before = managed(&mut a);
    cancel_running(
        &mut a,
        "open-slow",
        "browser.tabs.open",
        json!({"url": env.url("slow?ms=30000")}),
    );
    assert_eq!(
        managed(&mut a),
        before + 1,
        "the half-opened tab is the workspace's"
    );
    a.finish();
}

/// The bridge checks its own 16 MiB ceiling before relaying anything: a
/// longer line is answered by the bridge itself, with the protocol's
/// error shape and the line's id, never reaches the broker, and the relay
/// goes on. A line with no id before the cut is answered with `id: null`.
#[test]
fn a_line_over_the_bridge_ceiling_is_refused_by_the_bridge() {
    let env = Env::new();
    let mut a = Bridge::start(&env);
    a.initialize("big");
    let head = r#"{"jsonrpc":"2.0","id":900001,"method":"tools/list","params":{"pad":""#;
    a.send_raw(&format!("{head}{}\"}}}}", "x".repeat(16 * 1024 * 1024)));
    let refused = a.wait(900001);
    assert_eq!(refused["error"]["code"], -32600, "{refused}");
    let data = &refused["error"]["data"];
    assert_eq!(data["code"], "result_too_large", "{refused}");
    assert_eq!(data["context"]["refusedBy"], "bridge", "{refused}");
    assert_eq!(data["context"]["limitBytes"], 16 * 1024 * 1024, "{refused}");
    a.send_raw(&"y".repeat(17 * 1024 * 1024));
    let anonymous = a
        .next_message(std::time::Duration::from_secs(30))
        .expect("an error for the line with no id");
    assert_eq!(anonymous["id"], Value::Null, "{anonymous}");
    assert_eq!(anonymous["error"]["data"]["context"]["refusedBy"], "bridge");
    // Both were passed over whole: the next line is a request again.
    let status = a.call("broker/status", json!({}));
    assert!(status["version"].is_string(), "{status}");
    assert!(a.finish().success());
}

/// An `initialize` and the lines behind it, in one write: the bridge
/// relays the next line once the answer has come, so it knows the limit
/// the broker reads that line against. A line over it with its id after
/// the cut is answered with `id: null`, and nothing is left waiting for
/// an answer by id (no `unknown_outcome` at the end, exit status 0). An
/// `initialize` sent as a notification is not carried out.
#[test]
fn a_pipelined_initialize_sets_the_limit_the_next_line_is_read_against() {
    let env = Env::new();
    let mut a = Bridge::start(&env);
    let note = json!({"jsonrpc": "2.0", "method": "initialize", "params": {"client": {"name": "n"},
        "protocol": {"min": "1.1"}, "limits": {"maxMessageBytes": 65536}}});
    let init = json!({"jsonrpc": "2.0", "id": 1, "method": "initialize", "params": {"client": {"name": "p"},
        "protocol": {"min": "1.1"}, "limits": {"maxMessageBytes": 70000}}});
    let late_id = format!(
        "{{\"jsonrpc\":\"2.0\",\"method\":\"tools/list\",\"params\":{{\"pad\":\"{}\"}},\"id\":2}}",
        "x".repeat(70_000)
    );
    let status = json!({"jsonrpc": "2.0", "id": 3, "method": "broker/status"});
    a.send_raw(&format!("{note}\n{init}\n{late_id}\n{status}"));
    let answer = a.wait(1);
    assert_eq!(
        answer["result"]["limits"]["maxMessageBytes"], 70000,
        "the notification set nothing: {answer}"
    );
    let refused = a
        .next_message(std::time::Duration::from_secs(10))
        .expect("the refusal");
    assert_eq!(refused["id"], Value::Null, "{refused}");
    assert_eq!(refused["error"]["data"]["context"]["limitBytes"], 70000);
    assert!(a.wait(3)["result"]["version"].is_string());
    assert!(a.finish().success());
    assert!(
        a.next_message(std::time::Duration::from_millis(200))
            .is_none(),
        "nothing after the end"
    );
}
