//! The page walk, made once per document and called after that.
//!
//! The walk (`scripts/interactive_walk.js`, with `interactive_fast.js` and the
//! matching in `rewalk.js`) is about 12 KB of script. Sent as source, the
//! page compiles it and runs it cold on every observation; on a small
//! form that took 2 to 3 ms against under 1 ms for the same function
//! already made. So the first walk of a document makes an *agent*, an
//! object holding the walk, and the walk's list carries it back
//! (`out.agent`). Later walks of that document call the agent.
//!
//! The agent is reached only through the broker's remote object: the page
//! cannot see it. Its object ID lives in the same object group as the
//! walk's candidates, so it is held with the tab's latest observation
//! (`observe/held_refs.rs`) and goes when that group goes. Each walk that answers
//! with a list carries the agent again, in its own group. A walk over
//! known elements that answers with one string keeps the held group, and
//! with it the agent. If the agent cannot be used (its document or
//! context is gone), the walk is sent as source again and makes a new one.
//!
//! A fresh walk's answer also comes serialized one level deep, which
//! gives each candidate's backend node ID in the same reply: plain
//! candidates need no `DOM.describeNode` each (on a small form, one
//! round trip of about 0.5 ms less on a document's first observation).
//! Only node IDs are wanted, so nodes are serialized without their
//! children or shadow trees. A walk over known elements is not
//! serialized: it mostly answers with one string, which would then come
//! twice, and its list names most candidates already.

use crate::browser::call::wire::{call_args, call_function};
use crate::browser::call::TargetCall;
use crate::browser::observe::walk::{page_unreachable, FAST, WALK};
use crate::error::{BpError, BpResult};
use chromiumoxide::cdp::js_protocol::runtime::{
    EvaluateParams, SerializationOptions, SerializationOptionsSerialization,
};
use serde_json::{json, Value};

/// Matching the walk's candidates against the known elements.
const MATCH: &str = include_str!("scripts/rewalk.js");

/// The expression that makes the agent: `walk(cap)` answers the list,
/// `rewalk(cap, roles, want, counts, known)` the list or one string
/// (`observe/rewalk.rs`). Every list carries the agent as `agent`.
/// The agent is frozen, and put on the list as an own property, so no
/// setter of the page's sees or replaces it.
fn agent_source() -> String {
    format!(
        "(() => {{ const FAST = ({FAST}); const WALK = ({WALK}); const MATCH = ({MATCH}); \
         const carry = out => Object.defineProperty(out, 'agent', {{value: agent, enumerable: true}}); \
         const agent = Object.freeze({{ \
           walk(cap) {{ return carry(WALK(cap)); }}, \
           rewalk(cap, roles, want, counts, known) {{ \
             return MATCH(carry(WALK(cap)), cap, roles, want, counts, known); }} }}); \
         return agent; }})()"
    )
}

/// How a fresh walk's list is serialized besides its remote object: its
/// elements one level deep, as nodes with no children or shadow trees
/// (Chromium's DOM serialization options).
pub(in crate::browser) fn with_node_ids() -> SerializationOptions {
    SerializationOptions {
        serialization: SerializationOptionsSerialization::Deep,
        max_depth: Some(1),
        additional_parameters: Some(json!({"maxNodeDepth": 0, "includeShadowTree": "none"})),
    }
}

impl TargetCall {
    /// The agent of the document shown now, from the tab's held group.
    pub(in crate::browser) fn held_agent(&self) -> Option<String> {
        self.held_here()?.agent
    }

    /// Walk the page for its first `cap` candidates; the reply is the
    /// list (in `group`) or the exception the page threw.
    pub(in crate::browser) async fn agent_walk(
        &mut self,
        cap: usize,
        group: &str,
    ) -> BpResult<Value> {
        if let Some(agent) = self.observe.agent.clone() {
            let mut call = call_function(&agent, "function (cap) { return this.walk(cap); }");
            call.arguments = Some(call_args(&json!([{ "value": cap }])));
            call.return_by_value = Some(false);
            call.object_group = Some(group.to_string());
            call.serialization_options = Some(with_node_ids());
            match self.cmd_raw(&call).await {
                Ok(reply) => {
                    self.registry.count_walk(true);
                    return Ok(reply);
                }
                // A page that does not answer, or crashed, would not
                // answer the source either.
                Err(e) if page_unreachable(&e) => return Err(e),
                Err(e) => {
                    tracing::debug!("the walk agent is gone ({}); making it again", e.message);
                    self.observe.agent = None;
                }
            }
        }
        let expression = format!("{}.walk({cap})", agent_source());
        let mut walk = EvaluateParams::new(expression);
        walk.object_group = Some(group.to_string());
        walk.return_by_value = Some(false);
        walk.serialization_options = Some(with_node_ids());
        let reply = self.cmd_raw(&walk).await?;
        self.registry.count_walk(false);
        Ok(reply)
    }

    /// Walk the page and match its candidates against the known elements
    /// (`args`: cap, roles, want, counts, then one object per known
    /// element). Needs an agent; an unusable one is dropped.
    pub(in crate::browser) async fn agent_rewalk(
        &mut self,
        args: Vec<Value>,
        group: &str,
    ) -> BpResult<Value> {
        let agent = self
            .observe
            .agent
            .clone()
            .ok_or_else(|| BpError::internal("no walk agent"))?;
        let mut call = call_function(
            &agent,
            "function (cap, roles, want, counts, ...known) { return this.rewalk(cap, roles, want, counts, known); }",
        );
        call.arguments = Some(call_args(&Value::Array(args)));
        call.return_by_value = Some(false);
        call.object_group = Some(group.to_string());
        let reply = self.cmd_raw(&call).await;
        match reply {
            Ok(_) => self.registry.count_walk(true),
            Err(_) => self.observe.agent = None,
        }
        reply
    }
}
