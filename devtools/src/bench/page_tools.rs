//! `bp bench`, page-declared tools: the latency of a trivial page tool
//! (`search_products` on the shop fixture) called through the bridge,
//! against the same tool invoked by a plain DevTools client on its own
//! tab of the same browser (`WebMCP.invokeTool`, then its
//! `WebMCP.toolResponded`), taking turns; and the bytes an agent reads and
//! writes to finish the shop's checkout with the page's tools against
//! clicking through the same page. It runs its own broker, whose policy
//! allows every page-tool effect, in a home of its own.

use super::{bp, exe, find_ref_number, median, ms, BridgeClient};
use browser_pilot_host::cdp::endpoint::Endpoint;
use browser_pilot_host::cdp::{webmcp, Cdp};
use browser_pilot_host::{BpError, BpResult};
use serde_json::{json, Value};
use std::path::Path;
use std::process::{Child, Command, Stdio};
use std::sync::Arc;
use std::time::{Duration, Instant};

/// The broker of this section, stopped (and its browser with it) on drop.
struct OwnBroker {
    child: Child,
    home: std::path::PathBuf,
}

impl Drop for OwnBroker {
    fn drop(&mut self) {
        let _ = bp(&self.home, &["broker", "stop", "--force"]);
        let _ = self.child.kill();
        let _ = self.child.wait();
        let _ = std::fs::remove_dir_all(&self.home);
    }
}

fn start_broker(parent: &Path) -> BpResult<OwnBroker> {
    let home = parent.join("page-tools");
    std::fs::create_dir_all(&home).map_err(|e| BpError::internal(e.to_string()))?;
    let policy = home.join("policy.toml");
    std::fs::write(&policy, "page-tools = \"all\"\n")
        .map_err(|e| BpError::internal(e.to_string()))?;
    let child = Command::new(exe())
        .args(["broker", "serve", "--policy"])
        .arg(&policy)
        .env("BROWSER_PILOT_HOME", &home)
        .stdout(Stdio::null())
        .stderr(Stdio::null())
        .spawn()
        .map_err(|e| BpError::internal(format!("bp broker serve: {e}")))?;
    let broker = OwnBroker { child, home };
    let until = Instant::now() + Duration::from_secs(30);
    while bp(&broker.home, &["broker", "status"]).is_err() {
        if Instant::now() > until {
            return Err(BpError::internal(
                "the page-tools bench broker did not start",
            ));
        }
        std::thread::sleep(Duration::from_millis(50));
    }
    Ok(broker)
}

pub(super) async fn run(parent: &Path, base: &str, iterations: usize) -> BpResult<()> {
    let broker = start_broker(parent)?;
    let home = broker.home.clone();
    let (_, connected) = bp(&home, &["connect", "--launch", "--headless"])?;
    let endpoint = connected["connection"]["endpoint"]
        .as_str()
        .ok_or_else(|| BpError::internal("connect named no endpoint"))?
        .to_string();
    let shop = format!("{base}page-tools.html");
    let (mut b, ws, lease) =
        BridgeClient::session_with(&home, "bench-page-tools", &["page.consequential"])?;
    b.tool(&ws, &lease, "browser.tabs.open", json!({"url": shop}))?;
    let search = tool_ref(&mut b, &ws, &lease, "search_products")?;
    let floor = FloorShop::open(&endpoint, &shop).await?;

    let args = json!({"ref": search, "input": {"query": "te"}});
    let unknown = json!({"ref": "pt_unknown", "input": {"query": "te"}});
    let refused = json!({"ref": search, "input": {"query": ""}});
    let (mut bridge, mut direct) = (Vec::new(), Vec::new());
    let (mut unknown_ms, mut refused_ms) = (Vec::new(), Vec::new());
    for i in 0..iterations.max(1) * 4 {
        // Taking turns, each going first every other round.
        for side in [i % 2, (i + 1) % 2] {
            let t = Instant::now();
            if side == 0 {
                let r = b.tool(&ws, &lease, "browser.page_tools.call", args.clone())?;
                if r["pageData"]["output"]["matches"] != json!(["tea"]) {
                    return Err(BpError::internal(format!("search_products answered {r}")));
                }
                bridge.push(ms(t.elapsed()));
            } else {
                floor
                    .invoke("search_products", json!({"query": "te"}))
                    .await?;
                direct.push(ms(t.elapsed()));
            }
        }
        // The call's parts: refused at the host's lookup, and by the schema.
        unknown_ms.push(refused_call(&mut b, &ws, &lease, &unknown, "stale_ref")?);
        refused_ms.push(refused_call(
            &mut b,
            &ws,
            &lease,
            &refused,
            "invalid_argument",
        )?);
    }
    let (through, bare) = (median(&mut bridge), median(&mut direct));
    println!(
        "page tools: a trivial page tool (search_products on page-tools.html), x{} (medians, ms)",
        bridge.len()
    );
    println!(
        "{:<28} {:>9.2}\n{:<28} {:>9.2}\n{:<28} {:>9.2}\n{:<28} {:>9.2}\n{:<28} {:>9.2}\n{:<28} {:>8.2}x",
        "unknown ref (refused)",
        median(&mut unknown_ms),
        "schema refusal",
        median(&mut refused_ms),
        "through the bridge",
        through,
        "bare invokeTool+responded",
        bare,
        "call's own share",
        through - bare,
        "bridge / bare",
        through / bare
    );

    let (tools_bytes, tools_calls) = checkout_with_tools(&mut b, &ws, &lease, &shop)?;
    let (click_bytes, click_calls) = checkout_by_clicking(&mut b, &ws, &lease, &shop)?;
    println!("shop checkout (add tea, place the order), bytes an agent sends and reads (tokens ~ bytes/4):");
    println!(
        "{:<28} {:>6} calls {:>7} bytes ~{:>6} tokens\n{:<28} {:>6} calls {:>7} bytes ~{:>6} tokens",
        "with the page's tools", tools_calls, tools_bytes, tools_bytes / 4,
        "clicking through the page", click_calls, click_bytes, click_bytes / 4
    );
    drop(b);
    drop(broker);
    Ok(())
}

/// Time one `browser.page_tools.call` that must fail with `code`.
fn refused_call(
    b: &mut BridgeClient,
    ws: &str,
    lease: &str,
    args: &Value,
    code: &str,
) -> BpResult<f64> {
    let t = Instant::now();
    match b.tool(ws, lease, "browser.page_tools.call", args.clone()) {
        Err(e) if e.to_string().contains(code) => Ok(ms(t.elapsed())),
        other => Err(BpError::internal(format!(
            "a call expected to fail with {code} gave {other:?}"
        ))),
    }
}

/// The ref of the shop tool `name` on the session's current tab.
fn tool_ref(b: &mut BridgeClient, ws: &str, lease: &str, name: &str) -> BpResult<String> {
    let until = Instant::now() + Duration::from_secs(10);
    loop {
        let listed = b.tool(ws, lease, "browser.page_tools.list", json!({}))?;
        let found = listed["tools"]
            .as_array()
            .into_iter()
            .flatten()
            .find(|t| t["pageData"]["name"] == name)
            .and_then(|t| t["ref"].as_str())
            .map(str::to_string);
        if let Some(r) = found {
            return Ok(r);
        }
        if Instant::now() > until {
            return Err(BpError::internal(format!(
                "the shop declared no {name}: {listed}"
            )));
        }
        std::thread::sleep(Duration::from_millis(50));
    }
}

/// Calls an agent makes, and the bytes of their arguments and results.
struct Tally {
    bytes: usize,
    calls: usize,
}

impl Tally {
    fn call(
        &mut self,
        b: &mut BridgeClient,
        ws: &str,
        lease: &str,
        name: &str,
        args: Value,
    ) -> BpResult<Value> {
        let r = b.tool(ws, lease, name, args.clone())?;
        self.bytes += name.len() + args.to_string().len() + r.to_string().len();
        self.calls += 1;
        Ok(r)
    }
}

fn checkout_with_tools(
    b: &mut BridgeClient,
    ws: &str,
    lease: &str,
    shop: &str,
) -> BpResult<(usize, usize)> {
    b.tool(ws, lease, "browser.navigate", json!({"url": shop}))?;
    tool_ref(b, ws, lease, "place_order")?;
    let mut t = Tally { bytes: 0, calls: 0 };
    let listed = t.call(b, ws, lease, "browser.page_tools.list", json!({}))?;
    let named = |name: &str| {
        listed["tools"]
            .as_array()
            .into_iter()
            .flatten()
            .find(|x| x["pageData"]["name"] == name)
            .map(|x| x["ref"].clone())
            .ok_or_else(|| BpError::internal(format!("no {name} listed")))
    };
    let (add, order) = (named("add_to_cart")?, named("place_order")?);
    t.call(
        b,
        ws,
        lease,
        "browser.page_tools.call",
        json!({"ref": add, "input": {"product": "tea", "qty": 1}}),
    )?;
    let placed = t.call(
        b,
        ws,
        lease,
        "browser.page_tools.call",
        json!({"ref": order, "input": {}}),
    )?;
    if placed["pageData"]["output"]["orderId"].as_str().is_none() {
        return Err(BpError::internal(format!("place_order answered {placed}")));
    }
    Ok((t.bytes, t.calls))
}

fn checkout_by_clicking(
    b: &mut BridgeClient,
    ws: &str,
    lease: &str,
    shop: &str,
) -> BpResult<(usize, usize)> {
    b.tool(ws, lease, "browser.navigate", json!({"url": shop}))?;
    let mut t = Tally { bytes: 0, calls: 0 };
    let obs = t.call(b, ws, lease, "browser.observe", json!({}))?;
    let oid = obs["observationId"].clone();
    for button in ["Add tea", "Place order"] {
        let r = find_ref_number(&obs, "button", button)?;
        t.call(
            b,
            ws,
            lease,
            "browser.click",
            json!({"observationId": oid, "ref": r}),
        )?;
    }
    let read = t.call(b, ws, lease, "browser.read", json!({}))?;
    if !read["text"].as_str().unwrap_or("").contains("Order placed") {
        return Err(BpError::internal(format!(
            "clicking placed no order: {read}"
        )));
    }
    Ok((t.bytes, t.calls))
}

/// The shop on a tab of a plain DevTools connection to the same browser.
struct FloorShop {
    cdp: Cdp,
    session: String,
    frame: String,
}

impl FloorShop {
    async fn open(endpoint: &str, url: &str) -> BpResult<Self> {
        let ws = Endpoint::parse(&format!("http://{endpoint}"))?
            .websocket_url()
            .await?;
        let cdp = Cdp::connect(&ws, Arc::new(|_| {})).await?;
        let target = super::cdp::create_target(&cdp, url).await?;
        let session = super::floor::attach(&cdp, &target).await?;
        let mut events = cdp.subscribe();
        cdp.send(&webmcp::EnableParams {}, Some(&session)).await?;
        let until = tokio::time::Instant::now() + Duration::from_secs(10);
        loop {
            let ev = tokio::time::timeout_at(until, events.recv())
                .await
                .map_err(|_| BpError::internal("the floor's tab declared no tools"))?
                .map_err(|e| BpError::internal(e.to_string()))?;
            if !ev.is::<webmcp::EventToolsAdded>() || ev.session_id.as_deref() != Some(&session) {
                continue;
            }
            let frame = ev.params["tools"]
                .as_array()
                .into_iter()
                .flatten()
                .find(|t| t["name"] == "search_products")
                .and_then(|t| t["frameId"].as_str());
            if let Some(frame) = frame {
                return Ok(Self {
                    frame: frame.to_string(),
                    cdp,
                    session,
                });
            }
        }
    }

    /// `WebMCP.invokeTool`, then the `toolResponded` of that invocation.
    async fn invoke(&self, name: &str, input: Value) -> BpResult<()> {
        let mut events = self.cdp.subscribe();
        let invoke = webmcp::InvokeToolParams {
            tool_name: name.to_string(),
            frame_id: self.frame.clone(),
            input,
        };
        let id = self
            .cdp
            .send(&invoke, Some(&self.session))
            .await?
            .invocation_id;
        loop {
            let ev = events
                .recv()
                .await
                .map_err(|e| BpError::internal(e.to_string()))?;
            let responded = ev.parse::<webmcp::EventToolResponded>();
            if responded.is_some_and(|r| r.invocation_id == id) {
                return match ev.params["status"].as_str() {
                    Some("Completed") => Ok(()),
                    s => Err(BpError::internal(format!("the floor's {name} ended {s:?}"))),
                };
            }
        }
    }
}
