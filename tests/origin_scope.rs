//! Origin scope on real Chromium: a page on one loopback origin loads an
//! image, fetches, links, redirects and opens a popup to a second loopback
//! server; with the scope set to the first origin only, the second server
//! receives no request at all, and every refusal is an event or a stable
//! code. Without a scope the same page reaches both.

#![allow(clippy::unwrap_used, clippy::expect_used)] // tests may panic

mod support;

use serde_json::{json, Value};
use std::io::{BufRead, BufReader, Write};
use std::net::{TcpListener, TcpStream};
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{Arc, Mutex};
use std::time::Duration;
use support::bridge::{Bridge, Session};
use support::mcp::Mcp;
use support::{find_ref, poll_until, Env};

/// A loopback HTTP server that counts the requests it gets. Page `/` of
/// the first server links to the second (`other`); `/go` redirects there.
struct Site {
    port: u16,
    hits: Arc<Mutex<Vec<String>>>,
    stop: Arc<AtomicBool>,
}

impl Site {
    fn start(other: Option<u16>) -> Self {
        let listener = TcpListener::bind("127.0.0.1:0").expect("bind");
        let port = listener.local_addr().expect("addr").port();
        let hits = Arc::new(Mutex::new(Vec::new()));
        let stop = Arc::new(AtomicBool::new(false));
        let (h, s) = (hits.clone(), stop.clone());
        std::thread::spawn(move || {
            for conn in listener.incoming() {
                if s.load(Ordering::SeqCst) {
                    break;
                }
                if let Ok(conn) = conn {
                    let h = h.clone();
                    std::thread::spawn(move || answer(conn, port, other, &h));
                }
            }
        });
        Self { port, hits, stop }
    }

    fn origin(&self) -> String {
        format!("http://127.0.0.1:{}", self.port)
    }

    fn hits(&self) -> Vec<String> {
        self.hits.lock().unwrap().clone()
    }
}

impl Drop for Site {
    fn drop(&mut self) {
        self.stop.store(true, Ordering::SeqCst);
        let _ = TcpStream::connect(("127.0.0.1", self.port));
    }
}

fn answer(conn: TcpStream, own: u16, other: Option<u16>, hits: &Mutex<Vec<String>>) {
    let _ = conn.set_read_timeout(Some(Duration::from_secs(5)));
    let mut reader = BufReader::new(&conn);
    let mut first = String::new();
    if reader.read_line(&mut first).is_err() || first.is_empty() {
        return;
    }
    loop {
        let mut line = String::new();
        match reader.read_line(&mut line) {
            Ok(n) if n > 2 => continue,
            _ => break,
        }
    }
    let path = first.split(' ').nth(1).unwrap_or("/").to_string();
    hits.lock().unwrap().push(path.clone());
    let (status, extra, body) = match (other, path.as_str()) {
        (Some(o), "/go") => (
            "302 Found",
            format!("Location: http://127.0.0.1:{o}/redirected\r\n"),
            String::new(),
        ),
        (Some(o), "/") => ("200 OK", String::new(), page(o, own)),
        (Some(o), "/inner") => ("200 OK", String::new(), inner(o)),
        _ => (
            "200 OK",
            String::new(),
            "<title>Other</title><p>other".into(),
        ),
    };
    let reply = format!(
        "HTTP/1.1 {status}\r\n{extra}Content-Type: text/html\r\nContent-Length: {}\r\nConnection: close\r\n\r\n{body}",
        body.len()
    );
    let mut conn = conn;
    let _ = conn.write_all(reply.as_bytes());
}

/// The page on the first origin: an image, a frame and a fetch of the
/// second, a link to it, a link that redirects to it and a popup opener.
fn page(other: u16, own: u16) -> String {
    let o = format!("http://127.0.0.1:{other}");
    format!(
        r#"<!doctype html><title>Scoped</title>
<iframe src="http://localhost:{own}/inner" title="own frame"></iframe>
<img src="{o}/image.png" alt="remote image">
<iframe src="{o}/frame" title="remote frame"></iframe>
<script>fetch("{o}/api").then(() => document.title = "fetched", () => document.title = "fetch refused");</script>
<a href="{o}/link">Out link</a>
<a href="/go">Redirect link</a>
<a href="{o}/blank" target="_blank">New window link</a>
<button onclick="window.open('{o}/popup')">Open popup</button>"#
    )
}

/// A page for an out-of-process frame (another site of the scope) that
/// reaches for the outside server itself.
fn inner(other: u16) -> String {
    format!(
        r#"<!doctype html><title>Inner</title><img src="http://127.0.0.1:{other}/inner-image.png">
<script>fetch("http://127.0.0.1:{other}/inner-api").catch(() => {{}});</script>"#
    )
}

fn session(env: &Env) -> (Bridge, Session) {
    let mut b = Bridge::start(env);
    let s = b.session("scoped", 60_000);
    (b, s)
}

fn click(b: &mut Bridge, s: &Session, role: &str, name: &str) -> Value {
    let obs = b.tool_ok(s, "browser.observe", json!({}));
    let r = find_ref(&obs, role, name).parse::<u32>().unwrap();
    b.tool(
        s,
        "browser.click",
        json!({"observationId": obs["observationId"], "ref": r}),
    )
}

fn tab_count(b: &mut Bridge, s: &Session) -> usize {
    let tabs = b.tool_ok(s, "browser.tabs.list", json!({}));
    tabs["tabs"].as_array().map_or(0, Vec::len)
}

fn blocked(b: &mut Bridge, s: &Session) -> Vec<Value> {
    b.events(s)
        .into_iter()
        .filter(|e| e["type"] == "scope.blocked")
        .map(|e| e["payload"].clone())
        .collect()
}

fn kinds(events: &[Value]) -> Vec<String> {
    events
        .iter()
        .filter_map(|e| e["kind"].as_str().map(str::to_string))
        .collect()
}

#[test]
fn a_launch_scope_keeps_every_request_of_the_tab_inside_it() {
    let outside = Site::start(None);
    let inside = Site::start(Some(outside.port));
    let mut env = Env::new();
    // Two sites of the scope: the page's, and its frame's (localhost is
    // another site, so the frame runs out of process).
    let frame_origin = format!("http://localhost:{}", inside.port);
    env.serve(&[
        "--allowed-origin",
        &inside.origin(),
        "--allowed-origin",
        &frame_origin,
    ]);
    let status = env.status();
    let scope = json!([inside.origin(), frame_origin]);
    assert_eq!(status["runtime"]["allowedOrigins"], scope, "{status}");
    env.launch();
    let (mut b, s) = session(&env);
    let tab = b.tool_ok(
        &s,
        "browser.tabs.open",
        json!({"url": inside.origin() + "/"}),
    );
    assert!(
        tab["url"].as_str().unwrap().starts_with(&inside.origin()),
        "{tab}"
    );
    // The image and the fetch were refused at the request.
    poll_until(Duration::from_secs(10), "fetch refused", || {
        b.tool_ok(&s, "browser.observe", json!({}))["title"] == "fetch refused"
    });
    // A link, a redirect and a popup out of scope.
    // Each refused navigation leaves an error page: back to the start.
    let home = json!({"url": inside.origin() + "/"});
    click(&mut b, &s, "link", "Out link");
    b.tool_ok(&s, "browser.navigate", home.clone());
    click(&mut b, &s, "link", "Redirect link");
    b.tool_ok(&s, "browser.navigate", home);
    let before = tab_count(&mut b, &s);
    click(&mut b, &s, "button", "Open popup");
    click(&mut b, &s, "link", "New window link");
    // A navigation and a new tab out of scope: refused before sending.
    for (tool, args) in [
        (
            "browser.navigate",
            json!({"url": outside.origin() + "/nav"}),
        ),
        (
            "browser.tabs.open",
            json!({"url": outside.origin() + "/tab"}),
        ),
    ] {
        let r = b.tool(&s, tool, args);
        assert_eq!(r["error"]["code"], "capability_denied", "{tool}: {r}");
        assert_eq!(r["error"]["context"]["reason"], "origin_not_allowed", "{r}");
        assert_eq!(r["error"]["context"]["origin"], outside.origin(), "{r}");
    }
    poll_until(Duration::from_secs(10), "every refusal reported", || {
        let k = kinds(&blocked(&mut b, &s));
        // Two popups: the script's window and the new-window link's.
        let popups = k.iter().filter(|got| *got == "popup").count();
        ["subresource", "navigation", "redirect", "navigate"]
            .iter()
            .all(|want| k.iter().any(|got| got == want))
            && popups == 2
    });
    let events = blocked(&mut b, &s);
    assert!(
        events.iter().all(|e| e["origin"] == outside.origin()),
        "{events:?}"
    );
    // The popup was closed: the tabs are those of before the click.
    poll_until(Duration::from_secs(10), "popup closed", || {
        tab_count(&mut b, &s) == before
    });
    let hits = inside.hits();
    assert!(hits.iter().any(|p| p == "/go"), "{hits:?}");
    assert!(
        hits.iter().any(|p| p == "/inner"),
        "the frame did not load: {hits:?}"
    );
    assert_eq!(
        outside.hits(),
        Vec::<String>::new(),
        "the outside server was reached"
    );
    // A workspace may not widen the launch list.
    let e = b.call_err(
        "workspaces/create",
        json!({"allowedOrigins": [outside.origin()]}),
    );
    assert_eq!(e["code"], "capability_denied", "{e}");
    assert_eq!(e["context"]["reason"], "scope_widened", "{e}");
}

#[test]
fn a_workspace_list_scopes_that_workspace_only() {
    let outside = Site::start(None);
    let inside = Site::start(Some(outside.port));
    let env = Env::new();
    env.launch();
    let mut b = Bridge::start(&env);
    b.initialize("scoped");
    // Bad lists change nothing.
    for bad in [
        json!(["not an origin"]),
        json!([]),
        json!("x"),
        json!(["https://a.test/path"]),
    ] {
        let e = b.call_err("workspaces/create", json!({"allowedOrigins": bad}));
        assert_eq!(e["code"], "invalid_argument", "{bad}: {e}");
    }
    let ws = b.call(
        "workspaces/create",
        json!({"allowedOrigins": [inside.origin()]}),
    );
    assert_eq!(ws["allowedOrigins"], json!([inside.origin()]), "{ws}");
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
    b.tool_ok(
        &s,
        "browser.tabs.open",
        json!({"url": inside.origin() + "/"}),
    );
    let r = b.tool(
        &s,
        "browser.navigate",
        json!({"url": outside.origin() + "/nav"}),
    );
    assert_eq!(r["error"]["context"]["reason"], "origin_not_allowed", "{r}");
    poll_until(Duration::from_secs(10), "fetch refused", || {
        b.tool_ok(&s, "browser.observe", json!({}))["title"] == "fetch refused"
    });
    assert_eq!(outside.hits(), Vec::<String>::new());
    // Another workspace (the CLI's) has no scope: the same page reaches
    // both servers, as before.
    env.ok(&["open", &(inside.origin() + "/")]);
    poll_until(Duration::from_secs(10), "unscoped fetch", || {
        outside.hits().iter().any(|p| p == "/api")
    });
    // `bp connect --allowed-origin` scopes the CLI's workspace.
    env.ok(&[
        "connect",
        "--launch",
        "--headless",
        "--allowed-origin",
        &inside.origin(),
    ]);
    let (code, run) = env.err(&["open", &(outside.origin() + "/cli")]);
    assert_eq!(code, "capability_denied", "{}", run.stderr());
    assert!(!outside.hits().iter().any(|p| p == "/cli"));
    // The network rules answer what the scope lets through, and never
    // what it refuses: the scope is judged first, in the same handler.
    let html = "Content-Type:text/html";
    let mocked = "<title>Mocked</title>";
    env.ok(&[
        "net", "mock", "*/mocked", "--body", mocked, "--header", html,
    ]);
    let api = outside.origin() + "/api";
    let cors = "Access-Control-Allow-Origin:*";
    env.ok(&["net", "mock", &api, "--body", "{}", "--header", cors]);
    let before = outside.hits().len();
    let v = env.json(&["open", &(inside.origin() + "/mocked")]);
    assert_eq!(v["title"], "Mocked", "{v}");
    env.ok(&["open", &(inside.origin() + "/")]);
    poll_until(Duration::from_secs(10), "scoped fetch refused", || {
        env.json(&["snapshot"])["title"] == "fetch refused"
    });
    assert_eq!(outside.hits().len(), before, "{:?}", outside.hits());
}

#[test]
fn a_popup_of_a_controlled_user_tab_is_held_too() {
    let outside = Site::start(None);
    let inside = Site::start(Some(outside.port));
    let mut env = Env::new();
    env.serve(&["--allowed-origin", &inside.origin()]);
    env.launch();
    let (mut b, s) = session(&env);
    // The launched browser's first tab is a user tab, not a managed one.
    let tabs = b.tool_ok(&s, "browser.tabs.list", json!({}));
    let user = tabs["tabs"]
        .as_array()
        .unwrap()
        .iter()
        .find(|t| t["origin"] == "user_tab")
        .unwrap_or_else(|| panic!("no user tab: {tabs}"))["targetId"]
        .as_str()
        .unwrap()
        .to_string();
    b.tool_ok(&s, "browser.tabs.acquire", json!({"targetId": user}));
    let home = json!({"targetId": user, "url": inside.origin() + "/"});
    b.tool_ok(&s, "browser.navigate", home);
    click(&mut b, &s, "button", "Open popup");
    poll_until(Duration::from_secs(10), "the popup refused", || {
        kinds(&blocked(&mut b, &s)).iter().any(|k| k == "popup")
    });
    let hits = outside.hits();
    assert!(!hits.iter().any(|p| p == "/popup"), "{hits:?}");
}

#[test]
fn a_bad_launch_pattern_is_refused_at_start() {
    let env = Env::new();
    let (code, run) = env.err(&["broker", "serve", "--allowed-origin", "https://*"]);
    assert_eq!(code, "invalid_argument", "{}", run.stderr());
}

#[test]
fn a_bp_mcp_session_keeps_to_its_allowed_origins() {
    let outside = Site::start(None);
    let inside = Site::start(Some(outside.port));
    let env = Env::new();
    let inside_origin = inside.origin();
    let mut mcp = Mcp::start(
        &env,
        &["--launch", "--headless", "--allowed-origin", &inside_origin],
        Vec::new(),
    );
    let opened = mcp.call("browser_tabs_open", json!({"url": inside.origin() + "/"}));
    assert!(opened["targetId"].is_string(), "{opened}");
    let refused = mcp.request(
        "tools/call",
        json!({"name": "browser_navigate", "arguments": {"url": outside.origin() + "/"}}),
    );
    assert_eq!(refused["result"]["isError"], true, "{refused}");
    assert!(
        refused.to_string().contains("origin_not_allowed"),
        "{refused}"
    );
    // The page's image, fetch and frame aimed at the outside server never
    // reached it (the observation waits for the page to have loaded).
    let obs = mcp.call("browser_observe", json!({}));
    assert!(obs["observationId"].is_string(), "{obs}");
    assert!(outside.hits().is_empty(), "{:?}", outside.hits());
}
