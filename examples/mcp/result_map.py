"""Broker outcomes as MCP tool results.

- success: `structuredContent` is the broker's result object, unchanged
  (observationId, refs, targetId...), with the same JSON as text;
- a screenshot also gets MCP image content read from the artifact file:
  the bounded preview (longest edge <= 1280 px) when there is one;
- a failure is an `isError` result: text `error[<code>]: <message>` and
  `structuredContent.error` = {code, message, retryable, context?};
- `_meta["browser-pilot/command"]` carries the command record
  ({commandId, idempotencyKey, state, tool}) in both cases.
"""
import json

from mcp import types

from tool_map import META


def _text(obj):
    return types.TextContent(text=json.dumps(obj, separators=(",", ":"), ensure_ascii=False))


def success(result, command, image=None):
    content = [_text(dict(result))]
    if image is not None:
        content.insert(0, types.ImageContent(data=image.base64(), mime_type=image.mime))
    return types.CallToolResult(content=content, structured_content=dict(result),
                                _meta={META + "command": command} if command else None)


def failure(err):
    """From a BrowserPilotError (or anything with code/message/to_dict)."""
    detail = err.to_dict()
    command = detail.pop("command", None)
    text = f"error[{err.code}]: {err.message}"
    if err.context:
        text += "\ncontext: " + json.dumps(err.context, separators=(",", ":"))
    return types.CallToolResult(content=[types.TextContent(text=text)], is_error=True,
                                structured_content={"error": detail},
                                _meta={META + "command": command} if command else None)


def plain(obj):
    return types.CallToolResult(content=[_text(obj)], structured_content=obj)
