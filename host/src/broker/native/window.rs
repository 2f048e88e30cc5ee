//! `browser.window` (capability `window`): the state of the browser window
//! that holds the workspace's tab, set with `Browser.setWindowBounds` and
//! always read back with `Browser.getWindowBounds`. The result names the
//! state the browser reports, never the one asked for: a headless window,
//! or a window manager, may not take a state.

use crate::broker::args::{object_args, only_keys, str_arg};
use crate::broker::call::types::{raw_target, CallScope};
use crate::broker::Broker;
use crate::browser::connection::BrowserConn;
use crate::error::{BpError, BpResult, Code};
use crate::ids::{RawTargetId, TabId};
use chromiumoxide::cdp::browser_protocol::browser::{
    Bounds, GetWindowBoundsParams, GetWindowForTargetParams, SetWindowBoundsParams, WindowId,
    WindowState,
};
use chromiumoxide::cdp::browser_protocol::page::BringToFrontParams;
use chromiumoxide::cdp::browser_protocol::target::{ActivateTargetParams, TargetId};
use serde_json::{json, Value};

/// The states a window may be asked for.
pub const STATES: &[&str] = &["normal", "minimized", "maximized"];

/// The tab a window tool acts on: `targetId`, else the workspace's
/// current tab; it must be the workspace's and not held by another lease.
/// Returns (raw, public) IDs.
pub(super) fn target(
    broker: &Broker,
    scope: &CallScope,
    args: &Value,
) -> BpResult<(RawTargetId, TabId)> {
    let mut st = broker.state();
    let public = match str_arg(args, "targetId")? {
        Some(id) => TabId::new(id),
        None => st
            .workspace(&scope.principal, &scope.workspace_id)?
            .current_target
            .clone()
            .ok_or_else(|| {
                BpError::new(
                    Code::TargetNotOwned,
                    "this workspace has no tab yet; open one first (bp open URL)",
                )
            })?,
    };
    let raw = raw_target(&mut st, scope, &public)?;
    match st.controllers.get(raw.as_str()) {
        Some(lease) if *lease != scope.lease_id => Err(BpError::new(
            Code::TargetNotOwned,
            "another lease controls this tab",
        )),
        _ => Ok((raw, public)),
    }
}

/// The window holding `raw` and its bounds, as the browser reports them:
/// `{windowId, state, left, top, width, height}`.
pub(super) async fn read(conn: &BrowserConn, raw: &str) -> BpResult<Value> {
    let found = GetWindowForTargetParams {
        target_id: Some(TargetId::new(raw)),
    };
    let id = *conn.cdp.send(&found, None).await?.window_id.inner();
    // Raw: the state is reported as the browser names it, even one newer
    // than chromiumoxide's protocol.
    let bounds = GetWindowBoundsParams::new(WindowId::new(id));
    let bounds = conn.cdp.send_raw(&bounds, None).await?;
    Ok(shape(id, &bounds["bounds"]))
}

fn shape(id: i64, b: &Value) -> Value {
    json!({"windowId": id, "state": b["windowState"], "left": b["left"], "top": b["top"],
           "width": b["width"], "height": b["height"]})
}

/// Ask for `state` (by way of `normal` when leaving another non-normal
/// state, which Chromium requires), then read the window back.
pub(super) async fn set_state(conn: &BrowserConn, raw: &str, state: &str) -> BpResult<Value> {
    let before = read(conn, raw).await?;
    let id = before["windowId"]
        .as_i64()
        .map(WindowId::new)
        .ok_or_else(|| BpError::internal("the browser named no window for the tab"))?;
    let now = before["state"].as_str().unwrap_or("normal");
    let set = |s: WindowState| {
        let bounds = Bounds {
            window_state: Some(s),
            ..Bounds::default()
        };
        SetWindowBoundsParams::new(id, bounds)
    };
    let wanted: WindowState = state
        .parse()
        .map_err(|s| BpError::internal(format!("not a window state: {s}")))?;
    if now != "normal" && now != state {
        conn.cdp.send(&set(WindowState::Normal), None).await?;
    }
    if now != state {
        conn.cdp.send(&set(wanted), None).await?;
    }
    read(conn, raw).await
}

/// Put the tab's window in the normal state and the tab in front of it
/// (`Target.activateTarget`, then `Page.bringToFront` on its session).
/// Returns the window as read back.
pub(super) async fn bring_to_front(conn: &BrowserConn, raw: &str) -> BpResult<Value> {
    let window = set_state(conn, raw, "normal").await?;
    let activate = ActivateTargetParams::new(TargetId::new(raw));
    conn.cdp.send(&activate, None).await?;
    let session = conn.attach(raw).await?;
    conn.cdp
        .send(&BringToFrontParams {}, Some(&session))
        .await?;
    Ok(window)
}

/// Run `browser.window {state?, targetId?}`: without `state` it only reads.
pub(super) async fn call(broker: &Broker, scope: &CallScope, args: &Value) -> BpResult<Value> {
    object_args(args)?;
    only_keys(args, &["state", "targetId"])?;
    let asked = str_arg(args, "state")?;
    if let Some(s) = asked {
        if !STATES.contains(&s) {
            return Err(BpError::invalid(format!(
                "`state` must be one of {}, not `{s}`",
                STATES.join(", ")
            )));
        }
    }
    let (raw, public) = target(broker, scope, args)?;
    let conn = broker.browser().await?;
    scope.same_generation(conn.generation)?;
    let window = match asked {
        Some(s) => set_state(&conn, &raw, s).await?,
        None => read(&conn, &raw).await?,
    };
    let mut out = json!({"targetId": public, "window": window});
    if let Some(s) = asked {
        out["asked"] = json!(s);
        out["applied"] = json!(window["state"] == s);
    }
    Ok(out)
}
