//! The pointer family: `browser.hover` moves the real pointer onto an
//! observed element (or a viewport point) and leaves it there, reporting
//! what appeared and whether `aria-expanded` changed; `browser.drag`
//! presses, moves and releases it (finishing HTML5 drags the page starts
//! with drag events), reporting whether the source moved, changed place or
//! value, or the drop target changed. The component checks the request,
//! resolves refs and judges the evidence; the host moves and reads back.

wit_bindgen::generate!({
    world: "pointer-family",
    path: "../../tools-wit",
    with: { "browser-pilot:tools/types@0.1.0": bp_sdk::types },
});

mod drag;
mod hover;

use bp_sdk::{invalid, Args, CallContext, Component, ToolError, ToolSpec};
use serde_json::Value;

struct Pointer;

/// A finite number field of an object argument.
fn number(v: &Value, object: &str, key: &str) -> Result<f64, ToolError> {
    v.get(key)
        .and_then(Value::as_f64)
        .filter(|n| n.is_finite())
        .ok_or_else(|| invalid(format!("`{object}.{key}` must be a number")))
}

/// An object argument holding exactly the number fields `keys`.
fn pair(v: &Value, object: &str, keys: [&str; 2]) -> Result<(f64, f64), ToolError> {
    let Some(map) = v.as_object() else {
        return Err(invalid(format!(
            "`{object}` must be an object with {} and {}",
            keys[0], keys[1]
        )));
    };
    if let Some(extra) = map.keys().find(|k| !keys.contains(&k.as_str())) {
        return Err(invalid(format!("unknown field `{object}.{extra}`")));
    }
    Ok((number(v, object, keys[0])?, number(v, object, keys[1])?))
}

impl Component for Pointer {
    fn specs() -> Vec<ToolSpec> {
        vec![hover::spec(), drag::spec()]
    }

    fn call(_ctx: &CallContext, name: &str, args: Args) -> Result<Value, ToolError> {
        match name {
            "browser.hover" => hover::hover(args),
            "browser.drag" => drag::drag(args),
            other => Err(invalid(format!("unknown tool `{other}`"))),
        }
    }
}

bp_sdk::export_component!(Pointer);
