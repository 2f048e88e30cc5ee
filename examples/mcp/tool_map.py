"""Broker tools as MCP tools, and the adapter's own two tools.

Broker names (`browser.tabs.open`) become MCP names with `_` for `.`
(`browser_tabs_open`), since many MCP hosts accept only [A-Za-z0-9_-] in
tool names; `_meta["browser-pilot/tool"]` keeps the broker name. Input and
output schemas are passed through unchanged.
"""
from mcp import types

META = "browser-pilot/"  # prefix of every _meta key this adapter reads or writes

SESSION_TOOL = "bp_session_info"
EVENTS_TOOL = "bp_events_poll"

ADAPTER_TOOLS = [
    types.Tool(
        name=SESSION_TOOL,
        description="This MCP session's Browser Pilot workspace, lease and protocol version.",
        input_schema={"type": "object", "properties": {}, "additionalProperties": False},
        annotations=types.ToolAnnotations(read_only_hint=True, idempotent_hint=True),
    ),
    types.Tool(
        name=EVENTS_TOOL,
        description="Events of this session's workspace after `cursor` (navigations, dialogs, "
                    "downloads, command status...), oldest first; pass `nextCursor` back to read on.",
        input_schema={"type": "object", "additionalProperties": False, "properties": {
            "cursor": {"type": "string", "description": "Omit to read from the session start."},
            "limit": {"type": "integer", "minimum": 1, "maximum": 500, "default": 100}}},
        annotations=types.ToolAnnotations(read_only_hint=True),
    ),
]


def mcp_name(broker_name):
    return broker_name.replace(".", "_")


def broker_name(name, known):
    """The broker name for an MCP tool name. Names the broker did not list
    (a tool its policy denies) still map, so the broker answers for them."""
    return known.get(name) or name.replace("_", ".")


def to_mcp_tool(tool):
    readonly = not tool.get("mutates", True)
    return types.Tool(
        name=mcp_name(tool["name"]),
        description=tool.get("description") or tool["name"],
        input_schema=tool["inputSchema"],
        output_schema=tool.get("outputSchema"),
        annotations=types.ToolAnnotations(
            read_only_hint=readonly,
            idempotent_hint=tool.get("idempotency") == "idempotent",
            open_world_hint=True),
        _meta={META + "tool": tool["name"], META + "capabilities": tool.get("capabilities", []),
               META + "sensitivity": tool.get("sensitivity", {})},
    )
