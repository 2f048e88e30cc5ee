//! `browser.connect`: launch a broker-owned Chromium, attach to an explicit
//! loopback endpoint, or attach to a discovered browser of this user. An
//! endpoint is proven to belong to a browser process of this user before
//! any DevTools traffic, and proven again on every reconnect.

use super::native::{only_keys, str_arg};
use super::Broker;
use crate::browser::connection::BrowserConn;
use crate::cdp::endpoint::Endpoint;
use crate::cdp::launch;
use crate::discovery::{self, ownership, Candidate};
use crate::error::{BpError, BpResult, Code};
use serde_json::{json, Value};
use std::path::PathBuf;
use std::sync::Arc;

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
    },
    Endpoint(Endpoint),
    Candidate(Box<Candidate>),
}

/// What was connected to, for the connection state.
pub struct Attached {
    pub conn: BrowserConn,
    pub selection: Option<Selection>,
}

/// Parse the arguments into a route (discovering when no route is named).
fn route(broker: &Broker, args: &Value) -> BpResult<Route> {
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
        only_keys(opts, &["headless", "executable"])?;
        let headless = match opts.get("headless") {
            None | Some(Value::Null) => true,
            Some(Value::Bool(b)) => *b,
            Some(_) => return Err(BpError::invalid("`launch.headless` must be true or false")),
        };
        let executable = str_arg(opts, "executable")?.map(PathBuf::from);
        return Ok(Route::Launch {
            headless,
            executable,
        });
    }
    if let Some(e) = endpoint {
        return Endpoint::parse(e).map(Route::Endpoint);
    }
    let candidates = discovery::discover();
    if let Some(id) = browser {
        let c = pick_by_id(&candidates, id)?;
        super::preference::save(&broker.paths, &c.id)?;
        return Ok(Route::Candidate(Box::new(c)));
    }
    let remembered = broker.selection();
    let preferred = super::preference::load(&broker.paths);
    choose(&candidates, remembered.as_ref(), preferred.as_deref())
        .map(|c| Route::Candidate(Box::new(c)))
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
/// else the persisted preference when it is viable, else the only viable
/// browser. Several viable browsers and no preference: refuse and list.
pub fn choose(
    candidates: &[Candidate],
    remembered: Option<&Selection>,
    preferred: Option<&str>,
) -> BpResult<Candidate> {
    if let Some(sel) = remembered {
        let same = candidates.iter().find(|c| {
            c.running && c.product == sel.product && c.user_data_dir == sel.user_data_dir
        });
        return match same {
            Some(c) if c.viable() => Ok(c.clone()),
            Some(c) => Err(not_viable(c)),
            None => Err(BpError::new(
                Code::BrowserNotFound,
                format!(
                    "the browser chosen earlier ({}, profile {}) is not running; start it with \
                     debugging on, or name another with --browser ID or --endpoint URL",
                    sel.candidate_id,
                    sel.user_data_dir.display()
                ),
            )
            .with_context(json!({"reason": "selected_browser_gone", "browser": sel.candidate_id}))),
        };
    }
    let viable: Vec<&Candidate> = candidates.iter().filter(|c| c.viable()).collect();
    if let Some(c) = preferred.and_then(|p| viable.iter().find(|c| c.id == p)) {
        return Ok((*c).clone());
    }
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

/// Connect along `args`' route (or the discovered one).
pub async fn attach(broker: &Arc<Broker>, args: &Value, generation: u64) -> BpResult<Attached> {
    let (ws, launched, selection, candidate) = match route(broker, args)? {
        Route::Launch {
            headless,
            executable,
        } => {
            let launched = launch::launch(executable, headless, &broker.paths.profiles).await?;
            (launched.ws_url.clone(), Some(launched), None, None)
        }
        Route::Endpoint(endpoint) => {
            let env = discovery::Env::system();
            // Proven before any HTTP or WebSocket traffic reaches the port.
            let owner = ownership::prove_endpoint(&env, endpoint.port, None)?;
            let ws = endpoint.websocket_url().await?;
            let selection = discovery::discover_in(&env)
                .into_iter()
                .find(|c| c.pid == Some(owner.pid))
                .map(|c| selection_of(&c));
            (ws, None, selection, None)
        }
        Route::Candidate(c) => {
            let port = c.endpoint_port().ok_or_else(|| not_viable(&c))?;
            let env = discovery::Env::system();
            ownership::prove_endpoint(&env, port, Some(&c))?;
            let ws = match c.ws_url() {
                Some(ws) => ws,
                None => {
                    Endpoint::parse(&format!("http://127.0.0.1:{port}"))?
                        .websocket_url()
                        .await?
                }
            };
            (ws, None, Some(selection_of(&c)), Some(c.id.clone()))
        }
    };
    let (signals, signal_rx) = tokio::sync::mpsc::unbounded_channel();
    let downloads = broker.paths.downloads.clone();
    let outcome = BrowserConn::open(&ws, launched, generation, signals, downloads).await;
    if let Some(id) = &candidate {
        broker.note_authorization(id, &outcome);
    }
    let mut conn = outcome?;
    if conn.launched.is_none() {
        conn.janitor = crate::janitor::Janitor::spawn(&ws)
            .map_err(|e| tracing::warn!("no janitor for this browser: {}", e.message))
            .ok();
    }
    tokio::spawn(super::signals::pump(broker.clone(), signal_rx));
    Ok(Attached { conn, selection })
}

fn selection_of(c: &Candidate) -> Selection {
    Selection {
        candidate_id: c.id.clone(),
        product: c.product.clone(),
        user_data_dir: c.user_data_dir.clone(),
    }
}
