"""Driver for the MCP adapter (`bp mcp`, the server inside the executable), through the official
MCP Python client over stdio, exactly as an MCP host talks to it.

Tool names: broker `a.b.c` is MCP `a_b_c`. Errors: an `isError` result whose
structuredContent.error.code is the stable code (the text must say
`error[<code>]` too). Command IDs go in `_meta["browser-pilot/commandId"]`.
The kit is synchronous, so the client lives in its own thread and event loop.
"""
import asyncio
import base64
import concurrent.futures
import os
import sys
import threading
import time

from ..driver import Result

META = "browser-pilot/"


class _ClientThread:
    def __init__(self, params, mode):
        from mcp import Client
        self._client_cls, self.params, self.mode = Client, params, mode
        self.ready, self.error, self.loop = threading.Event(), None, None
        self.thread = threading.Thread(target=lambda: asyncio.run(self._main()),
                                       name="mcp-client", daemon=True)
        self.thread.start()
        self.ready.wait(120)
        if self.error:
            raise self.error
        if self.loop is None:
            raise TimeoutError("the MCP client did not connect within 120 s")

    async def _main(self):
        queue = asyncio.Queue()
        try:
            async with self._client_cls(self.params, mode=self.mode,
                                        read_timeout_seconds=120) as client:
                self.client, self.queue, self.loop = client, queue, asyncio.get_running_loop()
                self.ready.set()
                while (job := await queue.get()) is not None:
                    fn, fut = job
                    try:
                        fut.set_result(await fn(client))
                    except Exception as e:
                        fut.set_exception(e)
        except BaseException as e:  # noqa: BLE001 - reported to the kit thread
            self.error = e
            self.ready.set()

    def run(self, fn, timeout=150):
        fut = concurrent.futures.Future()
        self.loop.call_soon_threadsafe(self.queue.put_nowait, (fn, fut))
        return fut.result(timeout)

    def close(self):
        if self.loop is not None and self.thread.is_alive():
            self.loop.call_soon_threadsafe(self.queue.put_nowait, None)
        self.thread.join(30)


class McpDriver:
    name = "mcp"
    mode = "legacy"  # the initialize handshake today's MCP hosts use
    # Python modules the driver needs, each with the command that installs it.
    requires = (("mcp", "the MCP Python SDK",
                 "python3 -m pip install -r tests/mcp/requirements.txt"),)

    def __init__(self):
        self.c, self.info, self._pids = None, {}, {}

    def start(self, env):
        from mcp import StdioServerParameters
        # `bp mcp`: the MCP server inside the bp executable.
        params = StdioServerParameters(
            command=env.bp,
            args=["mcp", "--client-name", env.client_name,
                  "--lease-ttl-ms", str(env.lease_ttl_ms), "--expose-resume-secret"],
            env=env.process_env())
        self.c = _ClientThread(params, self.mode)
        self.info = self.session()
        self._pids = {self.info["adapterPid"]: "mcp"}

    def _call(self, name, args=None, meta=None):
        return self.c.run(lambda cl: cl.call_tool(name, args or {}, meta=meta))

    def session(self):
        return self._call("bp_session_info").structured_content

    def list_tools(self):
        out = []
        for t in self.c.run(lambda cl: cl.list_tools()).tools:
            name = (t.meta or {}).get(META + "tool") or t.name.replace("_", ".")
            out.append({"name": name, "description": t.description, "inputSchema": t.input_schema,
                        "outputSchema": _tool_schema(t.output_schema)})
        return out

    def call(self, tool, args, command_id=None):
        meta = {META + "commandId": command_id} if command_id else None
        try:
            r = self._call(tool.replace(".", "_"), args, meta)
        except Exception as e:  # a protocol-level error carries no stable code
            return Result(False, error_message=f"{type(e).__name__}: {e}", raw=e)
        command = (r.meta or {}).get(META + "command") or {}
        sc = r.structured_content if isinstance(r.structured_content, dict) else None
        if not r.is_error:
            return Result(True, content=sc, command_id=command.get("commandId"), raw=r)
        text = " ".join(b.text for b in r.content if getattr(b, "type", "") == "text")
        code = ((sc or {}).get("error") or {}).get("code")
        if code and f"error[{code}]" not in text:
            code = None  # the text an LLM reads must carry the same code
        return Result(False, error_code=code, error_message=text,
                      command_id=command.get("commandId"), raw=r)

    def observation_id_of(self, result):
        return (result.content or {}).get("observationId")

    def image_of(self, result):
        for block in getattr(result.raw, "content", []):
            if getattr(block, "type", "") == "image":
                return block.mime_type, base64.b64decode(block.data)
        return None

    def poll_events(self, cursor):
        r = self._call("bp_events_poll", {"cursor": cursor})
        page = r.structured_content or {}
        if r.is_error:
            raise RuntimeError(f"bp_events_poll failed: {r.content}")
        return page.get("events", []), page.get("nextCursor"), page.get("hasMore", False)

    def relayed_events(self):
        return None  # this adapter polls the journal; it does not push events

    def stop(self):
        if self.c is None:
            return
        c, self.c = self.c, None
        c.close()  # closes the server's stdin: the session ends and releases
        end = time.monotonic() + 15
        pid = self.info.get("adapterPid")
        while pid and time.monotonic() < end and _alive(pid):
            time.sleep(0.05)

    def pids(self):
        return self._pids


def _alive(pid):
    try:
        with open(f"/proc/{pid}/stat") as f:
            return f.read().rsplit(")", 1)[1].split()[0] != "Z"
    except OSError:
        return False


def _tool_schema(schema):
    """The broker's output schema inside `bp mcp`'s: MCP asks that an error
    result's structured content match the output schema too, so `bp mcp`
    offers `{type: object, anyOf: [the tool's schema, the error shape]}`."""
    alts = (schema or {}).get("anyOf")
    if (isinstance(alts, list) and len(alts) == 2 and set(schema) == {"type", "anyOf"}
            and alts[1].get("required") == ["error"]):
        return alts[0]
    return schema
