#!/usr/bin/env python3
"""Browser Pilot MCP adapter: an MCP server on stdio, built on the official
MCP Python SDK, that reaches Browser Pilot only through `bp bridge --stdio`
(via the reference adapter package, examples/bp_adapter).

- One MCP session (one server process) is one Browser Pilot workspace with
  one lease, heartbeated by the adapter; both are released when the session
  ends (stdin closes, SIGTERM or SIGINT).
- Every broker tool is an MCP tool (`browser.observe` -> `browser_observe`)
  with the broker's JSON schemas; results keep observationId/refs unchanged.
- Screenshots come back as MCP image content read from the artifact file
  (the bounded preview by default); failures are `isError` results whose
  text starts `error[<code>]` and whose structured content holds the code.
- A client may set `_meta["browser-pilot/commandId"]` (and `idempotencyKey`,
  `deadlineMs`) on a tools/call; a retry with the same commandId runs once.
- `bp_events_poll` reads the workspace's event journal with cursors;
  `bp_session_info` names the workspace and lease.

Usage: python3 examples/mcp/server.py [--bp PATH] [--launch [--headed]] ...
"""
import argparse
import functools
import os
import signal
import sys
from contextlib import asynccontextmanager

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path[:0] = [HERE, os.path.dirname(HERE)]  # tool_map/result_map, then bp_adapter

import anyio  # noqa: E402
from mcp import types  # noqa: E402
from mcp.server import Server  # noqa: E402
from mcp.server.stdio import stdio_server  # noqa: E402

import result_map  # noqa: E402
import tool_map  # noqa: E402
from bp_adapter import ArtifactError, BrowserPilotError, Session, close_all  # noqa: E402

VERSION = "0.1.0"
INSTRUCTIONS = """Drive a real Chromium through Browser Pilot.
Loop: browser_observe -> act with its observationId and an element ref
(browser_click, browser_type) -> observe again. Refs from an older observation
fail with error[stale_ref]: observe again. Start with browser_connect
{"launch": {"headless": true}} unless a browser is already connected, then
browser_tabs_open {"url": ...}. browser_screenshot returns an image."""


def make_server(args):
    @asynccontextmanager
    async def lifespan(_server):
        session = Session(args.bp, client_name=args.client_name, client_version=VERSION,
                          lease_ttl_ms=args.lease_ttl_ms, label="mcp",
                          capabilities=["developer.eval"] if args.allow_eval else [])
        await anyio.to_thread.run_sync(session.start)
        try:
            if args.launch:
                try:
                    await anyio.to_thread.run_sync(functools.partial(
                        session.call, "browser.connect", {"launch": {"headless": not args.headed}}))
                except BrowserPilotError as e:  # the agent can still call browser_connect
                    print(f"browser-pilot-mcp: --launch failed: {e}", file=sys.stderr)
            yield {"session": session, "names": {}}
        finally:
            with anyio.CancelScope(shield=True):
                await anyio.to_thread.run_sync(session.close)

    async def known_names(state):
        if not state["names"]:
            tools = await anyio.to_thread.run_sync(state["session"].tools)
            state["names"] = {tool_map.mcp_name(t["name"]): t["name"] for t in tools}
        return state["names"]

    async def list_tools(ctx, params):
        state = ctx.lifespan_context
        tools = await anyio.to_thread.run_sync(state["session"].tools)
        state["names"] = {tool_map.mcp_name(t["name"]): t["name"] for t in tools}
        return types.ListToolsResult(
            tools=[tool_map.to_mcp_tool(t) for t in tools] + tool_map.ADAPTER_TOOLS)

    async def call_tool(ctx, params):
        state = ctx.lifespan_context
        session, args_ = state["session"], dict(params.arguments or {})
        if params.name == tool_map.SESSION_TOOL:
            info = dict(session.info(), adapterPid=os.getpid())
            if args.expose_resume_secret:
                info["resumeSecret"] = session.resume_secret
            return result_map.plain(info)
        try:
            if params.name == tool_map.EVENTS_TOOL:
                page = await anyio.to_thread.run_sync(functools.partial(
                    session.poll_events, args_.get("cursor"), args_.get("limit", 100)))
                return result_map.plain(page)
            name = tool_map.broker_name(params.name, await known_names(state))
            meta = params.meta or {}
            result = await anyio.to_thread.run_sync(functools.partial(
                session.call, name, args_,
                command_id=meta.get(tool_map.META + "commandId"),
                idempotency_key=meta.get(tool_map.META + "idempotencyKey"),
                deadline_ms=meta.get(tool_map.META + "deadlineMs")))
        except BrowserPilotError as e:
            return result_map.failure(e)
        image = None
        if str((result.get("artifact") or {}).get("mime", "")).startswith("image/"):
            try:
                image = await anyio.to_thread.run_sync(functools.partial(
                    session.image, result, prefer_preview=not args.full_size_images))
            except (ArtifactError, OSError) as e:
                return result_map.failure(BrowserPilotError(
                    "internal_error", f"cannot read the screenshot artifact: {e}",
                    command=result.command))
        return result_map.success(result, result.command, image)

    return Server("browser-pilot", version=VERSION, instructions=INSTRUCTIONS,
                  lifespan=lifespan, on_list_tools=list_tools, on_call_tool=call_tool)


async def serve(args):
    server = make_server(args)
    async with anyio.create_task_group() as tg:
        async def stop_on_signal():
            with anyio.open_signal_receiver(signal.SIGTERM, signal.SIGINT) as signals:
                async for _ in signals:
                    # The SDK's stdin reader blocks in a thread that cannot be
                    # cancelled: release the workspace here, then leave at once.
                    await anyio.to_thread.run_sync(close_all)
                    os._exit(0)
        tg.start_soon(stop_on_signal)
        async with stdio_server() as (read, write):
            await server.run(read, write, server.create_initialization_options())
        tg.cancel_scope.cancel()


def main(argv=None):
    p = argparse.ArgumentParser(description="Browser Pilot MCP adapter (stdio)")
    p.add_argument("--bp", default=os.environ.get("BP", "bp"), help="the bp executable (default: $BP or bp)")
    p.add_argument("--client-name", default="browser-pilot-mcp",
                   help="Browser Pilot principal this session initializes as")
    p.add_argument("--lease-ttl-ms", type=int, default=60000, help="lease TTL; heartbeated at a third of it")
    p.add_argument("--launch", action="store_true", help="launch Chromium when the session starts")
    p.add_argument("--headed", action="store_true", help="with --launch: show the browser window")
    p.add_argument("--allow-eval", action="store_true",
                   help="request developer.eval, which browser_eval needs")
    p.add_argument("--full-size-images", action="store_true",
                   help="send full screenshots instead of the bounded preview")
    p.add_argument("--expose-resume-secret", action="store_true",
                   help="for test harnesses: bp_session_info also reports the workspace's "
                        "resume secret, so a probe can watch the workspace")
    anyio.run(serve, p.parse_args(argv))


if __name__ == "__main__":
    main()
