//! `example.outline`: the headings and landmarks of the current tab, as an
//! indented outline. It imports only `page-read`, so a broker that denies
//! that capability never offers it.

wit_bindgen::generate!({
    inline: r#"
        package example:outline;
        world outline {
            import browser-pilot:tools/page-read@0.1.0;
            export browser-pilot:tools/tool@0.1.0;
        }
    "#,
    path: "../../tools-wit",
    with: { "browser-pilot:tools/types@0.1.0": bp_sdk::types },
    generate_all,
});

use bp_sdk::{invalid, Args, CallContext, Component, ToolError, ToolSpec};
use browser_pilot::tools::page_read;
use serde_json::{json, Value};

const ROLES: &[&str] = &["heading", "banner", "navigation", "main", "contentinfo", "form", "region"];

struct Outline;

impl Component for Outline {
    fn specs() -> Vec<ToolSpec> {
        vec![ToolSpec::read(
            "example.outline",
            "Headings and landmarks of the current tab, in document order.",
            &["page-read"],
        )
        .schemas(
            json!({"type": "object", "additionalProperties": false, "properties": {
                "targetId": {"type": "string"},
                "max": {"type": "integer", "minimum": 1, "maximum": 500, "default": 100}}}),
            json!({"type": "object", "required": ["outline"], "properties": {
                "outline": {"type": "array", "items": {"type": "string"}}}}),
        )]
    }

    fn call(_ctx: &CallContext, name: &str, mut args: Args) -> Result<Value, ToolError> {
        if name != "example.outline" {
            return Err(invalid(format!("unknown tool `{name}`")));
        }
        args.allow(&["targetId"]);
        let max = args.opt_u32("max", 1, 500)?.unwrap_or(100);
        args.finish()?;
        let tree = page_read::accessibility_tree(64, 20_000)?;
        let outline: Vec<String> = tree
            .nodes
            .iter()
            .filter(|n| ROLES.contains(&n.role.as_str()) && !n.name.is_empty())
            .take(max as usize)
            .map(|n| format!("{}{} {:?}", "  ".repeat(n.depth as usize / 4), n.role, n.name))
            .collect();
        Ok(json!({"title": tree.info.title, "outline": outline}))
    }
}

bp_sdk::export_component!(Outline);
