//! `browser.connect`: launch a broker-owned Chromium, attach to an explicit
//! loopback endpoint, or attach to a discovered browser of this user. An
//! endpoint is proven to belong to a browser process of this user before
//! any DevTools traffic, proven again on every reconnect, and then dialled
//! at the literal address of the listener that was proven.

pub(in crate::broker) mod claim;
pub(in crate::broker) mod identity;
pub mod locator;
pub mod preference;

use crate::broker::args::{bool_arg, object_args, only_keys, str_arg};
use crate::broker::Broker;
use crate::browser::connection::BrowserConn;
use crate::browser::registry::Signal;
use crate::cdp::endpoint::{dial_host, Endpoint};
use crate::cdp::launch;
use crate::cdp::window_size::WindowSize;
use crate::discovery::{self, ownership, Authorization, Candidate};
use crate::error::{BpError, BpResult, Code};
use serde_json::{json, Value};
use std::path::PathBuf;
use std::sync::Arc;
use tokio::sync::mpsc::UnboundedReceiver;

/// The user's browser this broker attached to: an endpoint-less
/// reconnect goes back to exactly this profile, never to another browser.
#[derive(Debug, Clone)]
pub struct Selection {
    pub candidate_id: String,
    pub product: String,
    pub user_data_dir: PathBuf,
}

/// Where a connect goes.
enum Route {
    Launch {
        headless: bool,
        executable: Option<PathBuf>,
        window: WindowSize,
        profile: Option<String>,
    },
    Endpoint(Endpoint),
    Candidate(Box<Candidate>),
}

/// A new connection, not yet exposed: the caller installs it, then starts
/// its signal pump.
pub struct Attached {
    pub conn: BrowserConn,
    pub selection: Option<Selection>,
    pub signals: UnboundedReceiver<Signal>,
}

/// Discovery reads /proc synchronously: keep it off the async workers.
async fn discover() -> Vec<Candidate> {
    tokio::task::spawn_blocking(discovery::discover)
        .await
        .unwrap_or_default()
}

/// What the arguments ask for, checked before anything else happens.
pub enum Request {
    Launch {
        headless: bool,
        executable: Option<PathBuf>,
        window: WindowSize,
        /// A persistent profile: `default` or an absolute directory.
        profile: Option<String>,
    },
    Endpoint(Endpoint),
    Browser(String),
    Discover,
}

/// Parse and check `browser.connect`'s arguments.
pub fn parse(args: &Value) -> BpResult<Request> {
    object_args(args)?;
    only_keys(args, &["launch", "endpoint", "browser"])?;
    let endpoint = str_arg(args, "endpoint")?;
    let browser = str_arg(args, "browser")?;
    let launch_opts = args.get("launch").filter(|v| !v.is_null());
    let named = [endpoint.is_some(), browser.is_some(), launch_opts.is_some()];
    if named.iter().filter(|n| **n).count() > 1 {
        return Err(BpError::invalid(
            "give at most one of `launch`, `endpoint` or `browser`",
        ));
    }
    if let Some(opts) = launch_opts {
        if !opts.is_object() {
            return Err(BpError::invalid(
                "`launch` must be an object ({} for the defaults)",
            ));
        }
        only_keys(opts, &["headless", "executable", "windowSize", "profile"])?;
        let headless = bool_arg(opts, "headless")?.unwrap_or(true);
        let executable = str_arg(opts, "executable")?.map(PathBuf::from);
        let window = match opts.get("windowSize").filter(|v| !v.is_null()) {
            Some(v) => WindowSize::from_json(v)?,
            None => WindowSize::default(),
        };
        let profile = str_arg(opts, "profile")?.map(str::to_string);
        if let Some(text) = &profile {
            // Checked now so that a bad path changes nothing.
            crate::cdp::profile::resolve(std::path::Path::new("/"), Some(text))?;
        }
        return Ok(Request::Launch {
            headless,
            executable,
            window,
            profile,
        });
    }
    if let Some(e) = endpoint {
        return Endpoint::parse(e).map(Request::Endpoint);
    }
    Ok(match browser {
        Some(id) => Request::Browser(id.to_string()),
        None => Request::Discover,
    })
}

/// Where the request leads (discovering when no endpoint is named).
async fn route(broker: &Broker, request: Request) -> BpResult<Route> {
    Ok(match request {
        Request::Launch {
            headless,
            executable,
            window,
            profile,
        } => Route::Launch {
            headless,
            executable,
            window,
            profile,
        },
        Request::Endpoint(e) => Route::Endpoint(e),
        Request::Browser(id) => Route::Candidate(Box::new(pick_by_id(&discover().await, &id)?)),
        Request::Discover => {
            let remembered = broker.selection();
            let preferred = crate::broker::connect::preference::load(&broker.paths);
            let candidates = discover().await;
            Route::Candidate(Box::new(choose(
                &candidates,
                remembered.as_ref(),
                preferred.as_deref(),
            )?))
        }
    })
}

fn pick_by_id(candidates: &[Candidate], id: &str) -> BpResult<Candidate> {
    let c = candidates.iter().find(|c| c.id == id).ok_or_else(|| {
        BpError::new(
            Code::BrowserNotFound,
            format!("no browser `{id}`; `bp browsers` lists them"),
        )
        .with_context(json!({"reason": "unknown_browser", "candidates": listing(candidates)}))
    })?;
    if !c.viable() {
        return Err(not_viable(c));
    }
    Ok(c.clone())
}

fn not_viable(c: &Candidate) -> BpError {
    let fix = c.remediation.clone().unwrap_or_default();
    BpError::new(
        Code::BrowserNotFound,
        format!(
            "{} ({}) cannot be attached: {fix}",
            c.id,
            c.user_data_dir.display()
        ),
    )
    .with_context(json!({"reason": "not_viable", "candidate": c.to_json()}))
}

fn listing(candidates: &[Candidate]) -> Vec<Value> {
    candidates.iter().map(Candidate::to_json).collect()
}

/// The endpoint-less choice: the profile chosen earlier in this broker,
/// else the persisted preference, else the only viable browser. Never a
/// silent switch: a chosen or preferred browser that cannot be attached
/// is an error, not a reason to take another. Several viable browsers and
/// no preference: refuse and list them.
pub fn choose(
    candidates: &[Candidate],
    remembered: Option<&Selection>,
    preferred: Option<&str>,
) -> BpResult<Candidate> {
    if let Some(sel) = remembered {
        let same = candidates.iter().find(|c| {
            c.running
                && c.product == sel.product
                && discovery::candidate::same_dir(&c.user_data_dir, &sel.user_data_dir)
        });
        return match same {
            Some(c) if c.viable() => Ok(c.clone()),
            Some(c) => Err(not_viable(c)),
            None => Err(gone(
                &sel.candidate_id,
                &sel.user_data_dir.display().to_string(),
            )),
        };
    }
    if let Some(id) = preferred {
        return match candidates.iter().find(|c| c.id == id && c.running) {
            Some(c) if c.viable() => Ok(c.clone()),
            Some(c) => Err(not_viable(c)),
            None => Err(gone(id, "the preferred profile")),
        };
    }
    let viable: Vec<&Candidate> = candidates.iter().filter(|c| c.viable()).collect();
    match viable.as_slice() {
        [one] => Ok((*one).clone()),
        [] => {
            let fix = candidates
                .iter()
                .find_map(|c| c.remediation.clone())
                .unwrap_or_else(|| {
                    "install Chromium or Chrome, or use `bp connect --launch`".to_string()
                });
            Err(BpError::new(
                Code::BrowserNotFound,
                format!("no running browser has remote debugging on: {fix}"),
            )
            .with_context(
                json!({"reason": "no_viable_browser", "candidates": listing(candidates)}),
            ))
        }
        several => {
            let ids: Vec<&str> = several.iter().map(|c| c.id.as_str()).collect();
            Err(BpError::invalid(format!(
                "{} browsers have remote debugging on ({}); pick one with `bp connect --browser ID`",
                several.len(),
                ids.join(", ")
            ))
            .with_context(json!({"reason": "several_browsers",
                "candidates": several.iter().map(|c| c.to_json()).collect::<Vec<_>>()})))
        }
    }
}

fn gone(id: &str, profile: &str) -> BpError {
    BpError::new(
        Code::BrowserNotFound,
        format!(
            "the browser chosen earlier ({id}, {profile}) is not running; start it with \
             debugging on, or name another with --browser ID or --endpoint URL"
        ),
    )
    .with_context(json!({"reason": "selected_browser_gone", "browser": id}))
}

/// Connect along `args`' route (or the discovered one).
pub async fn attach(broker: &Arc<Broker>, request: Request, generation: u64) -> BpResult<Attached> {
    let env = discovery::Env::system();
    let (ws, launched, selection, candidate) = match route(broker, request).await? {
        Route::Launch {
            headless,
            executable,
            window,
            profile,
        } => {
            let profiles = &broker.paths.profiles;
            let persistent = match profile {
                Some(text) => Some(crate::cdp::profile::resolve(profiles, Some(&text))?),
                None => None,
            };
            let launched = launch::launch(
                executable,
                headless,
                window,
                profiles,
                persistent.as_deref(),
            )
            .await?;
            (launched.ws_url.clone(), Some(launched), None, None)
        }
        Route::Endpoint(endpoint) => {
            // Proven before any HTTP or WebSocket traffic reaches the port,
            // then dialled at the proven listener's own address.
            let owner = ownership::prove_endpoint(&env, endpoint.port, None)?;
            let ws = endpoint.pinned(owner.listen_addr)?.websocket_url().await?;
            let found = discover()
                .await
                .into_iter()
                .find(|c| c.pid == Some(owner.pid));
            let selection = found.as_ref().map(selection_of);
            (ws, None, selection, found)
        }
        Route::Candidate(c) => {
            let port = c.endpoint_port().ok_or_else(|| not_viable(&c))?;
            let owner = ownership::prove_endpoint(&env, port, Some(&c))?;
            let host = dial_host(owner.listen_addr);
            let ws = match c.ws_url(&host) {
                Some(ws) => ws,
                None => {
                    Endpoint::parse(&format!("http://{host}:{port}"))?
                        .websocket_url()
                        .await?
                }
            };
            (ws, None, Some(selection_of(&c)), Some(*c))
        }
    };
    let (signals, signal_rx) = tokio::sync::mpsc::unbounded_channel();
    let downloads = broker.paths.downloads.clone();
    let outcome = BrowserConn::open(&ws, launched, generation, signals, downloads)
        .await
        .map_err(|e| unanswered_is_not_consent(e, candidate.as_ref()));
    if let Some(c) = &candidate {
        broker.note_authorization(&c.id, &outcome);
    }
    let mut conn = outcome?;
    let limits = broker.runtime.limits().artifacts();
    conn.registry
        .set_download_bounds(limits.per_item, limits.per_workspace);
    if conn.launched.is_none() {
        conn.janitor = crate::system::janitor::Janitor::spawn(&ws)
            .map_err(|e| tracing::warn!("no janitor for this browser: {}", e.message))
            .ok();
    }
    // The user's choice persists only once it worked.
    if let Some(c) = &candidate {
        crate::broker::connect::preference::save(&broker.paths, &c.id)?;
    }
    Ok(Attached {
        conn,
        selection,
        signals: signal_rx,
    })
}

/// Only a browser that may ask its user (debugging turned on at
/// chrome://inspect) is "waiting for the user" when it does not answer;
/// any other silent endpoint is simply unreachable.
fn unanswered_is_not_consent(e: BpError, candidate: Option<&Candidate>) -> BpError {
    let waiting = e
        .context
        .as_ref()
        .and_then(|c| c.get("authorization"))
        .is_some_and(|a| a == "waiting_for_user");
    let may_prompt = candidate.is_some_and(|c| c.authorization == Authorization::MayPrompt);
    if waiting && !may_prompt {
        return BpError::new(
            Code::BrowserNotFound,
            "the browser did not accept the DevTools connection within 20 s",
        )
        .with_context(json!({"reason": "unresponsive"}));
    }
    e
}

fn selection_of(c: &Candidate) -> Selection {
    Selection {
        candidate_id: c.id.clone(),
        product: c.product.clone(),
        user_data_dir: c.user_data_dir.clone(),
    }
}
