//! The `WebMCP` domain (page-declared tools), typed as chromiumoxide types
//! its generated ones: Chromium has it behind a flag, and chromiumoxide's
//! protocol revision predates it. Only what the broker sends or reads.
//!
//! Tool declarations are the page's own data: their fields stay JSON
//! ([`Value`]) and are read where they are bounded and checked.

use serde::{Deserialize, Serialize};
use serde_json::Value;

/// `WebMCP.enable`: report the tools the page's frames declare (those
/// already there are replayed).
#[derive(Debug, Clone, Default, Serialize)]
pub struct EnableParams {}

/// An empty reply.
#[derive(Debug, Clone, Default, Deserialize)]
pub struct EmptyReturns {}

/// `WebMCP.invokeTool`: call a declared tool in a frame.
#[derive(Debug, Clone, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct InvokeToolParams {
    pub tool_name: String,
    pub frame_id: String,
    pub input: Value,
}

/// The reply to `WebMCP.invokeTool`.
#[derive(Debug, Clone, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct InvokeToolReturns {
    pub invocation_id: String,
}

/// `WebMCP.cancelInvocation`: ask the page to stop a call under way.
#[derive(Debug, Clone, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct CancelInvocationParams {
    pub invocation_id: String,
}

/// `WebMCP.toolsAdded`: the full set a frame's document declares now.
#[derive(Debug, Clone, Deserialize)]
pub struct EventToolsAdded {
    #[serde(default)]
    pub tools: Vec<Value>,
}

/// `WebMCP.toolsRemoved`.
#[derive(Debug, Clone, Deserialize)]
pub struct EventToolsRemoved {
    #[serde(default)]
    pub tools: Vec<Value>,
}

/// `WebMCP.toolInvoked`: a call started (by us or by the page).
#[derive(Debug, Clone, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct EventToolInvoked {
    pub tool_name: String,
    pub frame_id: String,
    pub invocation_id: String,
}

/// `WebMCP.toolResponded`: a call's result; kept whole, it is page data.
#[derive(Debug, Clone, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct EventToolResponded {
    pub invocation_id: String,
}

cdp_method!(EnableParams, "WebMCP.enable", EmptyReturns);
cdp_method!(InvokeToolParams, "WebMCP.invokeTool", InvokeToolReturns);
cdp_method!(
    CancelInvocationParams,
    "WebMCP.cancelInvocation",
    EmptyReturns
);
cdp_method!(EventToolsAdded, "WebMCP.toolsAdded");
cdp_method!(EventToolsRemoved, "WebMCP.toolsRemoved");
cdp_method!(EventToolInvoked, "WebMCP.toolInvoked");
cdp_method!(EventToolResponded, "WebMCP.toolResponded");

#[cfg(test)]
mod tests {
    use super::*;
    use chromiumoxide::types::Method;

    #[test]
    fn commands_serialise_in_the_protocols_names() {
        let invoke = InvokeToolParams {
            tool_name: "add".into(),
            frame_id: "F".into(),
            input: serde_json::json!({"a": 1}),
        };
        assert_eq!(invoke.identifier(), "WebMCP.invokeTool");
        assert_eq!(
            serde_json::to_value(&invoke).unwrap(),
            serde_json::json!({"toolName": "add", "frameId": "F", "input": {"a": 1}})
        );
        assert_eq!(
            serde_json::to_value(EnableParams {}).unwrap(),
            serde_json::json!({})
        );
        let reply: InvokeToolReturns =
            serde_json::from_value(serde_json::json!({"invocationId": "7"})).unwrap();
        assert_eq!(reply.invocation_id, "7");
    }
}
