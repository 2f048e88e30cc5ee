//! Page-declared tools (WebMCP) through the broker, on real Chromium: a
//! shop page declares its actions; clients list and call them under the
//! launch policy and their grants, and the failures a page can cause
//! each get their stable code.
#![allow(clippy::unwrap_used, clippy::expect_used)] // tests may panic

mod support;

use serde_json::{json, Value};
use support::bridge::{Bridge, Session};
use support::{poll_for, Env, FixtureServer, POLL_LIMIT};

/// A broker whose policy allows every page-tool effect.
fn broker_allowing_all() -> Env {
    let mut env = Env::new();
    let policy = env.home.join("page-tools-all.toml");
    std::fs::write(&policy, "page-tools = \"all\"\n").unwrap();
    env.serve(&["--policy", policy.to_str().unwrap()]);
    env
}

/// A bridge client asking for `grants`, with its own workspace and lease.
fn client(env: &Env, name: &str, grants: &[&str]) -> (Bridge, Session) {
    let mut b = Bridge::start(env);
    let init = b.call(
        "initialize",
        json!({"client": {"name": name, "version": "1", "instanceId": name},
               "protocol": {"min": "1.0", "max": "1.1"}, "capabilities": grants}),
    );
    assert!(init.get("error").is_none(), "{init}");
    let ws = b.call("workspaces/create", json!({"label": name}));
    let workspace = ws["workspaceId"].as_str().unwrap().to_string();
    let lease = b.call(
        "leases/create",
        json!({"workspaceId": workspace, "ttlMs": 60_000}),
    );
    let s = Session {
        workspace,
        lease: lease["leaseId"].as_str().unwrap().to_string(),
        cursor: ws["eventCursor"].as_str().unwrap().to_string(),
    };
    (b, s)
}

/// Open the shop and wait until its tools are listed.
fn open_shop(env: &Env, b: &mut Bridge, s: &Session, page: &str) -> Value {
    b.tool_ok(s, "browser.tabs.open", json!({"url": env.url(page)}));
    poll_for(POLL_LIMIT, "the shop's tools", || {
        let listed = b.tool_ok(s, "browser.page_tools.list", json!({}));
        let n = listed["tools"].as_array().map_or(0, Vec::len)
            + listed["hidden"]["byPolicy"].as_u64().unwrap_or(0) as usize
            + listed["hidden"]["byGrant"].as_u64().unwrap_or(0) as usize;
        (n >= 4).then_some(listed)
    })
}

fn tool_ref(listed: &Value, name: &str) -> String {
    listed["tools"]
        .as_array()
        .unwrap()
        .iter()
        .find(|t| t["pageData"]["name"] == name)
        .unwrap_or_else(|| panic!("{name} not listed: {listed}"))["ref"]
        .as_str()
        .unwrap()
        .to_string()
}

fn page_text(b: &mut Bridge, s: &Session) -> String {
    b.tool_ok(s, "browser.read", json!({}))["text"]
        .as_str()
        .unwrap_or_default()
        .to_string()
}

#[test]
fn shop_tools_are_listed_called_and_change_the_page() {
    let env = broker_allowing_all();
    env.launch();
    let (mut b, s) = client(&env, "shopper", &["page.consequential"]);
    let listed = open_shop(&env, &mut b, &s, "page-tools.html");
    let names: Vec<&str> = listed["tools"]
        .as_array()
        .unwrap()
        .iter()
        .filter_map(|t| t["pageData"]["name"].as_str())
        .collect();
    for n in ["search_products", "add_to_cart", "place_order", "subscribe"] {
        assert!(names.contains(&n), "{n} missing: {listed}");
    }
    let form = listed["tools"]
        .as_array()
        .unwrap()
        .iter()
        .find(|t| t["pageData"]["name"] == "subscribe")
        .unwrap();
    assert_eq!(form["kind"], "declarative", "{form}");
    assert!(form["origin"]
        .as_str()
        .unwrap()
        .starts_with("http://127.0.0.1:"));

    let add = tool_ref(&listed, "add_to_cart");
    let r = b.tool_ok(
        &s,
        "browser.page_tools.call",
        json!({"ref": add, "input": {"product": "tea", "qty": 2}}),
    );
    assert_eq!(r["pageData"]["output"]["cart"]["tea"], 2, "{r}");
    assert_eq!(r["outcome"]["changed"], true, "{r}");
    assert!(r["evidence"]["signals"]
        .as_array()
        .unwrap()
        .contains(&json!("document_changed")));
    assert!(page_text(&mut b, &s).contains("Cart: tea x2"));

    // A read that changes nothing is not claimed as a change.
    let search = tool_ref(&listed, "search_products");
    let r = b.tool_ok(
        &s,
        "browser.page_tools.call",
        json!({"ref": search, "input": {"query": "co"}}),
    );
    assert_eq!(
        r["pageData"]["output"]["matches"],
        json!(["coffee", "cocoa"])
    );
    assert_eq!(r["outcome"]["changed"], Value::Null, "{r}");

    let order = tool_ref(&listed, "place_order");
    let r = b.tool_ok(
        &s,
        "browser.page_tools.call",
        json!({"ref": order, "input": {}}),
    );
    assert_eq!(r["pageData"]["output"]["orderId"], "order-1", "{r}");
    assert!(page_text(&mut b, &s).contains("Order placed: order-1"));
}

fn page_tools_hint(b: &mut Bridge, s: &Session) -> Option<Value> {
    let o = b.tool_ok(s, "browser.observe", json!({}));
    o["hints"]
        .as_array()
        .into_iter()
        .flatten()
        .find(|h| h["code"] == "page_tools")
        .cloned()
}

fn names(listed: &Value) -> Vec<String> {
    let mut n: Vec<String> = listed["tools"]
        .as_array()
        .unwrap()
        .iter()
        .map(|t| t["pageData"]["name"].as_str().unwrap().to_string())
        .collect();
    n.sort();
    n
}

fn effect_of(listed: &Value, name: &str) -> String {
    listed["tools"]
        .as_array()
        .unwrap()
        .iter()
        .find(|t| t["pageData"]["name"] == name)
        .unwrap_or_else(|| panic!("{name} not listed: {listed}"))["effect"]
        .as_str()
        .unwrap()
        .to_string()
}

/// One user tab, first held by a client with the grant, then by one
/// without: the second cannot reach the tab while the first holds it,
/// and once it holds it, neither sees nor may call `place_order`, even
/// with the ref the first was shown.
#[test]
fn a_client_without_the_grant_sees_and_calls_nothing_it_may_not() {
    let env = broker_allowing_all();
    env.launch();
    let (mut a, sa) = client(&env, "granted", &["page.consequential"]);
    let (mut b, sb) = client(&env, "no-grant", &[]);
    let tab_a = support::bridge::user_blank_tab(&mut a, &sa);
    let tab_b = support::bridge::user_blank_tab(&mut b, &sb);
    a.tool_ok(&sa, "browser.tabs.acquire", json!({"targetId": tab_a}));
    a.tool_ok(
        &sa,
        "browser.navigate",
        json!({"targetId": tab_a, "url": env.url("page-tools.html")}),
    );
    let listed = poll_for(POLL_LIMIT, "the shop's tools", || {
        let l = a.tool_ok(&sa, "browser.page_tools.list", json!({"targetId": tab_a}));
        (l["tools"].as_array().map_or(0, Vec::len) >= 4).then_some(l)
    });
    assert_eq!(
        names(&listed),
        ["add_to_cart", "place_order", "search_products", "subscribe"],
        "{listed}"
    );
    assert_eq!(effect_of(&listed, "search_products"), "read");
    assert_eq!(effect_of(&listed, "add_to_cart"), "write");
    assert_eq!(effect_of(&listed, "subscribe"), "write");
    assert_eq!(effect_of(&listed, "place_order"), "consequential");
    assert_eq!(listed["hidden"]["byGrant"], 0, "{listed}");
    let order = tool_ref(&listed, "place_order");

    // Another workspace can neither list nor call the held tab's tools.
    for (tool, args) in [
        ("browser.page_tools.list", json!({"targetId": tab_b})),
        (
            "browser.page_tools.call",
            json!({"targetId": tab_b, "ref": order, "input": {}}),
        ),
    ] {
        assert_eq!(b.tool_code(&sb, tool, args), "target_busy", "{tool}");
    }

    // Handed over, the client without the grant sees all but place_order.
    a.tool_ok(&sa, "browser.tabs.release", json!({"targetId": tab_a}));
    b.tool_ok(&sb, "browser.tabs.acquire", json!({"targetId": tab_b}));
    let listed = b.tool_ok(&sb, "browser.page_tools.list", json!({"targetId": tab_b}));
    assert_eq!(
        names(&listed),
        ["add_to_cart", "search_products", "subscribe"],
        "{listed}"
    );
    assert_eq!(listed["hidden"]["byGrant"], 1, "{listed}");
    assert_eq!(listed["hidden"]["byPolicy"], 0, "{listed}");
    let refused = b.tool(
        &sb,
        "browser.page_tools.call",
        json!({"targetId": tab_b, "ref": order, "input": {}}),
    );
    assert_eq!(refused["error"]["code"], "capability_denied", "{refused}");
    let context = &refused["error"]["context"];
    assert_eq!(context["effect"], "consequential", "{refused}");
    assert_eq!(context["reason"], "grant", "{refused}");
    assert!(!page_text(&mut b, &sb).contains("Order placed"));
}

/// The `read-only` level lists only what is marked read-only and says how
/// many it hid; the default `write` level hides only consequential tools.
#[test]
fn the_launch_level_decides_which_effects_are_listed() {
    let mut ro = Env::new();
    let policy = ro.home.join("page-tools-ro.toml");
    std::fs::write(&policy, "page-tools = \"read-only\"\n").unwrap();
    ro.serve(&["--policy", policy.to_str().unwrap()]);
    ro.launch();
    let (mut b, s) = client(&ro, "reader", &["page.consequential"]);
    let listed = open_shop(&ro, &mut b, &s, "page-tools.html");
    assert_eq!(names(&listed), ["search_products"], "{listed}");
    assert_eq!(listed["hidden"]["byPolicy"], 3, "{listed}");
    let search = tool_ref(&listed, "search_products");
    // The journal names only the tool this level shows, and counts the rest.
    let added: Vec<Value> = b
        .events(&s)
        .into_iter()
        .filter(|e| e["type"] == "page_tools.changed")
        .collect();
    let refs: Vec<Value> = added
        .iter()
        .flat_map(|e| {
            e["payload"]["addedRefs"]
                .as_array()
                .cloned()
                .unwrap_or_default()
        })
        .collect();
    assert_eq!(refs, vec![json!(search)], "{added:?}");
    let hidden: u64 = added
        .iter()
        .map(|e| e["payload"]["hidden"].as_u64().unwrap_or(0))
        .sum();
    assert!(hidden >= 3, "{added:?}");
    let r = b.tool_ok(
        &s,
        "browser.page_tools.call",
        json!({"ref": search, "input": {"query": "co"}}),
    );
    assert_eq!(
        r["pageData"]["output"]["matches"],
        json!(["coffee", "cocoa"]),
        "{r}"
    );
    // An observation says the page has tools, by effect, as counts only.
    let hint = page_tools_hint(&mut b, &s).expect("a page_tools hint");
    assert_eq!(hint["count"], 1, "{hint}");
    assert_eq!(hint["effects"]["read"], 1, "{hint}");
    assert_eq!(hint["hidden"], 3, "{hint}");
    assert!(!hint.to_string().contains("search"), "no page text: {hint}");
    b.tool_ok(&s, "browser.navigate", json!({"url": ro.url("form.html")}));
    assert_eq!(page_tools_hint(&mut b, &s), None, "a page without tools");

    let mut plain = Env::new();
    plain.serve(&[]);
    plain.launch();
    let (mut c, t) = client(&plain, "default", &["page.consequential"]);
    let listed = open_shop(&plain, &mut c, &t, "page-tools.html");
    assert_eq!(
        names(&listed),
        ["add_to_cart", "search_products", "subscribe"],
        "{listed}"
    );
    assert_eq!(listed["hidden"]["byPolicy"], 1, "{listed}");
    assert_eq!(listed["hidden"]["byGrant"], 0, "{listed}");
}

#[test]
fn bad_input_throws_and_removed_tools_get_their_codes() {
    let env = broker_allowing_all();
    env.launch();
    let (mut b, s) = client(&env, "faults", &["page.consequential"]);
    let listed = open_shop(&env, &mut b, &s, "page-tools.html?faults=1");
    let add = tool_ref(&listed, "add_to_cart");
    // A schema violation never reaches the page.
    let before = env.cdp_commands_sent();
    let code = b.tool_code(
        &s,
        "browser.page_tools.call",
        json!({"ref": add, "input": {"product": "tea", "qty": "two"}}),
    );
    assert_eq!(code, "invalid_argument");
    // The refusal names the input's place and the keyword, not the
    // page's schema (its enum of products is page text).
    let refused = b.tool(
        &s,
        "browser.page_tools.call",
        json!({"ref": add, "input": {"product": "gin", "qty": 1}}),
    );
    let message = refused["error"]["message"].as_str().unwrap_or_default();
    assert!(message.contains("/product breaks `enum`"), "{refused}");
    assert!(!message.contains("coffee"), "{refused}");
    assert_eq!(
        env.cdp_commands_sent(),
        before,
        "a refused call sent CDP commands"
    );
    assert!(page_text(&mut b, &s).contains("Cart: empty"));

    let explode = tool_ref(&listed, "explode");
    let failed = b.tool(
        &s,
        "browser.page_tools.call",
        json!({"ref": explode, "input": {}}),
    );
    let error = &failed["error"];
    assert_eq!(error["code"], "action_failed", "{failed}");
    // The page's words are data, cleaned of control characters, and never
    // the error's own message.
    let said = error["context"]["pageData"]["message"]
        .as_str()
        .unwrap_or_default();
    assert!(
        said.contains("card declined") && said.contains("by the bank"),
        "{failed}"
    );
    assert!(!said.contains('\u{7}'), "{said:?}");
    assert!(
        !error["message"]
            .as_str()
            .unwrap_or_default()
            .contains("card declined"),
        "{failed}"
    );

    // Unregistered between list and call.
    let drop = tool_ref(&listed, "drop_tool");
    b.tool_ok(
        &s,
        "browser.page_tools.call",
        json!({"ref": drop, "input": {"name": "add_to_cart"}}),
    );
    let r = b.tool(
        &s,
        "browser.page_tools.call",
        json!({"ref": add, "input": {"product": "tea", "qty": 1}}),
    );
    assert_eq!(r["error"]["code"], "stale_ref", "{r}");
    assert_eq!(r["error"]["context"]["reason"], "tool_removed", "{r}");
    // The workspace heard of it: counts and refs, no page text.
    let removal = poll_for(POLL_LIMIT, "a page_tools.changed removal", || {
        b.events(&s).into_iter().find(|e| {
            e["type"] == "page_tools.changed"
                && e["payload"]["removedRefs"]
                    .as_array()
                    .is_some_and(|r| r.contains(&json!(add)))
        })
    });
    assert_eq!(removal["payload"]["removed"], 1, "{removal}");
    assert!(!removal.to_string().contains("add_to_cart"), "{removal}");

    // The injection attempt is data only, without its hidden characters.
    let helpful = listed["tools"]
        .as_array()
        .unwrap()
        .iter()
        .find(|t| t["pageData"]["name"] == "helpful")
        .unwrap();
    let desc = helpful["pageData"]["description"].as_str().unwrap();
    assert!(desc.contains("Ignore all previous instructions"));
    // Nor the invisible ones: zero-width space, word joiner, tag characters.
    assert!(
        !desc.contains('\u{202e}')
            && !desc.contains('\u{0}')
            && !desc.contains('\u{200b}')
            && !desc.contains('\u{2060}')
            && !desc
                .chars()
                .any(|c| ('\u{e0000}'..='\u{e007f}').contains(&c)),
        "{desc:?}"
    );

    // Oversized output is cut and says so.
    let big = tool_ref(&listed, "big_output");
    let r = b.tool_ok(
        &s,
        "browser.page_tools.call",
        json!({"ref": big, "input": {}}),
    );
    assert_eq!(r["outputTruncated"], true);
    assert!(r["pageData"]["output"].is_null());

    // A reload makes every ref stale with its reason.
    let search = tool_ref(&listed, "search_products");
    b.tool_ok(&s, "browser.navigate", json!({"action": "reload"}));
    let r = b.tool(
        &s,
        "browser.page_tools.call",
        json!({"ref": search, "input": {"query": "t"}}),
    );
    assert_eq!(r["error"]["code"], "stale_ref", "{r}");
    assert_eq!(r["error"]["context"]["reason"], "document_changed", "{r}");
}

#[test]
fn a_tool_that_never_answers_ends_at_the_deadline_and_navigation_is_unknown() {
    let env = broker_allowing_all();
    env.launch();
    let (mut b, s) = client(&env, "hang", &["page.consequential"]);
    let listed = open_shop(&env, &mut b, &s, "page-tools.html?faults=1");
    let hang = tool_ref(&listed, "hang");
    let id = b.send_tool(
        &s,
        "browser.page_tools.call",
        json!({"ref": hang, "input": {}}),
        json!({"deadlineMs": 1500}),
    );
    let v = b.wait(id);
    let code = &v["result"]["error"]["code"];
    assert!(
        code == "command_expired" || code == "unknown_outcome",
        "{v}"
    );
    // Cancelled while the page holds it: the broker cancels the
    // invocation and answers at once; the tool was sent, so the outcome
    // is unknown, and says it was the cancel.
    let sent = b.send_tool(
        &s,
        "browser.page_tools.call",
        json!({"ref": hang, "input": {}}),
        json!({"commandId": "hang-cancelled", "deadlineMs": 120_000}),
    );
    b.wait_dispatched("hang-cancelled");
    let cancelled_at = std::time::Instant::now();
    let c = b.call("commands/cancel", json!({"commandId": "hang-cancelled"}));
    assert_eq!(c["command"]["cancelRequested"], true, "{c}");
    let reply = b.wait(sent)["result"].clone();
    let took = cancelled_at.elapsed();
    assert!(
        took.as_secs() < 8,
        "the cancelled call ended {took:?} after its cancel"
    );
    assert_eq!(reply["command"]["state"], "unknown_outcome", "{reply}");
    assert_eq!(
        reply["error"]["context"]["interruption"], "command_cancelled",
        "{reply}"
    );
    // The tab still works afterwards.
    let search = tool_ref(&listed, "search_products");
    b.tool_ok(
        &s,
        "browser.page_tools.call",
        json!({"ref": search, "input": {"query": "t"}}),
    );
    // A tool that opens a dialog blocks the page on it: the call ends at
    // once, saying so, instead of waiting out its deadline.
    let ask = tool_ref(&listed, "ask");
    let r = b.tool(
        &s,
        "browser.page_tools.call",
        json!({"ref": ask, "input": {}}),
    );
    assert_eq!(r["error"]["code"], "unknown_outcome", "{r}");
    assert_eq!(r["error"]["context"]["reason"], "dialog_opened", "{r}");
    let dialogs = b.tool_ok(&s, "browser.dialogs.list", json!({}));
    let dialog = dialogs["dialogs"][0]["dialogId"].clone();
    assert!(dialog.is_string(), "{dialogs}");
    b.tool_ok(
        &s,
        "browser.dialogs.respond",
        json!({"dialogId": dialog, "accept": false}),
    );
    let leave = tool_ref(&listed, "leave");
    let r = b.tool(
        &s,
        "browser.page_tools.call",
        json!({"ref": leave, "input": {}}),
    );
    assert_eq!(r["error"]["code"], "unknown_outcome", "{r}");
}

/// The one-shot CLI under the default policy: a table of what it may call,
/// a call with `--input JSON` and one with `--input -`, and bad input
/// refused with its code before anything runs.
#[test]
fn the_cli_lists_and_calls_page_tools() {
    let env = Env::new();
    env.launch();
    env.open("page-tools.html");
    let listed = poll_for(POLL_LIMIT, "the shop's tools", || {
        let l = env.json(&["page-tools"]);
        (l["tools"].as_array().map_or(0, Vec::len) >= 3).then_some(l)
    });
    let table = env.ok(&["page-tools"]);
    let header = table.lines().next().unwrap();
    assert!(
        header.starts_with("REF") && header.contains("EFFECT"),
        "{table}"
    );
    for (name, effect) in [("search_products", "read"), ("add_to_cart", "write")] {
        let row = table
            .lines()
            .find(|l| l.contains(name))
            .unwrap_or_else(|| panic!("{name} missing: {table}"));
        assert!(row.starts_with(&tool_ref(&listed, name)), "{row}");
        assert!(row.contains(effect), "{row}");
    }
    assert!(!table.contains("place_order"), "{table}");
    assert!(table.contains("hidden: 1 above"), "{table}");

    let add = tool_ref(&listed, "add_to_cart");
    let out = env.ok(&["page-tool", &add, "--input", r#"{"product":"tea","qty":2}"#]);
    assert!(out.contains("page changed: yes"), "{out}");
    assert!(env.ok(&["read"]).contains("Cart: tea x2"));

    let search = tool_ref(&listed, "search_products");
    let mut command = std::process::Command::new(support::bp_exe());
    command
        .args(["page-tool", &search, "--input", "-", "--json"])
        .env("BROWSER_PILOT_HOME", &env.home);
    let done = support::io_output_within(
        command,
        Some(br#"{"query": "coc"}"#.to_vec()),
        support::RUN_LIMIT,
    )
    .expect("bp page-tool --input - within its limit");
    assert!(done.status.success());
    let v: Value = serde_json::from_slice(&done.stdout).unwrap();
    assert_eq!(v["pageData"]["output"]["matches"], json!(["cocoa"]), "{v}");

    for input in ["[1]", "{not json", r#"{"product":"gin","qty":1}"#] {
        let (code, run) = env.err(&["page-tool", &add, "--input", input]);
        assert_eq!(code, "invalid_argument", "{input}: {}", run.stderr());
    }
    let (code, _) = env.err(&["page-tool", "pt_nope", "--input", "{}"]);
    assert_eq!(code, "stale_ref");
    assert!(
        env.ok(&["read"]).contains("Cart: tea x2"),
        "nothing else ran"
    );
}

/// The one-shot CLI asks for `page.consequential` only when told to: an
/// order needs `--allow-consequential`, even where the broker allows all.
#[test]
fn the_cli_places_an_order_only_with_allow_consequential() {
    let env = broker_allowing_all();
    env.launch();
    env.open("page-tools.html");
    let listed = poll_for(POLL_LIMIT, "the shop's tools", || {
        let l = env.json(&["page-tools"]);
        (l["tools"].as_array().map_or(0, Vec::len) >= 3).then_some(l)
    });
    assert!(
        !names(&listed).contains(&"place_order".to_string()),
        "{listed}"
    );
    assert_eq!(listed["hidden"]["byGrant"], 1, "{listed}");
    let all = env.json(&["page-tools", "--allow-consequential"]);
    let order = tool_ref(&all, "place_order");
    let (code, run) = env.err(&["page-tool", &order]);
    assert_eq!(code, "capability_denied", "{}", run.stderr());
    assert!(!env.ok(&["read"]).contains("Order placed"));
    let out = env.ok(&["page-tool", &order, "--allow-consequential"]);
    assert!(out.contains("order-1"), "{out}");
    assert!(env.ok(&["read"]).contains("Order placed: order-1"));
}

/// A tool declared in a cross-site iframe (its own renderer process) is
/// listed with that frame's origin and ID, and runs in that frame.
#[test]
fn tools_in_a_cross_origin_frame_are_listed_and_called_there() {
    let env = Env::new();
    env.launch();
    let other = FixtureServer::start();
    let (mut b, s) = client(&env, "frames", &[]);
    let url = format!("{}?x={}", env.url("page-tools-frames.html"), other.port);
    b.tool_ok(&s, "browser.tabs.open", json!({"url": url}));
    let listed = poll_for(POLL_LIMIT, "both frames' tools", || {
        let l = b.tool_ok(&s, "browser.page_tools.list", json!({}));
        (l["tools"].as_array().map_or(0, Vec::len) >= 2).then_some(l)
    });
    assert_eq!(names(&listed), ["frame_echo", "top_ping"], "{listed}");
    let tool = |name: &str| {
        listed["tools"]
            .as_array()
            .unwrap()
            .iter()
            .find(|t| t["pageData"]["name"] == name)
            .unwrap()
            .clone()
    };
    let (top, framed) = (tool("top_ping"), tool("frame_echo"));
    let cross_origin = format!("http://localhost:{}", other.port);
    assert_eq!(framed["origin"], cross_origin, "{framed}");
    assert_eq!(
        top["origin"],
        format!("http://127.0.0.1:{}", env.server.port),
        "{top}"
    );
    assert_ne!(framed["frameId"], top["frameId"]);
    let frames = b.tool_ok(&s, "browser.frames.list", json!({}));
    let cross = frames["frames"]
        .as_array()
        .unwrap()
        .iter()
        .find(|f| f["url"].as_str().unwrap_or("").starts_with(&cross_origin))
        .unwrap_or_else(|| panic!("{frames}"));
    assert_eq!(cross["frameId"], framed["frameId"], "{frames}");

    // Listing one frame gives only its tools.
    let only = b.tool_ok(
        &s,
        "browser.page_tools.list",
        json!({"frameId": framed["frameId"]}),
    );
    assert_eq!(names(&only), ["frame_echo"], "{only}");

    let r = b.tool_ok(
        &s,
        "browser.page_tools.call",
        json!({"ref": framed["ref"], "input": {"text": "hello"}}),
    );
    assert_eq!(r["pageData"]["output"]["echo"], "hello", "{r}");
    assert_eq!(r["pageData"]["output"]["origin"], cross_origin, "{r}");
    let r = b.tool_ok(
        &s,
        "browser.page_tools.call",
        json!({"ref": top["ref"], "input": {}}),
    );
    assert_eq!(r["pageData"]["output"], "pong", "{r}");
}

/// The user's own browser, started without the WebMCP features: the
/// page-tool tools, `broker/status` and `bp doctor` all say it does not
/// serve page tools, with the remediation, and nothing falls back to page
/// script.
#[test]
fn a_browser_without_webmcp_gets_the_stable_code_and_the_remedy() {
    let env = Env::new();
    let user = support::user_browser::UserBrowser::start("no-webmcp", &env.url("page-tools.html"));
    env.ok(&["connect", "--endpoint", &user.endpoint()]);
    env.open("page-tools.html");
    let (code, run) = env.err(&["page-tools", "--json"]);
    assert_eq!(code, "feature_unavailable", "{}", run.stderr());
    let v: Value = serde_json::from_str(run.stdout().trim()).unwrap();
    let context = &v["error"]["context"];
    assert_eq!(context["feature"], "WebMCP", "{v}");
    assert_eq!(context["reason"], "page_api_off", "{v}");
    assert!(
        context["remediation"]
            .as_str()
            .unwrap()
            .contains("--enable-features=WebMCP"),
        "{v}"
    );
    let status = env.json(&["broker", "status"]);
    assert_eq!(status["browser"]["pageTools"]["domain"], "off", "{status}");
    let doctor = env.json(&["doctor"]);
    let problem = doctor["problems"]
        .as_array()
        .unwrap()
        .iter()
        .find(|p| p["code"] == "page_tools_unavailable")
        .unwrap_or_else(|| panic!("{doctor}"));
    assert!(problem["remediation"].as_str().unwrap().contains("WebMCP"));
    // The page still works for everything else.
    assert!(env.ok(&["read"]).contains("Cart: empty"));
}
