//! The observe family: `browser.observe`, `browser.read` and
//! `browser.frames.list`.
//!
//! The host reads the accessibility tree; this component decides which
//! nodes become numbered elements, applies the Observation v1 limits and
//! records the ref-to-node mapping through `page-read`.

wit_bindgen::generate!({
    world: "observe",
    path: "../../tools-wit",
    with: { "browser-pilot:tools/types@0.1.0": bp_sdk::types },
});

mod element;
mod frames;
mod observation;
mod read;

use bp_sdk::{invalid, Args, CallContext, Component, ToolError, ToolSpec};
use serde_json::Value;

struct Observe;

impl Component for Observe {
    fn specs() -> Vec<ToolSpec> {
        vec![observation::spec(), read::spec(), frames::spec()]
    }

    fn call(_ctx: &CallContext, name: &str, args: Args) -> Result<Value, ToolError> {
        match name {
            "browser.observe" => observation::observe(args),
            "browser.read" => read::read(args),
            "browser.frames.list" => frames::list(args),
            other => Err(invalid(format!("unknown tool `{other}`"))),
        }
    }
}

bp_sdk::export_component!(Observe);
