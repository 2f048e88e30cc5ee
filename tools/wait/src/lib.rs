//! The wait family: `browser.wait`, a bounded wait for something to
//! become true on the page (text a person sees, an element's state, the
//! URL, an element whose text stopped changing). The component checks the
//! request and resolves the ref; the host polls the page.

wit_bindgen::generate!({
    world: "wait",
    path: "../../tools-wit",
    with: { "browser-pilot:tools/types@0.1.0": bp_sdk::types },
});

use bp_sdk::spec::{target_id_schema, with_common};
use bp_sdk::{invalid, Args, CallContext, Component, ToolError, ToolSpec};
use browser_pilot::tools::page_read;
use browser_pilot::tools::page_wait::{self, Condition, NodeCondition, NodeState, StableCondition};
use serde_json::{json, Map, Value};

/// The default and largest wait.
const DEFAULT_TIMEOUT_MS: u32 = 5_000;
const MAX_TIMEOUT_MS: u32 = 30_000;
/// Time kept back from the call's deadline to answer in.
const REPLY_MARGIN_MS: u64 = 250;
/// Longest text or glob a condition may name.
const MAX_TEXT: usize = 2_000;

struct Wait;

fn spec() -> ToolSpec {
    let mut out = Map::new();
    out.insert("satisfied".into(), json!({"type": "boolean"}));
    out.insert("waitedMs".into(), json!({"type": "integer"}));
    out.insert("polls".into(), json!({"type": "integer"}));
    out.insert(
        "condition".into(),
        json!({"enum": ["text", "textGone", "state", "url", "stable"]}),
    );
    ToolSpec::read(
        "browser.wait",
        "Wait, bounded, until text appears or goes, an observed element becomes visible, hidden, enabled or detached, the URL matches a glob, or an element's text stops changing; fails with `timeout` otherwise.",
        &["page-read", "page-wait"],
    )
    .cooperative()
    .schemas(
        json!({
            "type": "object",
            "additionalProperties": false,
            "properties": {
                "targetId": target_id_schema(),
                "text": {"type": "string", "minLength": 1, "maxLength": MAX_TEXT, "description": "Wait until this text is visible on the page."},
                "textGone": {"type": "string", "minLength": 1, "maxLength": MAX_TEXT, "description": "Wait until this text is no longer visible."},
                "observationId": {"type": "string"},
                "ref": {"type": "integer", "minimum": 1},
                "state": {"enum": ["visible", "hidden", "enabled", "detached"], "description": "With observationId and ref."},
                "url": {"type": "string", "minLength": 1, "maxLength": MAX_TEXT, "description": "Wait until the URL matches this glob (* any run, ? one character)."},
                "stable": {"type": "boolean", "description": "With observationId and ref: wait until the element's text has not changed for quietMs."},
                "quietMs": {"type": "integer", "minimum": 50, "maximum": 10000, "default": 500},
                "timeoutMs": {"type": "integer", "minimum": 1, "maximum": MAX_TIMEOUT_MS, "default": DEFAULT_TIMEOUT_MS}
            }
        }),
        json!({"type": "object", "required": ["satisfied", "waitedMs"], "properties": Value::Object(with_common(out))}),
    )
}

fn state(name: &str) -> Result<NodeState, ToolError> {
    Ok(match name {
        "visible" => NodeState::Visible,
        "hidden" => NodeState::Hidden,
        "enabled" => NodeState::Enabled,
        "detached" => NodeState::Detached,
        other => {
            return Err(invalid(format!(
                "`state` must be visible, hidden, enabled or detached, not `{other}`"
            )))
        }
    })
}

/// The one condition the arguments name, and its name in the result.
fn condition(args: &mut Args) -> Result<(Condition, &'static str), ToolError> {
    let text = args.opt_str("text")?;
    let gone = args.opt_str("textGone")?;
    let url = args.opt_str("url")?;
    let node_state = args.opt_str("state")?;
    let stable = args.opt_bool("stable")?.unwrap_or(false);
    let quiet = args.opt_u32("quietMs", 50, 10_000)?;
    let observation = args.opt_str("observationId")?;
    let reference = args.opt_ref("ref")?;
    let named = [
        text.is_some(),
        gone.is_some(),
        url.is_some(),
        node_state.is_some(),
        stable,
    ];
    if named.iter().filter(|n| **n).count() != 1 {
        return Err(invalid(
            "name exactly one condition: text, textGone, url, state (with ref) or stable (with ref)",
        ));
    }
    let uses_ref = node_state.is_some() || stable;
    if uses_ref != (observation.is_some() && reference.is_some()) {
        return Err(invalid(if uses_ref {
            "`state` and `stable` need `observationId` and `ref`"
        } else {
            "`observationId` and `ref` go with `state` or `stable`"
        }));
    }
    if quiet.is_some() && !stable {
        return Err(invalid("`quietMs` goes with `stable`"));
    }
    let node = match (&observation, reference) {
        (Some(o), Some(r)) => Some(page_read::resolve_ref(o, r)?),
        _ => None,
    };
    Ok(match (text, gone, url, node_state, node) {
        (Some(t), ..) => (Condition::Text(t), "text"),
        (_, Some(t), ..) => (Condition::TextGone(t), "textGone"),
        (_, _, Some(u), ..) => (Condition::Url(u), "url"),
        (_, _, _, Some(s), Some(node)) => (
            Condition::Node(NodeCondition {
                node,
                state: state(&s)?,
            }),
            "state",
        ),
        (_, _, _, None, Some(node)) => (
            Condition::Stable(StableCondition {
                node,
                quiet_ms: quiet.unwrap_or(500),
            }),
            "stable",
        ),
        _ => return Err(invalid("no condition to wait for")),
    })
}

impl Component for Wait {
    fn specs() -> Vec<ToolSpec> {
        vec![spec()]
    }

    fn call(ctx: &CallContext, name: &str, mut args: Args) -> Result<Value, ToolError> {
        if name != "browser.wait" {
            return Err(invalid(format!("unknown tool `{name}`")));
        }
        args.allow(&["targetId"]);
        let timeout = args
            .opt_u32("timeoutMs", 1, MAX_TIMEOUT_MS)?
            .unwrap_or(DEFAULT_TIMEOUT_MS);
        let (condition, kind) = condition(&mut args)?;
        args.finish()?;
        // Answer before the call's own deadline ends it.
        let budget = ctx.deadline_ms.saturating_sub(REPLY_MARGIN_MS);
        let timeout = u32::try_from(u64::from(timeout).min(budget)).unwrap_or(timeout);
        let waited = page_wait::wait_for(&condition, timeout)?;
        Ok(
            json!({"satisfied": true, "waitedMs": waited.waited_ms, "polls": waited.polls, "condition": kind}),
        )
    }
}

bp_sdk::export_component!(Wait);
