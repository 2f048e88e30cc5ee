//! The commands the bench's raw-CDP floors send, as chromiumoxide's typed
//! protocol types (the same the broker sends): a floor measures the
//! browser, not a different way of naming its methods. Replies that carry
//! page data (evaluations, accessibility trees, DOM nodes) are read as JSON
//! (`Cdp::send_raw`), as the broker reads them.

use browser_pilot_host::cdp::Cdp;
use browser_pilot_host::BpResult;
use chromiumoxide::cdp::browser_protocol::input::{
    DispatchMouseEventParams, DispatchMouseEventType, MouseButton,
};
use chromiumoxide::cdp::browser_protocol::target::{CreateTargetParams, GetTargetsParams};
use chromiumoxide::cdp::js_protocol::runtime::EvaluateParams;
use serde_json::Value;

/// `Runtime.evaluate` of `expression`, its value returned as JSON.
pub(crate) fn eval(expression: impl Into<String>) -> EvaluateParams {
    let mut eval = EvaluateParams::new(expression);
    eval.return_by_value = Some(true);
    eval
}

/// Open a tab at `url` (`Target.createTarget`); its target ID.
pub(crate) async fn create_target(cdp: &Cdp, url: &str) -> BpResult<String> {
    let made = cdp.send(&CreateTargetParams::new(url), None).await?;
    Ok(made.target_id.into())
}

/// `Target.getTargets`, as JSON (read the way the broker reads target
/// infos).
pub(crate) async fn targets(cdp: &Cdp) -> BpResult<Value> {
    cdp.send_raw(&GetTargetsParams::default(), None).await
}

/// A mouse event at (`x`, `y`); a press or release is of the left button,
/// one click.
pub(crate) fn mouse(kind: DispatchMouseEventType, x: f64, y: f64) -> DispatchMouseEventParams {
    let mut ev = DispatchMouseEventParams::new(kind.clone(), x, y);
    if kind != DispatchMouseEventType::MouseMoved {
        ev.button = Some(MouseButton::Left);
        ev.click_count = Some(1);
    }
    ev
}
