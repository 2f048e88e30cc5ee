//! Broker tools as MCP tools, one to one: `browser.tabs.open` is
//! `browser_tabs_open` (many hosts take only `[A-Za-z0-9_-]` in names),
//! with the broker's schemas, a title and annotations from the tool's
//! manifest (its `annotations`: read-only, destructive, open world),
//! and `_meta["browser-pilot/tool"]` naming the broker tool. Two tools of
//! the session's own come last.

use serde_json::{json, Value};

/// Prefix of every `_meta` key this server reads or writes.
pub const META: &str = "browser-pilot/";
pub const SESSION_TOOL: &str = "bp_session_info";
pub const EVENTS_TOOL: &str = "bp_events_poll";

/// The MCP name of a broker tool.
pub fn mcp_name(broker_name: &str) -> String {
    broker_name.replace('.', "_")
}

/// "browser.tabs.open" -> "Tabs open".
fn title(name: &str) -> String {
    let words: Vec<&str> = name
        .trim_start_matches("browser.")
        .split(['.', '_'])
        .collect();
    let text = words.join(" ");
    let mut chars = text.chars();
    match chars.next() {
        Some(first) => first.to_uppercase().collect::<String>() + chars.as_str(),
        None => text,
    }
}

/// The MCP tool entry (as JSON) for one broker `tools/list` entry;
/// `consequential`: the session may call a page's consequential tools.
pub fn to_mcp(tool: &Value, consequential: bool) -> Value {
    let name = tool["name"].as_str().unwrap_or_default();
    let mutates = tool["mutates"].as_bool().unwrap_or(true);
    let mut annotations = json!({
        "title": title(name),
        "readOnlyHint": !mutates,
        "idempotentHint": tool["idempotency"] == "idempotent",
        "openWorldHint": tool["annotations"]["openWorld"] == true,
    });
    if mutates {
        // A page's consequential tool (an order, a transfer) is reached
        // through browser_page_tools_call by a session granted it.
        let page_consequential = consequential && name == "browser.page_tools.call";
        let destructive = tool["annotations"]["destructive"] == true;
        annotations["destructiveHint"] = json!(destructive || page_consequential);
    }
    let mut entry = json!({
        "name": mcp_name(name),
        "title": title(name),
        "description": tool["description"].as_str().unwrap_or(name),
        "inputSchema": tool["inputSchema"],
        "annotations": annotations,
        "_meta": {
            format!("{META}tool"): name,
            format!("{META}scope"): tool["scope"],
            format!("{META}capabilities"): tool["capabilities"],
            format!("{META}sensitivity"): tool["sensitivity"],
        },
    });
    // An output schema must describe an object: the broker's always do.
    if tool["outputSchema"]["type"] == "object" {
        entry["outputSchema"] = with_error_shape(&tool["outputSchema"]);
    }
    entry
}

/// The tool's output schema, also admitting the structured content of an
/// `isError` result (`{error}`): MCP asks that structured content match
/// the output schema, and the TypeScript SDK checks error results too.
fn with_error_shape(schema: &Value) -> Value {
    json!({"type": "object", "anyOf": [schema, {
        "type": "object", "required": ["error"],
        "properties": {"error": {"type": "object", "required": ["code", "message"], "properties": {
            "code": {"type": "string", "description": "A stable error code, such as stale_ref."},
            "message": {"type": "string"},
            "context": {"type": "object"}}}}}]})
}

/// The session's own tools.
pub fn session_tools() -> Vec<Value> {
    vec![
        json!({"name": SESSION_TOOL, "title": "Session info",
               "description": "This MCP session's Browser Pilot workspace, lease and protocol version.",
               "inputSchema": {"type": "object", "properties": {}, "additionalProperties": false},
               "annotations": {"readOnlyHint": true, "idempotentHint": true, "openWorldHint": false}}),
        json!({"name": EVENTS_TOOL, "title": "Events poll",
               "description": "Events of this session's workspace after `cursor` (navigations, dialogs, downloads, command status...), oldest first; pass `nextCursor` back to read on.",
               "inputSchema": {"type": "object", "additionalProperties": false, "properties": {
                   "cursor": {"type": "string", "description": "Omit to read from the session start."},
                   "limit": {"type": "integer", "minimum": 1, "maximum": 500, "default": 100}}},
               "annotations": {"readOnlyHint": true, "openWorldHint": false}}),
    ]
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_broker_tool_keeps_its_schemas_and_gets_its_hints() {
        let t = json!({"name": "browser.tabs.close", "description": "Close.", "mutates": true,
            "idempotency": "not_idempotent", "inputSchema": {"type": "object"},
            "outputSchema": {"type": "object"}, "scope": "workspace", "capabilities": ["tabs-manage"],
            "annotations": {"readOnly": false, "destructive": true, "openWorld": false},
            "sensitivity": {"input": [], "output": []}});
        let m = to_mcp(&t, false);
        assert_eq!(m["name"], "browser_tabs_close");
        assert_eq!(m["title"], "Tabs close");
        assert_eq!(m["annotations"]["destructiveHint"], true);
        assert_eq!(m["annotations"]["readOnlyHint"], false);
        assert_eq!(m["outputSchema"]["type"], "object");
        assert_eq!(m["outputSchema"]["anyOf"][0], json!({"type": "object"}));
        assert_eq!(m["outputSchema"]["anyOf"][1]["required"], json!(["error"]));
        assert_eq!(m["_meta"]["browser-pilot/tool"], "browser.tabs.close");
        let read = to_mcp(
            &json!({"name": "browser.observe", "mutates": false,
            "idempotency": "idempotent", "inputSchema": {"type": "object"}}),
            false,
        );
        assert_eq!(read["annotations"]["readOnlyHint"], true);
        assert!(read["annotations"].get("destructiveHint").is_none());
        assert!(read.get("outputSchema").is_none());
        let nav = to_mcp(
            &json!({"name": "browser.navigate", "mutates": true,
                    "annotations": {"destructive": false, "openWorld": true}}),
            true,
        );
        assert_eq!(nav["annotations"]["openWorldHint"], true);
        assert_eq!(nav["annotations"]["destructiveHint"], false);
        // Page tools are destructive only for a session that may call
        // the consequential ones.
        let call = json!({"name": "browser.page_tools.call", "mutates": true});
        assert_eq!(
            to_mcp(&call, false)["annotations"]["destructiveHint"],
            false
        );
        assert_eq!(to_mcp(&call, true)["annotations"]["destructiveHint"], true);
    }
}
