//! The network family: `browser.network.log`, the workspace's request
//! journal (URLs, methods, statuses, outcomes; never headers or bodies).

wit_bindgen::generate!({
    world: "network",
    path: "../../tools-wit",
    with: { "browser-pilot:tools/types@0.1.0": bp_sdk::types },
});

use bp_sdk::spec::{target_id_schema, with_common};
use bp_sdk::{invalid, Args, CallContext, Component, ToolError, ToolSpec};
use browser_pilot::tools::network_read;
use serde_json::{json, Map, Value};

const DEFAULT_LIMIT: u32 = 100;
const MAX_LIMIT: u32 = 1000;

struct Network;

fn spec() -> ToolSpec {
    let mut props = Map::new();
    props.insert(
        "requests".into(),
        json!({"type": "array", "items": {"type": "object", "properties": {
            "seq": {"type": "integer"}, "targetId": {"type": "string"},
            "url": {"type": "string", "x-browser-pilot-sensitivity": ["browser_data"]},
            "method": {"type": "string"}, "status": {"type": "integer"}, "resourceType": {"type": "string"},
            "outcome": {"enum": ["pending", "completed", "redirected", "failed", "blocked", "mocked"]}, "ruleId": {"type": "string"}}}}),
    );
    props.insert("nextSeq".into(), json!({"type": "integer"}));
    ToolSpec::read(
        "browser.network.log",
        "Requests made by this workspace's controlled tabs, across navigations; with targetId only that tab's.",
        &["network-read"],
    )
    .schemas(
        json!({"type": "object", "additionalProperties": false, "properties": {
            "targetId": target_id_schema(),
            "onlyTarget": {"type": "boolean", "default": false, "description": "Only the target's own requests."},
            "sinceSeq": {"type": "integer", "minimum": 0, "default": 0},
            "limit": {"type": "integer", "minimum": 1, "maximum": MAX_LIMIT, "default": DEFAULT_LIMIT}}}),
        json!({"type": "object", "required": ["requests", "nextSeq"], "properties": Value::Object(with_common(props))}),
    )
    .sensitivity(&[], &["browser_data"])
}

impl Component for Network {
    fn specs() -> Vec<ToolSpec> {
        vec![spec()]
    }

    fn call(_ctx: &CallContext, name: &str, mut args: Args) -> Result<Value, ToolError> {
        if name != "browser.network.log" {
            return Err(invalid(format!("unknown tool `{name}`")));
        }
        // A targetId (or onlyTarget) limits the log to that target.
        let only =
            args.opt_str("targetId")?.is_some() | args.opt_bool("onlyTarget")?.unwrap_or(false);
        let since = args.opt_u32("sinceSeq", 0, u32::MAX)?.unwrap_or(0);
        let limit = args
            .opt_u32("limit", 1, MAX_LIMIT)?
            .unwrap_or(DEFAULT_LIMIT);
        args.finish()?;
        let page = network_read::read_journal(only, u64::from(since), limit)?;
        let requests: Vec<Value> = page
            .requests
            .into_iter()
            .map(|r| {
                let mut v = json!({"seq": r.seq, "targetId": r.target_id, "url": r.url, "method": r.method,
                    "resourceType": r.resource_type, "outcome": r.outcome});
                if let Some(s) = r.status {
                    v["status"] = json!(s);
                }
                if let Some(id) = r.rule_id {
                    v["ruleId"] = json!(id);
                }
                v
            })
            .collect();
        Ok(json!({"requests": requests, "nextSeq": page.next_seq}))
    }
}

bp_sdk::export_component!(Network);
