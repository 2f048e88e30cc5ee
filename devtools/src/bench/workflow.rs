//! The form workflow (navigate, observe, type, click, observe) through the
//! one-shot CLI, one persistent bridge connection, and raw CDP calls (the
//! floor, plain and checking as bp does), taking turns one iteration each
//! so that a drift in the machine's speed weighs on all of them alike.

use super::floor::{ax_node, FloorTab};
use super::mcp_client::McpClient;
use super::{
    bp, exe, find_ref, find_ref_number, ms, raw_tab, raw_target, run_exe, short_exe, BridgeClient,
    Times, STEPS,
};
use browser_pilot_host::cdp::endpoint::Endpoint;
use browser_pilot_host::cdp::launch::LaunchedBrowser;
use browser_pilot_host::cdp::Cdp;
use browser_pilot_host::{BpError, BpResult};
use chromiumoxide::cdp::browser_protocol::{network, page};
use serde_json::{json, Value};
use std::path::Path;
use std::sync::Arc;
use std::time::Instant;

/// The times of each client.
pub(crate) struct Rounds {
    /// The one-shot CLI as `bp` (what users type).
    pub one_shot: Times,
    /// The same as `browser-pilot`.
    pub one_shot_full: Times,
    pub bridge: Times,
    /// The same tools through one `bp mcp` session on a tab of its own.
    pub mcp: Times,
    pub floor: Times,
    /// The floor's workflow again, checking as `browser.type` and
    /// `browser.click` do (focus after each step, the value read back;
    /// the pointer moved before the press, the page read after).
    pub floor_careful: Times,
    /// The careful floor with the Network domain on, as `bp` keeps it on
    /// every tab for the request journal.
    pub floor_journal: Times,
    /// A process per step with raw CDP, checking as `bp` does.
    pub floor_one_shot: Times,
    /// The careful floor on the bridge's own tab, taking turns with it:
    /// the same browser, renderer and page, and the domains bp keeps on.
    pub floor_same_tab: Times,
    /// The careful floor on the bridge's tab taking one step after the
    /// bridge took the steps before it (none for the first step).
    pub floor_takeover: Times,
    /// Per step, the CPU the broker and the `bp bridge` relay used in
    /// the bridge's rounds (ms).
    pub broker_cpu: Times,
    pub relay_cpu: Times,
    /// A trivial call over the bridge and from the floor on its tab,
    /// taking turns (`bench/cost.rs`).
    pub calls: (Vec<f64>, Vec<f64>),
    /// Each step repeated on a settled page over the bridge and by the
    /// careful floor on its tab, taking turns (`bench/steady.rs`).
    pub steady: Vec<super::steady::SteadyStep>,
    /// select, wait, scroll and hover against a raw-CDP floor
    /// (`bench/interactions.rs`).
    pub interactions: Vec<super::steady::SteadyStep>,
}

/// How many trivial calls each way measure the fixed cost of a call.
const TRIVIAL_CALLS: usize = 200;

/// Run `iterations` rounds of the clients in turn (one-shot as `bp` and
/// as `browser-pilot`, bridge and the careful floor on its tab, the plain
/// floor, the careful floor, the one-shot floor). `endpoint` is the
/// broker's browser's DevTools address, as `bp connect` names it.
pub(crate) async fn interleaved(
    home: &Path,
    endpoint: &str,
    url: &str,
    iterations: usize,
) -> BpResult<Rounds> {
    // `developer.eval` for the trivial call that measures a call's own
    // cost (`bench/cost.rs`); the workflow's tools do not use it.
    let (mut b, ws, lease) = BridgeClient::session_with(home, "bench", &["developer.eval"])?;
    b.tool(&ws, &lease, "browser.tabs.open", json!({"url": url}))?;
    let same_tab = Floor::on_tab_at(endpoint, url).await?;
    let floor = Floor::start(home).await?;
    let floor_one_shot = OneShotFloor::start(home).await?;
    let mut mcp = McpClient::start(home)?;
    mcp.tool("browser.tabs.open", json!({"url": url}))?;
    let mut through_mcp: Times = vec![Vec::new(); STEPS.len()];
    let mut same: Times = vec![Vec::new(); STEPS.len()];
    let mut cli: Times = vec![Vec::new(); STEPS.len()];
    let mut full: Times = vec![Vec::new(); STEPS.len()];
    let mut bridge: Times = vec![Vec::new(); STEPS.len()];
    let mut direct: Times = vec![Vec::new(); STEPS.len()];
    let mut moving: Times = vec![Vec::new(); STEPS.len()];
    let mut journal: Times = vec![Vec::new(); STEPS.len()];
    let mut processes: Times = vec![Vec::new(); STEPS.len()];
    let mut takeovers: Times = vec![Vec::new(); STEPS.len()];
    let mut broker_cpu: Times = vec![Vec::new(); STEPS.len()];
    let mut relay_cpu: Times = vec![Vec::new(); STEPS.len()];
    let exes = [short_exe(), exe()];
    // One untimed round first: the CLI's first `open` makes its tab (a
    // window of its own), and each floor's browser leaves `about:blank`;
    // neither belongs to a step's cost.
    let mut untimed: Times = vec![Vec::new(); STEPS.len()];
    one_shot(&exes[0], home, url, &mut untimed)?;
    over_mcp(&mut mcp, url, &mut untimed)?;
    floor.iteration(url, &mut untimed, false).await?;
    floor_one_shot.iteration(home, url, &mut untimed)?;
    for round in 0..iterations {
        // `bp` and `browser-pilot` take turns going first: a step that
        // follows a longer idle spell of the browser answers later.
        for k in [round % 2, 1 - round % 2] {
            let out = if k == 0 { &mut cli } else { &mut full };
            one_shot(&exes[k], home, url, out)?;
        }
        // The bridge and the careful floor on its tab take turns going
        // first, one after the other in the same page.
        for k in [round % 2, 1 - round % 2] {
            if k == 0 {
                let cpu = (&mut broker_cpu, &mut relay_cpu);
                over_bridge(&mut b, (&ws, &lease), url, &mut bridge, cpu)?;
            } else {
                same_tab.iteration(url, &mut same, true).await?;
            }
        }
        over_mcp(&mut mcp, url, &mut through_mcp)?;
        for step in 1..STEPS.len() {
            takeover(&mut b, (&ws, &lease), url, &same_tab, step, &mut takeovers).await?;
        }
        floor.iteration(url, &mut direct, false).await?;
        floor.iteration(url, &mut moving, true).await?;
        floor.with_journal(url, &mut journal).await?;
        floor_one_shot.iteration(home, url, &mut processes)?;
    }
    mcp.finish();
    let calls = super::cost::per_call(&mut b, (&ws, &lease), same_tab.tab(), TRIVIAL_CALLS).await?;
    let steady = super::steady::run(&mut b, (&ws, &lease), same_tab.tab(), url).await?;
    let base = url.trim_end_matches("form.html");
    let interactions =
        super::interactions::run(&mut b, (&ws, &lease), same_tab.tab(), base).await?;
    Ok(Rounds {
        one_shot: cli,
        one_shot_full: full,
        bridge,
        mcp: through_mcp,
        floor: direct,
        floor_careful: moving,
        floor_journal: journal,
        floor_one_shot: processes,
        floor_same_tab: same,
        floor_takeover: takeovers,
        broker_cpu,
        relay_cpu,
        calls,
        steady,
        interactions,
    })
}

/// One round through the one-shot CLI: a process of `exe` per step.
fn one_shot(exe: &Path, home: &Path, url: &str, out: &mut Times) -> BpResult<()> {
    let (t, _) = run_exe(exe, home, &["open", url])?;
    out[0].push(ms(t));
    let (t, obs) = run_exe(exe, home, &["snapshot"])?;
    out[1].push(ms(t));
    let name_ref = find_ref(&obs, "textbox", "Name")?;
    let button_ref = find_ref(&obs, "button", "Sign in")?;
    let (t, _) = run_exe(exe, home, &["type", &name_ref, "Ada", "--clear"])?;
    out[2].push(ms(t));
    let (t, _) = run_exe(exe, home, &["click", &button_ref])?;
    out[3].push(ms(t));
    let (t, _) = run_exe(exe, home, &["snapshot"])?;
    out[4].push(ms(t));
    Ok(())
}

/// One round through the persistent bridge connection, counting the CPU
/// the broker and the relay use in each step into `cpu`.
fn over_bridge(
    b: &mut BridgeClient,
    session: (&str, &str),
    url: &str,
    out: &mut Times,
    cpu: (&mut Times, &mut Times),
) -> BpResult<()> {
    let mut refs = BridgeRefs::default();
    for (i, times) in out.iter_mut().enumerate().take(STEPS.len()) {
        let counting = super::cost::StepCpu::start(b);
        times.push(bridge_step(b, session, url, i, &mut refs)?);
        counting.finish(i, cpu.0, cpu.1);
    }
    Ok(())
}

/// What the bridge's observation in a round found to act on.
#[derive(Default)]
struct BridgeRefs {
    observation: Value,
    name: u64,
    button: u64,
}

/// Step `i` of the workflow over the bridge (`session`: workspace and
/// lease); its time in ms.
fn bridge_step(
    b: &mut BridgeClient,
    (ws, lease): (&str, &str),
    url: &str,
    i: usize,
    refs: &mut BridgeRefs,
) -> BpResult<f64> {
    let (tool, args) = step_call(url, i, refs);
    let t = Instant::now();
    let answer = b.tool(ws, lease, tool, args)?;
    let took = ms(t.elapsed());
    refs.note(i, &answer)?;
    Ok(took)
}

/// The tool and arguments of step `i` (the refs found by step 1).
fn step_call(url: &str, i: usize, refs: &BridgeRefs) -> (&'static str, Value) {
    match i {
        0 => ("browser.navigate", json!({"url": url})),
        2 => (
            "browser.type",
            json!({"observationId": refs.observation, "ref": refs.name, "text": "Ada", "clear": true}),
        ),
        3 => (
            "browser.click",
            json!({"observationId": refs.observation, "ref": refs.button}),
        ),
        _ => ("browser.observe", json!({})),
    }
}

impl BridgeRefs {
    /// Keep what the first observation (step 1) found to act on.
    fn note(&mut self, i: usize, answer: &Value) -> BpResult<()> {
        if i == 1 {
            self.name = find_ref_number(answer, "textbox", "Name")?;
            self.button = find_ref_number(answer, "button", "Sign in")?;
            self.observation = answer["observationId"].clone();
        }
        Ok(())
    }
}

/// One round through `bp mcp` (its own session and tab), the same tools
/// and arguments as the bridge's.
fn over_mcp(mcp: &mut McpClient, url: &str, out: &mut Times) -> BpResult<()> {
    let mut refs = BridgeRefs::default();
    for (i, times) in out.iter_mut().enumerate().take(STEPS.len()) {
        let (tool, args) = step_call(url, i, &refs);
        let t = Instant::now();
        let answer = mcp.tool(tool, args)?;
        times.push(ms(t.elapsed()));
        refs.note(i, &answer)?;
    }
    Ok(())
}

/// The careful floor on the bridge's tab takes over at step `step`: the
/// bridge takes the steps before it, the floor takes that one (timed
/// into `out`), so both start that step from the page bp's earlier steps
/// left. (The button the floor clicks is looked up before the bridge
/// types, so that no read of the floor's comes between type and click.)
async fn takeover(
    b: &mut BridgeClient,
    session: (&str, &str),
    url: &str,
    floor: &Floor,
    step: usize,
    out: &mut Times,
) -> BpResult<()> {
    let mut refs = BridgeRefs::default();
    let mut button = None;
    for i in 0..step {
        bridge_step(b, session, url, i, &mut refs)?;
        if i == 1 && step == 3 {
            button = Some(floor.tab().backend_of("signin-button").await?);
        }
    }
    let took = floor.step(url, step, true, &mut button).await?;
    out[step].push(took);
    Ok(())
}

/// The floor: the same steps with raw CDP calls, no broker and no
/// process per step, in a browser of the bench's own (or, made by
/// `on_tab_at`, on the bridge's tab in the broker's browser).
struct Floor {
    _browser: Option<LaunchedBrowser>,
    cdp: Cdp,
    session: String,
}

impl Floor {
    async fn start(home: &Path) -> BpResult<Self> {
        let (browser, cdp, session) = raw_tab(home, "direct-profiles", "about:blank").await?;
        cdp.send(&page::EnableParams::default(), Some(&session))
            .await?;
        Ok(Self {
            _browser: Some(browser),
            cdp,
            session,
        })
    }

    /// A floor on bp's own tab: a second DevTools connection to the
    /// broker's browser (at `endpoint`), attached to the page at `url`,
    /// the only one there when this starts (the bridge's tab). bp keeps
    /// its domains on for that page already; this session turns on only
    /// the page events it waits for.
    async fn on_tab_at(endpoint: &str, url: &str) -> BpResult<Self> {
        let ws = Endpoint::parse(&format!("http://{endpoint}"))?
            .websocket_url()
            .await?;
        let cdp = Cdp::connect(&ws, Arc::new(|_| {})).await?;
        let targets = super::cdp::targets(&cdp).await?;
        let pages: Vec<&str> = targets["targetInfos"]
            .as_array()
            .into_iter()
            .flatten()
            .filter(|t| t["type"] == "page" && t["url"] == url)
            .filter_map(|t| t["targetId"].as_str())
            .collect();
        let [target] = pages[..] else {
            return Err(BpError::internal(format!(
                "{} pages at {url} in bp's browser, not one",
                pages.len()
            )));
        };
        let session = super::floor::attach(&cdp, target).await?;
        cdp.send(&page::EnableParams::default(), Some(&session))
            .await?;
        Ok(Self {
            _browser: None,
            cdp,
            session,
        })
    }

    /// A careful iteration with the Network domain on (off again after).
    async fn with_journal(&self, url: &str, out: &mut Times) -> BpResult<()> {
        let s = Some(self.session.as_str());
        let journal = network::EnableParams {
            max_post_data_size: Some(0),
            ..network::EnableParams::default()
        };
        self.cdp.send(&journal, s).await?;
        let done = self.iteration(url, out, true).await;
        self.cdp.send(&network::DisableParams {}, s).await?;
        done
    }

    fn tab(&self) -> FloorTab<'_> {
        FloorTab {
            cdp: &self.cdp,
            session: &self.session,
        }
    }

    async fn iteration(&self, url: &str, out: &mut Times, careful: bool) -> BpResult<()> {
        let mut button = None;
        for (i, times) in out.iter_mut().enumerate().take(STEPS.len()) {
            times.push(self.step(url, i, careful, &mut button).await?);
        }
        Ok(())
    }

    /// Step `i` of the workflow; its time in ms. The observation names
    /// the button a click needs.
    async fn step(
        &self,
        url: &str,
        i: usize,
        careful: bool,
        button: &mut Option<i64>,
    ) -> BpResult<f64> {
        let tab = self.tab();
        let t = Instant::now();
        match i {
            0 => tab.navigate(url).await?,
            2 => tab.type_name(careful, "Ada").await?,
            3 => {
                let node = button.ok_or_else(|| BpError::internal("no button to click"))?;
                tab.click(node, careful).await?;
            }
            _ => {
                let tree = tab.observe().await?;
                let took = ms(t.elapsed());
                if i == 1 {
                    *button = Some(ax_node(&tree, "button", "Sign in")?);
                }
                return Ok(took);
            }
        }
        Ok(ms(t.elapsed()))
    }
}

/// The one-shot floor: each step a process of its own (`bench-floor`,
/// the same executable) that connects to a browser of the bench's own,
/// attaches to its tab, takes the step checking as `bp` does, and exits.
struct OneShotFloor {
    browser: LaunchedBrowser,
    target: String,
}

impl OneShotFloor {
    async fn start(home: &Path) -> BpResult<Self> {
        let (browser, cdp, target) =
            raw_target(home, "one-shot-floor-profiles", "about:blank").await?;
        cdp.close();
        Ok(Self { browser, target })
    }

    /// One step's process; its time and printed JSON.
    fn step(&self, home: &Path, step: &str, arg: Option<&str>) -> BpResult<(f64, Value)> {
        let mut args = vec!["bench-floor", &self.browser.ws_url, &self.target, step];
        args.extend(arg);
        let (t, out) = bp(home, &args)?;
        Ok((ms(t), out))
    }

    fn iteration(&self, home: &Path, url: &str, out: &mut Times) -> BpResult<()> {
        out[0].push(self.step(home, "navigate", Some(url))?.0);
        let (t, obs) = self.step(home, "observe", None)?;
        out[1].push(t);
        let button = obs["button"].to_string();
        out[2].push(self.step(home, "type", None)?.0);
        out[3].push(self.step(home, "click", Some(&button))?.0);
        out[4].push(self.step(home, "observe", None)?.0);
        Ok(())
    }
}
