//! The form workflow (navigate, observe, type, click, observe) through the
//! one-shot CLI, one persistent bridge connection, and raw CDP calls (the
//! floor, plain and checking as bp does), taking turns one iteration each
//! so that a drift in the machine's speed weighs on all of them alike.

use crate::bench::{bp, find_ref, ms, raw_tab, BridgeClient, STEPS};
use browser_pilot_host::cdp::launch::LaunchedBrowser;
use browser_pilot_host::cdp::Cdp;
use browser_pilot_host::{BpError, BpResult};
use serde_json::{json, Value};
use std::path::Path;
use std::time::Instant;

/// How long the floor waits for one reply.
const REPLY_TIMEOUT: std::time::Duration = std::time::Duration::from_secs(30);

/// Per step, the times of one client.
pub(crate) type Times = Vec<Vec<f64>>;

/// The times of each client.
pub(crate) struct Rounds {
    pub one_shot: Times,
    pub bridge: Times,
    pub floor: Times,
    /// The floor's workflow again, checking as `browser.type` and
    /// `browser.click` do (focus after each step, the value read back;
    /// the pointer moved before the press, the page read after).
    pub floor_careful: Times,
}

/// Run `iterations` rounds of the clients in turn (one-shot, bridge, the
/// plain floor, the careful floor).
pub(crate) async fn interleaved(home: &Path, url: &str, iterations: usize) -> BpResult<Rounds> {
    let (mut b, ws, lease) = BridgeClient::session(home, "bench")?;
    b.tool(&ws, &lease, "browser.tabs.open", json!({}))?;
    let floor = Floor::start(home).await?;
    let mut cli: Times = vec![Vec::new(); STEPS.len()];
    let mut bridge: Times = vec![Vec::new(); STEPS.len()];
    let mut direct: Times = vec![Vec::new(); STEPS.len()];
    let mut moving: Times = vec![Vec::new(); STEPS.len()];
    for _ in 0..iterations {
        one_shot(home, url, &mut cli)?;
        over_bridge(&mut b, &ws, &lease, url, &mut bridge)?;
        floor.iteration(url, &mut direct, false).await?;
        floor.iteration(url, &mut moving, true).await?;
    }
    Ok(Rounds {
        one_shot: cli,
        bridge,
        floor: direct,
        floor_careful: moving,
    })
}

/// One round through the one-shot CLI: a process per step.
fn one_shot(home: &Path, url: &str, out: &mut Times) -> BpResult<()> {
    let (t, _) = bp(home, &["open", url])?;
    out[0].push(ms(t));
    let (t, obs) = bp(home, &["snapshot"])?;
    out[1].push(ms(t));
    let name_ref = find_ref(&obs, "textbox", "Name")?;
    let button_ref = find_ref(&obs, "button", "Sign in")?;
    let (t, _) = bp(home, &["type", &name_ref, "Ada", "--clear"])?;
    out[2].push(ms(t));
    let (t, _) = bp(home, &["click", &button_ref])?;
    out[3].push(ms(t));
    let (t, _) = bp(home, &["snapshot"])?;
    out[4].push(ms(t));
    Ok(())
}

/// One round through the persistent bridge connection.
fn over_bridge(
    b: &mut BridgeClient,
    ws: &str,
    lease: &str,
    url: &str,
    out: &mut Times,
) -> BpResult<()> {
    let t = Instant::now();
    b.tool(ws, lease, "browser.navigate", json!({"url": url}))?;
    out[0].push(ms(t.elapsed()));
    let t = Instant::now();
    let obs = b.tool(ws, lease, "browser.observe", json!({}))?;
    out[1].push(ms(t.elapsed()));
    let name: u64 = find_ref(&obs, "textbox", "Name")?.parse().unwrap_or(0);
    let button: u64 = find_ref(&obs, "button", "Sign in")?.parse().unwrap_or(0);
    let id = obs["observationId"].clone();
    let t = Instant::now();
    b.tool(
        ws,
        lease,
        "browser.type",
        json!({"observationId": id, "ref": name, "text": "Ada", "clear": true}),
    )?;
    out[2].push(ms(t.elapsed()));
    let t = Instant::now();
    b.tool(
        ws,
        lease,
        "browser.click",
        json!({"observationId": id, "ref": button}),
    )?;
    out[3].push(ms(t.elapsed()));
    let t = Instant::now();
    b.tool(ws, lease, "browser.observe", json!({}))?;
    out[4].push(ms(t.elapsed()));
    Ok(())
}

/// The floor: the same steps with raw CDP calls in a browser of the
/// bench's own, no broker and no process per step.
struct Floor {
    _browser: LaunchedBrowser,
    cdp: Cdp,
    session: String,
}

impl Floor {
    async fn start(home: &Path) -> BpResult<Self> {
        let (browser, cdp, session) = raw_tab(home, "direct-profiles", "about:blank").await?;
        cdp.call("Page.enable", Some(&session), json!({})).await?;
        Ok(Self {
            _browser: browser,
            cdp,
            session,
        })
    }

    async fn iteration(&self, url: &str, out: &mut Times, careful: bool) -> BpResult<()> {
        let (cdp, s) = (&self.cdp, Some(self.session.as_str()));
        let mut events = cdp.subscribe();
        let t = Instant::now();
        cdp.call("Page.navigate", s, json!({"url": url})).await?;
        while let Ok(ev) = events.recv().await {
            if ev.method == "Page.loadEventFired" && ev.session_id.as_deref() == s {
                break;
            }
        }
        out[0].push(ms(t.elapsed()));
        let t = Instant::now();
        let tree = cdp
            .call("Accessibility.getFullAXTree", s, json!({}))
            .await?;
        out[1].push(ms(t.elapsed()));
        let button = ax_node(&tree, "button", "Sign in")?;
        let t = Instant::now();
        // As `bp type --clear` types into a text field: one page call
        // focuses it and selects what it holds (careful: and says whether
        // focus landed there), then the text replaces it (careful: the
        // value read back right behind it).
        let focus = json!({"expression": "(e => { e.focus(); e.select(); \
            return document.activeElement === e; })(document.getElementById('name'))",
            "returnByValue": true});
        cdp.call("Runtime.evaluate", s, focus).await?;
        let value =
            json!({"expression": "document.getElementById('name').value", "returnByValue": true});
        let check = careful.then(|| value.clone());
        self.input_then_read("Input.insertText", json!({"text": "Ada"}), check)
            .await?;
        out[2].push(ms(t.elapsed()));
        let t = Instant::now();
        self.click(button, careful).await?;
        out[3].push(ms(t.elapsed()));
        let t = Instant::now();
        cdp.call("Accessibility.getFullAXTree", s, json!({}))
            .await?;
        out[4].push(ms(t.elapsed()));
        Ok(())
    }

    /// Send an input and, when given, a `Runtime.evaluate` right behind
    /// it; wait for both.
    async fn input_then_read(
        &self,
        method: &str,
        params: Value,
        read: Option<Value>,
    ) -> BpResult<()> {
        let (cdp, s) = (&self.cdp, Some(self.session.as_str()));
        let input = cdp.send_now(method, s, params)?;
        let read = read
            .map(|r| cdp.send_now("Runtime.evaluate", s, r))
            .transpose()?;
        Cdp::reply(method, input, REPLY_TIMEOUT).await?;
        if let Some(read) = read {
            Cdp::reply("Runtime.evaluate", read, REPLY_TIMEOUT).await?;
        }
        Ok(())
    }

    /// Scroll the node into view and press and release at its centre
    /// (`careful`: moving the pointer there first, and reading the page
    /// after).
    async fn click(&self, node: i64, careful: bool) -> BpResult<()> {
        let (cdp, s) = (&self.cdp, Some(self.session.as_str()));
        cdp.call(
            "DOM.scrollIntoViewIfNeeded",
            s,
            json!({"backendNodeId": node}),
        )
        .await?;
        let quads = cdp
            .call("DOM.getContentQuads", s, json!({"backendNodeId": node}))
            .await?;
        let q: Vec<f64> = quads["quads"][0]
            .as_array()
            .into_iter()
            .flatten()
            .filter_map(Value::as_f64)
            .collect();
        let (Some(x0), Some(y0), Some(x2), Some(y2)) = (q.first(), q.get(1), q.get(4), q.get(5))
        else {
            return Err(BpError::internal("the button has no box"));
        };
        let (x, y) = ((x0 + x2) / 2.0, (y0 + y2) / 2.0);
        if careful {
            // Sent with the press, as `browser.click` does.
            let _moved = cdp.send_now(
                "Input.dispatchMouseEvent",
                s,
                json!({"type": "mouseMoved", "x": x, "y": y}),
            )?;
        }
        let ev =
            |kind: &str| json!({"type": kind, "x": x, "y": y, "button": "left", "clickCount": 1});
        cdp.call("Input.dispatchMouseEvent", s, ev("mousePressed"))
            .await?;
        // Careful: the page is read right behind the release.
        let page = careful.then(
            || json!({"expression": "[location.href, document.title]", "returnByValue": true}),
        );
        self.input_then_read("Input.dispatchMouseEvent", ev("mouseReleased"), page)
            .await
    }
}

/// The backend node of the first accessibility node with `role` and `name`.
fn ax_node(tree: &Value, role: &str, name: &str) -> BpResult<i64> {
    tree["nodes"]
        .as_array()
        .into_iter()
        .flatten()
        .find(|n| n["role"]["value"] == role && n["name"]["value"] == name)
        .and_then(|n| n["backendDOMNodeId"].as_i64())
        .ok_or_else(|| BpError::internal(format!("no {role} {name}")))
}
