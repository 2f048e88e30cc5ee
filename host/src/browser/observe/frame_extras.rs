//! On the full-tree path (a page with frames, or a frame selected), the
//! elements the page walk lists by itself: those that take clicks without
//! an interactive role (`clickable`: a click handler, a tab stop, the
//! pointer cursor) and scroll containers (`scrollable`). Chromium's
//! accessibility tree calls them `generic` (or ignores them), so the walk
//! (`interactive_walk.js`, the same rules as the default path) is run in
//! each frame document the tree read, and its answer maps backend node
//! IDs to the kind and short name it gave them. One page call per frame
//! document; a frame that does not answer keeps only what its tree says.

use crate::browser::call::wire::{call_args, call_function};
use crate::browser::call::TargetCall;
use crate::browser::observe::walk::{FAST, WALK};
use crate::browser::observe::walk_agent::with_node_ids;
use crate::ids::SessionId;
use chromiumoxide::cdp::browser_protocol::dom::{BackendNodeId, ResolveNodeParams};
use serde_json::{json, Value};
use std::collections::HashMap;

/// Candidates the walk looks at, at most, in one frame document.
const CAP: u32 = 5_000;

/// What the walk listed by itself in one document: backend node ID ->
/// (`clickable` or `scrollable`, its short name).
pub(in crate::browser) type Extras = HashMap<i64, (String, String)>;

/// Run on the frame's document: its walk, kept to what the walk listed
/// by itself, as `[element, kind, name, ...]`.
fn extras_js() -> String {
    format!(
        "function (cap) {{ const FAST = ({FAST}); const WALK = ({WALK}); \
         const out = WALK(cap), extra = JSON.parse(out.extra), r = []; \
         out.forEach((el, i) => {{ const f = extra[i]; if (f && f.k) r.push(el, f.k, f.n || ''); }}); \
         return r; }}"
    )
}

/// The triples of a deep-serialized `[element, kind, name, ...]` answer.
pub(in crate::browser) fn parse(answer: &Value) -> Extras {
    let items = answer["deepSerializedValue"]["value"]
        .as_array()
        .map_or(&[][..], Vec::as_slice);
    let mut out = Extras::new();
    for t in items.chunks(3) {
        let [el, kind, name] = t else { continue };
        let backend = match el["type"].as_str() {
            Some("node") => el["value"]["backendNodeId"].as_i64(),
            _ => None,
        };
        let (Some(b), Some(k), Some(n)) = (backend, kind["value"].as_str(), name["value"].as_str())
        else {
            continue;
        };
        if k == "clickable" || k == "scrollable" {
            out.insert(b, (k.to_string(), n.to_string()));
        }
    }
    out
}

impl TargetCall {
    /// What the walk lists by itself in the document whose backend node
    /// is `document`, on `session`; empty when the frame does not answer.
    pub(in crate::browser) async fn frame_extras(
        &mut self,
        session: &str,
        document: Option<i64>,
    ) -> Extras {
        let Some(document) = document else {
            return Extras::new();
        };
        let group = self.group.clone();
        let resolve = ResolveNodeParams {
            backend_node_id: Some(BackendNodeId::new(document)),
            object_group: Some(group.clone()),
            ..Default::default()
        };
        // The reply is a remote object: read as JSON (its enums drift).
        let resolved = self.cmd_on_raw(session, &resolve).await;
        let Some(object) = resolved
            .ok()
            .and_then(|r| r["object"]["objectId"].as_str().map(str::to_string))
        else {
            return Extras::new();
        };
        self.group_sessions.insert(SessionId::from(session));
        let mut call = call_function(&object, &extras_js());
        call.arguments = Some(call_args(&json!([{ "value": CAP }])));
        call.return_by_value = Some(false);
        call.object_group = Some(group);
        call.serialization_options = Some(with_node_ids());
        match self.cmd_on_raw(session, &call).await {
            Ok(reply) if reply.get("exceptionDetails").is_none() => parse(&reply["result"]),
            _ => Extras::new(),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn triples_give_backend_kind_and_name_and_odd_entries_are_skipped() {
        let answer = json!({"deepSerializedValue": {"type": "array", "value": [
            {"type": "node", "value": {"backendNodeId": 7}},
            {"type": "string", "value": "clickable"},
            {"type": "string", "value": "Open box"},
            {"type": "node", "value": {"backendNodeId": 9}},
            {"type": "string", "value": "scrollable"},
            {"type": "string", "value": "Feed"},
            {"type": "string", "value": "not a node"},
            {"type": "string", "value": "clickable"},
            {"type": "string", "value": "x"},
            {"type": "node", "value": {"backendNodeId": 11}},
            {"type": "string", "value": "button"},
            {"type": "string", "value": "y"}
        ]}});
        let e = parse(&answer);
        assert_eq!(e.len(), 2);
        assert_eq!(e[&7], ("clickable".to_string(), "Open box".to_string()));
        assert_eq!(e[&9], ("scrollable".to_string(), "Feed".to_string()));
    }
}
