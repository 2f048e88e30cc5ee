//! The interaction tools (issue 55) against a raw-CDP floor on the same
//! tab, the bridge and the floor taking turns call by call: choosing an
//! option of a native select, a wait for text already on the page, a
//! scroll of the page by 100 px, and a hover that opens a menu. Each
//! floor does the least the tool must: the same change, and one read of
//! what it changed. What bp adds beyond that (the ready wait, the
//! read-back's bounded waits for lazy content or a menu, evidence) is the
//! difference.

use super::floor::FloorTab;
use super::steady::{taking_turns, SteadyStep};
use super::{find_ref_number, BridgeClient};
use browser_pilot_host::BpResult;
use chromiumoxide::cdp::browser_protocol::input::DispatchMouseEventType;
use serde_json::{json, Value};

/// Calls each way per tool (the scroll's and the hover's read-backs wait
/// up to a few hundred ms, so fewer than the workflow's steps).
const PAIRS: usize = 40;

/// Each tool on its fixture page, over the bridge and by the floor.
pub(crate) async fn run(
    b: &mut BridgeClient,
    (ws, lease): (&str, &str),
    floor: FloorTab<'_>,
    base: &str,
) -> BpResult<Vec<SteadyStep>> {
    let mut steps = Vec::new();
    let go = |b: &mut BridgeClient, page: &str| -> BpResult<Value> {
        b.tool(
            ws,
            lease,
            "browser.navigate",
            json!({"url": format!("{base}{page}")}),
        )?;
        b.tool(ws, lease, "browser.observe", json!({}))
    };

    // select: a native option chosen by its label, alternating two.
    let seen = go(b, "select.html")?;
    let country = find_ref_number(&seen, "combobox", "Country")?;
    let labels = ["Portugal", "Spain"];
    let obs = seen["observationId"].clone();
    let times = taking_turns(
        PAIRS,
        |k| {
            let args = json!({"observationId": obs, "ref": country, "labels": [labels[k % 2]]});
            b.tool(ws, lease, "browser.select", args).map(drop)
        },
        async |k| {
            let set = format!(
                "(s => {{ s.focus(); s.value = {:?}; \
                 s.dispatchEvent(new Event('input', {{bubbles: true}})); \
                 s.dispatchEvent(new Event('change', {{bubbles: true}})); \
                 return s.selectedOptions[0].label; }})(document.getElementById('country'))",
                ["es", "pt"][k % 2]
            );
            floor.evaluate(&set).await.map(drop)
        },
    )
    .await?;
    steps.push(SteadyStep::new("select", times));

    // wait: for text that is already there (the cost of asking).
    go(b, "form.html")?;
    let times = taking_turns(
        PAIRS,
        |_| {
            let args = json!({"text": "Sign in", "timeoutMs": 2000});
            b.tool(ws, lease, "browser.wait", args).map(drop)
        },
        async |_| {
            let read = "document.body.innerText.includes('Sign in')";
            floor.evaluate(read).await.map(drop)
        },
    )
    .await?;
    steps.push(SteadyStep::new("wait", times));

    // scroll: the page by 100 px, down then up.
    go(b, "scroll.html")?;
    let times = taking_turns(
        PAIRS,
        |k| {
            let direction = ["down", "up"][k % 2];
            let args = json!({"direction": direction, "amount": 100});
            b.tool(ws, lease, "browser.scroll", args).map(drop)
        },
        async |k| {
            let by = [100, -100][k % 2];
            let scroll = format!(
                "(() => {{ const y = scrollY; scrollBy(0, {by}); return [y, scrollY]; }})()"
            );
            floor.evaluate(&scroll).await.map(drop)
        },
    )
    .await?;
    steps.push(SteadyStep::new("scroll", times));

    // hover: two menus by turns (a CSS :hover menu and one opened on
    // mouseenter), so every hover moves from the other and reveals one.
    let seen = go(b, "pointer.html")?;
    let obs = seen["observationId"].clone();
    let refs = [
        find_ref_number(&seen, "menuitem", "Products")?,
        find_ref_number(&seen, "button", "Account")?,
    ];
    let nodes = [
        floor.backend_of_selector("#cssmenu a").await?,
        floor.backend_of("acct").await?,
    ];
    let times = taking_turns(
        PAIRS,
        |k| {
            let args = json!({"observationId": obs, "ref": refs[k % 2]});
            b.tool(ws, lease, "browser.hover", args).map(drop)
        },
        async |k| floor.hover(nodes[(k + 1) % 2]).await,
    )
    .await?;
    steps.push(SteadyStep::new("hover", times));
    Ok(steps)
}

impl FloorTab<'_> {
    /// Move the pointer to the centre of `node`'s box, then read how many
    /// elements are under `:hover`.
    pub async fn hover(&self, node: i64) -> BpResult<()> {
        let s = Some(self.session);
        let (x, y) = self.centre(node).await?;
        let at = super::cdp::mouse(DispatchMouseEventType::MouseMoved, x, y);
        self.cdp.send(&at, s).await?;
        self.evaluate("document.querySelectorAll(':hover').length")
            .await
            .map(drop)
    }
}
