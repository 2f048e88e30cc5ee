//! The input family: `browser.click`, `browser.type`, `browser.press` and
//! `browser.keyboard`.
//!
//! This component decides how to aim and when to refuse (covered element,
//! not editable, page changed mid-sequence) and derives evidence from what
//! it can observe before and after; the host only dispatches input.

wit_bindgen::generate!({
    world: "input-family",
    path: "../../tools-wit",
    with: { "browser-pilot:tools/types@0.1.0": bp_sdk::types },
});

mod click;
mod evidence;
mod keys;
mod typing;

use bp_sdk::{invalid, Args, CallContext, Component, ToolError, ToolSpec};
use serde_json::Value;

struct Input;

impl Component for Input {
    fn specs() -> Vec<ToolSpec> {
        vec![
            click::spec(),
            typing::spec(),
            keys::press_spec(),
            keys::keyboard_spec(),
        ]
    }

    fn call(_ctx: &CallContext, name: &str, args: Args) -> Result<Value, ToolError> {
        match name {
            "browser.click" => click::click(args),
            "browser.type" => typing::type_text(args),
            "browser.press" => keys::press(args),
            "browser.keyboard" => keys::keyboard(args),
            other => Err(invalid(format!("unknown tool `{other}`"))),
        }
    }
}

bp_sdk::export_component!(Input);
