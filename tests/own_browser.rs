//! The user's own browser: a Chromium the test starts itself, the way a
//! user does (not launched by the broker, its own profile,
//! `--remote-debugging-port=0`), with a user tab open before the broker
//! attaches. Tests here run one at a time: discovery sees every browser
//! of this OS user, so two of them at once would see each other's.
#![allow(clippy::unwrap_used, clippy::expect_used)] // tests may panic

mod support;

use serde_json::{json, Value};
use std::sync::Mutex;
use support::bridge::Bridge;
use support::user_browser::UserBrowser;
use support::{find_ref, poll_for, poll_until, Env, POLL_LIMIT};

static ONE_AT_A_TIME: Mutex<()> = Mutex::new(());

fn serial() -> std::sync::MutexGuard<'static, ()> {
    ONE_AT_A_TIME.lock().unwrap_or_else(|p| p.into_inner())
}

/// The discovered candidate whose profile is `b`'s.
fn candidate_of(env: &Env, b: &UserBrowser) -> Value {
    let list = env.json(&["browsers"]);
    let profile = std::fs::canonicalize(&b.profile).unwrap();
    list["browsers"]
        .as_array()
        .unwrap()
        .iter()
        .find(|c| c["userDataDir"].as_str().map(std::path::PathBuf::from) == Some(profile.clone()))
        .cloned()
        .unwrap_or_else(|| panic!("{} not discovered: {list}", profile.display()))
}

/// The tab entry whose URL ends with `page`.
fn tab_with(tabs: &Value, page: &str) -> Value {
    tabs["tabs"]
        .as_array()
        .unwrap()
        .iter()
        .find(|t| t["url"].as_str().is_some_and(|u| u.ends_with(page)))
        .cloned()
        .unwrap_or_else(|| panic!("no tab at {page}: {tabs}"))
}

/// Poll `bp read` until it contains every one of `want`.
fn read_until(env: &Env, want: &[&str]) -> String {
    poll_for(POLL_LIMIT, &format!("the page showing {want:?}"), || {
        let text = env.json(&["read"])["text"]
            .as_str()
            .unwrap_or("")
            .to_string();
        want.iter().all(|w| text.contains(w)).then_some(text)
    })
}

const WORKERS_READY: [&str; 3] = ["dedicated: ready", "shared: ready", "service: ready"];

#[test]
fn user_browser_is_discovered_attached_and_driven() {
    let _one = serial();
    let env = Env::new();
    let user = UserBrowser::start("main", &env.url("form.html"));

    let c = candidate_of(&env, &user);
    assert_eq!(c["running"], true, "{c}");
    assert_eq!(c["debugging"]["state"], "on", "{c}");
    assert_eq!(c["debugging"]["port"], user.port, "{c}");
    assert_eq!(c["viable"], true, "{c}");
    assert_eq!(c["brokerOwned"], false, "{c}");
    // The WebSocket path is as good as the endpoint: never echoed.
    assert!(c["debugging"].get("wsPath").is_none(), "{c}");
    let doctor = env.json(&["doctor"]);
    assert_eq!(doctor["ok"], true, "{doctor}");

    // No endpoint: the one viable browser.
    let conn = env.json(&["connect"]);
    assert_eq!(conn["connection"]["browser"], c["id"], "{conn}");
    assert_eq!(conn["connection"]["launched"], false, "{conn}");

    // The form the user opened before the broker attached.
    let tabs = env.json(&["tabs"]);
    let form = tab_with(&tabs, "form.html");
    assert_eq!(form["origin"], "user_tab", "{tabs}");
    env.ok(&["tab", form["targetId"].as_str().unwrap()]);
    let obs = env.snapshot(None);
    let name = find_ref(&obs, "textbox", "Name");
    env.ok(&["type", &name, "Ada Lovelace"]);
    let obs = env.snapshot(None);
    env.ok(&["click", &find_ref(&obs, "button", "Sign in")]);
    assert!(read_until(&env, &["Signed in as Ada Lovelace"]).contains("Ada"));
    // In the user's browser too, the second observation of the form called
    // the walk agent the first one made, and both refs were read through
    // the objects kept from their observation.
    let status = env.status();
    let browser = &status["browser"];
    assert_eq!(
        browser["pageWalks"],
        json!({"bySource": 1, "byAgent": 1}),
        "{status}"
    );
    assert_eq!(browser["refsResolved"]["byHeldObject"], 2, "{status}");

    // A tab the user opens later, with workers started before any bp
    // command touched it: they run, and keep starting after attach.
    user.user_opens(&env.url("workers.html"));
    let tabs = env.json(&["tabs"]);
    let workers = tab_with(&tabs, "workers.html");
    assert_eq!(workers["origin"], "user_tab", "{tabs}");
    env.ok(&["tab", workers["targetId"].as_str().unwrap()]);
    read_until(&env, &WORKERS_READY);
    let obs = env.snapshot(None);
    env.ok(&["click", &find_ref(&obs, "button", "Ping again")]);
    read_until(
        &env,
        &["dedicated: ready 2", "shared: ready 2", "service: ready 2"],
    );

    // A managed tab: workers started after attach run too.
    let input = json!({"url": env.url("workers.html")}).to_string();
    env.ok(&["tool", "call", "browser.tabs.open", "--input", &input]);
    read_until(&env, &WORKERS_READY);

    // Disconnecting closes only bp's own tab; the user's stay. Alone, the
    // CLI takes the broker down with it.
    let out = env.json(&["disconnect"]);
    assert_eq!(out["kept"], false, "{out}");
    assert_eq!(out["brokerStopped"], true, "{out}");
    // The browser's own list may show a closed tab for a moment after
    // it is closed (seen once under load): read until it settles, bounded.
    let workers = |urls: &[String]| urls.iter().filter(|u| u.ends_with("workers.html")).count();
    let urls = poll_for(POLL_LIMIT, "the managed workers tab to close", || {
        let urls = user.page_urls();
        (workers(&urls) <= 1).then_some(urls)
    });
    assert!(urls.iter().any(|u| u.ends_with("form.html")), "{urls:?}");
    assert_eq!(
        workers(&urls),
        1,
        "the managed workers tab should be closed, the user's kept: {urls:?}"
    );
}

#[test]
fn several_browsers_refuse_endpointless_connect_until_one_is_chosen() {
    let _one = serial();
    let env = Env::new();
    let a = UserBrowser::start("a", &env.url("index.html"));
    let b = UserBrowser::start("b", &env.url("index.html"));
    let (id_a, id_b) = (
        candidate_of(&env, &a)["id"].clone(),
        candidate_of(&env, &b)["id"].clone(),
    );
    assert_ne!(id_a, id_b);

    let (code, run) = env.err(&["connect"]);
    assert_eq!(code, "invalid_argument", "{}", run.stderr());
    for id in [&id_a, &id_b] {
        assert!(
            run.stderr().contains(id.as_str().unwrap()),
            "{}",
            run.stderr()
        );
    }
    let (code, _) = env.err(&["connect", "--browser", "chromium-stable-00000000"]);
    assert_eq!(code, "browser_not_found");

    let conn = env.json(&["connect", "--browser", id_b.as_str().unwrap()]);
    assert_eq!(conn["connection"]["browser"], id_b);
    // Only the preference is written to disk.
    let pref: Value =
        serde_json::from_slice(&std::fs::read(env.home.join("preferences.json")).unwrap()).unwrap();
    assert_eq!(pref, json!({"browser": id_b}));

    // A fresh broker, no flags: the preference decides.
    env.ok(&["broker", "stop", "--force"]);
    let conn = env.json(&["connect"]);
    assert_eq!(conn["connection"]["browser"], id_b, "{conn}");
}

#[test]
fn a_fake_devtools_server_is_refused_before_any_request() {
    let _one = serial();
    let env = Env::new();
    let port = support::free_port();
    let log = env.home.join("fake.log");
    std::fs::write(&log, "").unwrap();
    let mut fake = std::process::Command::new("python3")
        .arg(support::root().join("fixtures/fake_devtools.py"))
        .arg(port.to_string())
        .arg(&log)
        .spawn()
        .unwrap();
    poll_until(POLL_LIMIT, "the fake DevTools server listening", || {
        std::net::TcpStream::connect(("127.0.0.1", port)).is_ok()
    });
    // The probe above was a bare TCP connect; the log holds HTTP requests.
    let endpoint = format!("http://127.0.0.1:{port}");
    let r = env.run(&["connect", "--endpoint", &endpoint, "--json"]);
    let _ = fake.kill();
    let _ = fake.wait();
    assert!(!r.ok(), "connected to a fake DevTools server");
    let out: Value = serde_json::from_str(r.stdout().trim()).unwrap();
    assert_eq!(out["error"]["code"], "browser_not_found", "{out}");
    assert_eq!(
        out["error"]["context"]["reason"], "endpoint_not_browser",
        "{out}"
    );
    let seen = std::fs::read_to_string(&log).unwrap();
    assert!(
        !seen.contains("upgrade=yes"),
        "a WebSocket upgrade reached it: {seen}"
    );
    assert!(
        seen.trim().is_empty(),
        "HTTP reached the fake server: {seen}"
    );
}

/// `bp connect --endpoint` to a loopback port where nothing listens is
/// `browser_not_found` with its reason, and leaves the broker unconnected.
#[test]
fn an_endpoint_where_nothing_listens_is_browser_not_found() {
    let _one = serial();
    let env = Env::new();
    let port = support::free_port();
    // The listener is closed again: the port is free.
    let endpoint = format!("http://127.0.0.1:{port}");
    let r = env.run(&["connect", "--endpoint", &endpoint, "--json"]);
    assert!(!r.ok(), "connected to nothing: {}", r.stdout());
    let out: Value = serde_json::from_str(r.stdout().trim()).unwrap();
    assert_eq!(out["error"]["code"], "browser_not_found", "{out}");
    assert_eq!(
        out["error"]["context"]["reason"], "endpoint_not_listening",
        "{out}"
    );
    assert_eq!(out["error"]["context"]["port"], port, "{out}");
    assert_eq!(r.code(), "browser_not_found", "{}", r.stderr());
    let status = env.json(&["tool", "call", "browser.status"]);
    assert_eq!(status["connection"]["state"], "disconnected", "{status}");
}

#[test]
fn sharing_one_browser_never_ends_another_clients_work() {
    let _one = serial();
    let env = Env::new();
    let user = UserBrowser::start("share", &env.url("index.html"));
    // The exact endpoint form a user types.
    env.ok(&["connect", "--endpoint", &user.endpoint()]);
    env.open("form.html");

    let mut bridge = Bridge::start(&env);
    let s = bridge.session("agent-b", 60_000);
    let opened = bridge.tool_ok(
        &s,
        "browser.tabs.open",
        json!({"url": env.url("next.html")}),
    );
    assert!(opened["targetId"].is_string(), "{opened}");

    // Neither client may end the other's work.
    assert_eq!(
        bridge.tool_code(&s, "browser.disconnect", json!({})),
        "broker_in_use"
    );
    let (code, _) = env.err(&["broker", "stop"]);
    assert_eq!(code, "broker_in_use");

    // bp disconnect releases the CLI's workspace only.
    let out = env.json(&["disconnect"]);
    assert_eq!(out["kept"], true, "{out}");
    let obs = bridge.tool_ok(&s, "browser.observe", json!({}));
    assert!(obs["observationId"].is_string(), "{obs}");
    assert!(user.page_urls().iter().any(|u| u.ends_with("next.html")));
    let (code, _) = env.err(&["broker", "stop"]);
    assert_eq!(code, "broker_in_use");
    assert_eq!(
        bridge.tool_ok(&s, "browser.status", json!({}))["connection"]["state"],
        "connected"
    );
}

#[test]
fn browser_death_and_reconnect_follow_generations() {
    let _one = serial();
    let env = Env::new();
    let mut user = UserBrowser::start("gen", &env.url("index.html"));
    let mut bridge = Bridge::start(&env);
    let s = bridge.session("agent", 120_000);
    // Bad arguments are refused before anything is touched.
    for bad in [
        json!({"launch": false}),
        json!("x"),
        json!({"endpoint": "http://10.0.0.1:9222"}),
    ] {
        assert_eq!(
            bridge.tool_code(&s, "browser.connect", bad),
            "invalid_argument"
        );
    }
    let c = bridge.tool_ok(&s, "browser.connect", json!({}));
    assert_eq!(c["connection"]["generation"], 1, "{c}");
    bridge.tool_ok(
        &s,
        "browser.tabs.open",
        json!({"url": env.url("form.html")}),
    );
    let obs = bridge.tool_ok(&s, "browser.observe", json!({}));
    let name = find_ref(&obs, "textbox", "Name");

    // Killed mid-navigation: connection.lost, and the navigation's outcome
    // is unknown.
    let nav = bridge.send_tool(
        &s,
        "browser.navigate",
        json!({"url": env.url("slow?ms=8000")}),
        json!({"commandId": "slow-nav"}),
    );
    bridge.wait_dispatched("slow-nav");
    user.kill();
    let reply = bridge.wait(nav);
    assert_eq!(
        reply["result"]["error"]["code"], "unknown_outcome",
        "{reply}"
    );
    bridge.wait_event(&s.workspace, &s.cursor, "connection.lost");

    // The broker never switches to another browser on its own.
    let other = UserBrowser::start("other", &env.url("index.html"));
    assert_eq!(
        bridge.tool_code(&s, "browser.connect", json!({})),
        "browser_not_found"
    );
    drop(other);

    // Relaunched on the same profile: a connect and a command queued right
    // behind it; the queued one belongs to generation 1 and never runs.
    user.relaunch(&env.url("index.html"));
    let connect = bridge.send_tool(&s, "browser.connect", json!({}), json!({}));
    let queued = bridge.send_tool(
        &s,
        "browser.tabs.open",
        json!({"url": env.url("next.html")}),
        json!({}),
    );
    let c = bridge.wait(connect);
    assert_eq!(c["result"]["result"]["connection"]["generation"], 2, "{c}");
    let q = bridge.wait(queued);
    assert_eq!(q["result"]["error"]["code"], "browser_disconnected", "{q}");
    assert_eq!(q["result"]["error"]["retryable"], true, "{q}");
    assert!(!user.page_urls().iter().any(|u| u.ends_with("next.html")));

    // Refs of generation 1 are stale, with the reason.
    let stale = bridge.tool(
        &s,
        "browser.click",
        json!({"observationId": obs["observationId"], "ref": name.parse::<u64>().unwrap()}),
    );
    assert_eq!(stale["error"]["code"], "stale_ref", "{stale}");
    assert_eq!(
        stale["error"]["context"]["reason"], "browser_reconnected",
        "{stale}"
    );
    // Old target IDs are gone; the inventory is rebuilt from the browser.
    let tabs = bridge.tool_ok(&s, "browser.tabs.list", json!({}));
    assert!(
        tabs["tabs"]
            .as_array()
            .unwrap()
            .iter()
            .all(|t| t["origin"] == "user_tab"),
        "{tabs}"
    );
}

#[test]
fn broker_stop_or_sigkill_closes_its_tabs_and_never_the_users() {
    let _one = serial();
    let env = Env::new();
    let user = UserBrowser::start("janitor", &env.url("form.html"));
    // An orderly stop closes the broker's own tabs too.
    env.ok(&["connect"]);
    env.open("index.html");
    assert!(user.page_urls().iter().any(|u| u.ends_with("index.html")));
    // The window bp opened names its client with a Pilot tab (BR-7).
    let pilot = |urls: &[String]| urls.iter().any(|u| u.starts_with("data:text/html"));
    assert!(pilot(&user.page_urls()), "no Pilot tab");
    env.ok(&["broker", "stop", "--force"]);
    assert!(!user.page_urls().iter().any(|u| u.ends_with("index.html")));
    // Closed as the broker stops; the browser's page list may show it a
    // moment longer (bounded).
    poll_until(POLL_LIMIT, "the Pilot tab gone with the broker", || {
        !pilot(&user.page_urls())
    });

    env.ok(&["connect"]);
    env.open("next.html");
    assert!(user.page_urls().iter().any(|u| u.ends_with("next.html")));
    let locator: Value =
        serde_json::from_slice(&std::fs::read(env.home.join("broker.json")).unwrap()).unwrap();
    let pid = locator["pid"].as_i64().unwrap() as i32;
    // SAFETY: the broker this test started.
    unsafe {
        libc::kill(pid, libc::SIGKILL);
    }
    poll_until(
        POLL_LIMIT,
        "the managed tab closed after the broker",
        || {
            let urls = user.page_urls();
            !urls.iter().any(|u| u.ends_with("next.html")) && !pilot(&urls)
        },
    );
    let urls = user.page_urls();
    assert!(
        urls.iter().any(|u| u.ends_with("form.html")),
        "user tab closed: {urls:?}"
    );
}

#[test]
fn doctor_reports_a_missing_browser_with_its_remedy() {
    let _one = serial();
    let env = Env::new();
    let empty = env.home.join("empty-home");
    std::fs::create_dir_all(&empty).unwrap();
    let out = std::process::Command::new(support::bp_exe())
        .args(["doctor", "--json"])
        .env("BROWSER_PILOT_HOME", &env.home)
        .env("HOME", &empty)
        .env("PATH", env.home.join("no-bin"))
        .output()
        .unwrap();
    assert!(!out.status.success(), "doctor passed without a browser");
    let report: Value = serde_json::from_slice(&out.stdout).unwrap();
    assert_eq!(report["ok"], false, "{report}");
    let problem = report["problems"]
        .as_array()
        .unwrap()
        .iter()
        .find(|p| p["code"] == "no_browser")
        .cloned()
        .unwrap_or_else(|| panic!("no no_browser problem: {report}"));
    assert!(
        problem["remediation"]
            .as_str()
            .unwrap()
            .contains("apt-get install chromium"),
        "{problem}"
    );
    assert!(String::from_utf8_lossy(&out.stderr).contains("error[browser_not_found]"));
}
