//! The network-rules family: block / mock / header rules on URL globs and
//! HTTP auth credentials, all scoped to the calling workspace.

wit_bindgen::generate!({
    world: "network-rules",
    path: "../../tools-wit",
    with: { "browser-pilot:tools/types@0.1.0": bp_sdk::types },
});

mod validate;

use bp_sdk::spec::target_id_schema;
use bp_sdk::{invalid, Args, CallContext, Component, ToolError, ToolSpec};
use browser_pilot::tools::network_modify::{self as host, RuleAction};
use serde_json::{json, Value};

struct Rules;

fn specs() -> Vec<ToolSpec> {
    let caps = &["network-modify"];
    let headers = json!({"type": "object", "additionalProperties": {"type": "string"}, "x-browser-pilot-sensitivity": ["credential"]});
    vec![
        ToolSpec::mutating("browser.network.rules.add", "Block, mock or add headers to requests whose URL matches a glob, for this workspace's tabs (or one tab with targetId).", caps)
            .destructive()
            .schemas(
                json!({"type": "object", "additionalProperties": false, "required": ["pattern", "action"], "properties": {
                    "targetId": target_id_schema(),
                    "pattern": {"type": "string", "minLength": 1, "maxLength": 2048},
                    "action": {"enum": ["block", "mock", "headers"]},
                    "mock": {"type": "object", "properties": {"status": {"type": "integer"}, "headers": headers.clone(),
                        "body": {"type": "string", "x-browser-pilot-sensitivity": ["credential"]}}},
                    "headers": headers}}),
                json!({"type": "object", "required": ["ruleId"], "properties": {"ruleId": {"type": "string"}}}),
            )
            .sensitivity(&["credential"], &[]),
        ToolSpec::mutating("browser.network.rules.remove", "Remove one of this workspace's network rules.", caps).destructive().schemas(
            json!({"type": "object", "additionalProperties": false, "required": ["ruleId"], "properties": {"targetId": target_id_schema(), "ruleId": {"type": "string"}}}),
            json!({"type": "object", "properties": {"removed": {"type": "boolean"}}}),
        ),
        ToolSpec::read("browser.network.rules.list", "This workspace's network rules in precedence order.", caps).schemas(
            json!({"type": "object", "additionalProperties": false, "properties": {"targetId": target_id_schema()}}),
            json!({"type": "object", "properties": {"rules": {"type": "array"}}}),
        ),
        ToolSpec::mutating("browser.auth.set", "Answer HTTP authentication from an origin with these credentials (this workspace only).", caps)
            .schemas(
                json!({"type": "object", "additionalProperties": false, "required": ["origin", "username", "password"], "properties": {
                    "targetId": target_id_schema(),
                    "origin": {"type": "string"},
                    "username": {"type": "string", "x-browser-pilot-sensitivity": ["credential"]},
                    "password": {"type": "string", "x-browser-pilot-sensitivity": ["credential"]}}}),
                json!({"type": "object", "properties": {"origin": {"type": "string"}}}),
            )
            .sensitivity(&["credential"], &[]),
        ToolSpec::mutating("browser.auth.clear", "Forget HTTP credentials for an origin, or all of this workspace's.", caps).schemas(
            json!({"type": "object", "additionalProperties": false, "properties": {"targetId": target_id_schema(), "origin": {"type": "string"}}}),
            json!({"type": "object", "properties": {"cleared": {"type": "integer"}}}),
        ),
    ]
}

fn action_json(a: &RuleAction) -> Value {
    match a {
        RuleAction::Block => json!({"action": "block"}),
        RuleAction::Mock(m) => {
            json!({"action": "mock", "mock": {"status": m.status, "headerNames": m.headers.iter().map(|h| h.name.clone()).collect::<Vec<_>>()}})
        }
        RuleAction::Headers(h) => {
            json!({"action": "headers", "headerNames": h.iter().map(|h| h.name.clone()).collect::<Vec<_>>()})
        }
    }
}

impl Component for Rules {
    fn specs() -> Vec<ToolSpec> {
        specs()
    }

    fn call(_ctx: &CallContext, name: &str, mut args: Args) -> Result<Value, ToolError> {
        // A targetId limits a new rule to that target.
        let this_target = args.opt_str("targetId")?.is_some();
        match name {
            "browser.network.rules.add" => {
                let pattern = validate::pattern(&args.str("pattern")?)?;
                let action = validate::action(&mut args)?;
                args.finish()?;
                let id = host::add_rule(&pattern, &action, this_target)?;
                Ok(json!({"ruleId": id}))
            }
            "browser.network.rules.remove" => {
                let id = args.str("ruleId")?;
                args.finish()?;
                host::remove_rule(&id)?;
                Ok(json!({"removed": true}))
            }
            "browser.network.rules.list" => {
                args.finish()?;
                let rules: Vec<Value> = host::list_rules()?
                    .iter()
                    .map(|r| {
                        let mut v = action_json(&r.action);
                        v["ruleId"] = json!(r.rule_id);
                        v["pattern"] = json!(r.pattern);
                        v["targetId"] = json!(r.target_id);
                        v
                    })
                    .collect();
                Ok(json!({"rules": rules}))
            }
            "browser.auth.set" => {
                let origin = validate::origin(&args.str("origin")?)?;
                let user = args.str("username")?;
                let password = args.str("password")?;
                args.finish()?;
                host::set_auth(&origin, &user, &password)?;
                Ok(json!({"origin": origin}))
            }
            "browser.auth.clear" => {
                let origin = args
                    .opt_str("origin")?
                    .map(|o| validate::origin(&o))
                    .transpose()?;
                args.finish()?;
                Ok(json!({"cleared": host::clear_auth(origin.as_deref())?}))
            }
            other => Err(invalid(format!("unknown tool `{other}`"))),
        }
    }
}

bp_sdk::export_component!(Rules);
