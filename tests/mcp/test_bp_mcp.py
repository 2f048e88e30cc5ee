#!/usr/bin/env python3
"""`bp mcp` end to end, driven by the official MCP Python SDK client (a
client we did not write) over stdio, as an MCP host starts it: in a
temporary BROWSER_PILOT_HOME, with a real headless Chromium the server
launches, on the fixture pages served on 127.0.0.1.

- the whole loop, with the SDK's "legacy" initialize handshake and with its
  default negotiation: list tools, open a page, observe, type, click, read,
  a screenshot as image content, a cancelled hanging navigation, progress
  while a load waits, a stale ref as an isError result; then stdin closes
  and a bridge client of our own sees no lease and no managed tab left;
- `--deny navigation` lists no browser_navigate and refuses a call to it,
  with no browser and with one connected (the page stays where it was);
  `--deny-tool browser.tabs.close` hides and refuses that tool while
  browser_tabs_open works;
- bad input on the wire (malformed JSON-RPC, unknown tools, wrong argument
  types, oversized arguments) gets errors and the server keeps serving (every
  raw read is bounded: a silent server fails the test, it does not hang it);
- two `bp mcp` processes on one broker do not see each other's tabs;
- SIGTERM releases the workspace; SIGINT does too, and closes its managed tab;
  both do so even before the client has initialized;
- `--deny` holds from the first call, before the client lists tools.

Usage: python3 tests/mcp/test_bp_mcp.py [-v]   (BP=path/to/bp, default target/debug/bp)
"""
import asyncio
import base64
import json
import os
import queue
import signal
import subprocess
import sys
import threading
import time
import unittest
import urllib.parse
import urllib.request

from mcp import Client, StdioServerParameters

REPO = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
sys.path.insert(0, os.path.join(REPO, "examples"))
from fixture_env import BP, FixtureEnv  # noqa: E402


RAW_INITIALIZE = {"jsonrpc": "2.0", "id": 1, "method": "initialize", "params": {
    "protocolVersion": "2025-06-18", "capabilities": {},
    "clientInfo": {"name": "raw", "version": "1"}}}


def send_line(proc, msg):
    """One JSON-RPC line (a message, or raw text as it is) to `bp mcp`."""
    proc.stdin.write((msg if isinstance(msg, str) else json.dumps(msg)) + "\n")
    proc.stdin.flush()


def read_line(test, proc, timeout=60):
    """The next line `bp mcp` writes, waiting at most `timeout` s (a reader
    thread per process feeds a queue, so a silent server fails the test
    instead of hanging it); fails the test when the output closed."""
    lines = getattr(proc, "_lines", None)
    if lines is None:
        lines = proc._lines = queue.Queue()

        def pump():
            for line in proc.stdout:
                lines.put(line)
            lines.put("")
        threading.Thread(target=pump, daemon=True).start()
    try:
        line = lines.get(timeout=timeout)
    except queue.Empty:
        test.fail(f"bp mcp wrote no line within {timeout} s")
    test.assertTrue(line, "bp mcp closed its output")
    return line


def reply_to(test, proc, want_id, timeout=60):
    """The next reply with `want_id`, skipping notifications and others,
    within `timeout` s in all."""
    end = time.monotonic() + timeout
    while True:
        msg = json.loads(read_line(test, proc, max(0.1, end - time.monotonic())))
        if msg.get("id") == want_id:
            return msg


def bridge(env, lines, timeout=30):
    """Run JSON-RPC `lines` through a `bp bridge --stdio` of our own."""
    out = subprocess.run([BP, "bridge", "--stdio"], env=env, capture_output=True, text=True,
                         input="".join(json.dumps(m) + "\n" for m in lines), timeout=timeout).stdout
    return {m.get("id"): m for m in map(json.loads, out.splitlines()) if "id" in m}


class BpMcp(unittest.TestCase):
    def setUp(self):
        self.world = FixtureEnv("bp-mcp-")
        self.env, self.base = self.world.env, self.world.base

    def tearDown(self):
        self.world.close()

    def params(self, name, *extra):
        return StdioServerParameters(command=BP, env=self.env, args=[
            "mcp", "--client-name", name, "--expose-resume-secret", *extra])

    async def info(self, client):
        info = (await client.call_tool("bp_session_info", {})).structured_content
        self.world.track(info["adapterPid"], "mcp")
        return info

    async def ok(self, client, name, args, **kw):
        r = await client.call_tool(name, args, **kw)
        self.assertFalse(r.is_error, f"{name}: {r.content}")
        texts = [b.text for b in r.content if b.type == "text"]
        self.assertEqual(json.loads(texts[0]), r.structured_content)
        return r.structured_content

    def workspace_get(self, principal, info):
        """The session's workspace as a separate bridge client sees it."""
        ws = info["workspaceId"]
        replies = bridge(self.env, [
            {"jsonrpc": "2.0", "id": 1, "method": "initialize",
             "params": {"client": {"name": principal}, "protocol": {"min": "1.0", "max": "1.1"}}},
            {"jsonrpc": "2.0", "id": 3, "method": "workspaces/resume",
             "params": {"workspaceId": ws, "resumeSecret": info["resumeSecret"], "observe": True}},
            {"jsonrpc": "2.0", "id": 2, "method": "workspaces/get", "params": {"workspaceId": ws}}])
        return replies[2].get("result", replies[2])

    def broker_status(self):
        """broker/status as a separate bridge client (counted in `connections`) sees it."""
        replies = bridge(self.env, [
            {"jsonrpc": "2.0", "id": 1, "method": "initialize",
             "params": {"client": {"name": "watcher"}, "protocol": {"min": "1.0", "max": "1.1"}}},
            {"jsonrpc": "2.0", "id": 2, "method": "broker/status", "params": {}}])
        return replies[2]["result"]

    # ---- the whole loop ---------------------------------------------------

    def test_loop_with_the_legacy_handshake(self):
        asyncio.run(self.loop("legacy"))

    def test_loop_with_default_negotiation(self):
        asyncio.run(self.loop("auto"))

    async def loop(self, mode):
        name = f"e2e-{mode}"
        async with Client(self.params(name, "--launch", "--headless"), mode=mode,
                          read_timeout_seconds=90) as client:
            info = await self.info(client)
            # The SDK's current revision (no initialize: discover) with its
            # default negotiation, the one before it with the legacy handshake.
            self.assertEqual(client.protocol_version,
                             {"auto": "2026-07-28", "legacy": "2025-11-25"}[mode])
            status = await self.ok(client, "browser_status", {})
            self.world.track(status["connection"].get("browserPid"), "chrom")
            self.assertEqual(status["connection"]["state"], "connected", status)
            endpoint = status["connection"]["endpoint"]

            tools = {t.name: t for t in (await client.list_tools()).tools}
            for tool in ("browser_tabs_open", "browser_observe", "browser_type", "browser_click",
                         "browser_read", "browser_screenshot", "browser_navigate", "bp_events_poll"):
                self.assertIn(tool, tools)
            click = tools["browser_click"]
            # An element (observationId + ref) or a point of the viewport (at).
            self.assertNotIn("required", click.input_schema)
            for field in ("observationId", "ref", "at", "waitMs", "settle"):
                self.assertIn(field, click.input_schema["properties"])
            self.assertEqual(click.title, "Click")
            self.assertTrue(tools["browser_observe"].annotations.read_only_hint)
            self.assertTrue(tools["browser_tabs_close"].annotations.destructive_hint)
            self.assertTrue(tools["browser_navigate"].annotations.open_world_hint)
            self.assertEqual(tools["browser_observe"].output_schema["type"], "object")

            opened = await self.ok(client, "browser_tabs_open", {"url": self.base + "form.html"})
            self.assertEqual(opened["title"], "Sign in form")
            obs = await self.ok(client, "browser_observe", {})
            ref = {(e["role"], e["name"]): e["ref"] for e in obs["elements"]}
            typed = await self.ok(client, "browser_type", {
                "observationId": obs["observationId"], "ref": ref[("textbox", "Name")], "text": "Grace"})
            self.assertEqual(typed["evidence"]["status"], "verified")
            await self.ok(client, "browser_click", {
                "observationId": obs["observationId"], "ref": ref[("button", "Sign in")]})
            read = await self.ok(client, "browser_read", {})
            self.assertIn("Signed in as Grace", read["text"])

            shot = await client.call_tool("browser_screenshot", {})
            self.assertFalse(shot.is_error, shot.content)
            images = [b for b in shot.content if b.type == "image"]
            self.assertEqual(len(images), 1, shot.content)
            self.assertEqual(images[0].mime_type, "image/png")
            data = base64.b64decode(images[0].data)
            self.assertTrue(data.startswith(b"\x89PNG\r\n\x1a\n"))
            shown = shot.structured_content.get("preview") or shot.structured_content["artifact"]
            self.assertEqual(len(data), shown["bytes"])
            links = [b for b in shot.content if b.type == "resource_link"]
            self.assertTrue(links, shot.content)
            res = await client.read_resource(links[0].uri)
            blob = base64.b64decode(res.contents[0].blob)
            self.assertTrue(blob.startswith(b"\x89PNG"))

            # Progress while a load waits (about 2.5 s).
            seen = []

            async def progress(p, total, message):
                seen.append((p, message))
            await self.ok(client, "browser_navigate", {"url": self.base + "slow?ms=2500"},
                          progress_callback=progress)
            self.assertTrue(seen, "no progress notification during a 2.5 s wait")

            # A navigation that hangs, given up by the client: the broker
            # cancels the command and the server serves on.
            started = time.monotonic()
            with self.assertRaises(Exception):
                await client.call_tool("browser_navigate", {"url": self.base + "slow?ms=30000"},
                                       read_timeout_seconds=2)
            cancelled = None
            for _ in range(100):
                page = await self.ok(client, "bp_events_poll", {"limit": 500})
                cancelled = [e for e in page["events"] if e["type"] == "command.status"
                             and _payload(e).get("tool") == "browser.navigate"
                             # A navigation stopped once sent ends unknown_outcome.
                             and _payload(e).get("state") in ("cancelled", "unknown_outcome")]
                if cancelled:
                    break
                await asyncio.sleep(0.1)
            self.assertTrue(cancelled, "the hanging navigation was not cancelled in the broker")
            # An uncancelled navigation also ends unknown_outcome, after its
            # 20 s load wait: only a prompt end shows the cancel stopped it.
            self.assertLess(time.monotonic() - started, 12)

            await self.ok(client, "browser_navigate", {"url": self.base + "next.html"})
            stale = await client.call_tool("browser_click", {
                "observationId": obs["observationId"], "ref": ref[("button", "Sign in")]})
            self.assertTrue(stale.is_error)
            self.assertTrue(stale.content[0].text.startswith("error[stale_ref]:"), stale.content[0].text)
            self.assertEqual(stale.structured_content["error"]["code"], "stale_ref")
            self.assertEqual(self.workspace_get(name, info)["leases"], [info["leaseId"]])
        # stdin closed: the session's lease, workspace and managed tab are gone.
        pid = info["adapterPid"]
        for _ in range(150):
            if not os.path.exists(f"/proc/{pid}"):
                break
            await asyncio.sleep(0.1)
        else:
            self.fail("bp mcp did not exit when stdin closed")
        gone = self.workspace_get(name, info)
        self.assertEqual(gone["error"]["data"]["code"], "workspace_not_found", gone)
        # Only the checking bridge is still connected to the broker, and the
        # browser itself holds no tab the session opened.
        self.assertEqual(self.broker_status()["connections"], 1)
        urls = _browser_tabs(endpoint)
        self.assertFalse([u for u in urls if u.startswith(self.base)], urls)

    # ---- policy -----------------------------------------------------------

    def test_deny_navigation_hides_and_refuses_the_tool(self):
        asyncio.run(self.deny())

    async def deny(self):
        async with Client(self.params("e2e-deny", "--deny", "navigation"), mode="legacy",
                          read_timeout_seconds=60) as client:
            await self.info(client)
            names = {t.name for t in (await client.list_tools()).tools}
            self.assertNotIn("browser_navigate", names)
            self.assertIn("browser_observe", names)
            r = await client.call_tool("browser_navigate", {"url": self.base + "form.html"})
            self.assertTrue(r.is_error)
            self.assertTrue(r.content[0].text.startswith("error[capability_denied]:"), r.content)

    def test_deny_navigation_with_a_browser_refuses_before_the_browser_acts(self):
        asyncio.run(self.deny_connected())

    async def deny_connected(self):
        async with Client(self.params("e2e-deny-live", "--launch", "--headless", "--deny", "navigation"),
                          mode="legacy", read_timeout_seconds=90) as client:
            await self.info(client)
            status = await self.ok(client, "browser_status", {})
            self.world.track(status["connection"].get("browserPid"), "chrom")
            self.assertEqual(status["connection"]["state"], "connected", status)
            endpoint = status["connection"]["endpoint"]
            names = {t.name for t in (await client.list_tools()).tools}
            self.assertNotIn("browser_navigate", names)
            self.assertIn("browser_tabs_open", names)
            blank = await self.ok(client, "browser_tabs_open", {})
            r = await client.call_tool("browser_navigate", {"url": self.base + "form.html"})
            self.assertTrue(r.is_error, r.content)
            self.assertTrue(r.content[0].text.startswith("error[capability_denied]:"), r.content)
            # Opening a tab with a URL navigates it: refused the same way,
            # before any tab is created.
            before = len((await self.ok(client, "browser_tabs_list", {}))["tabs"])
            r = await client.call_tool("browser_tabs_open", {"url": self.base + "form.html"})
            self.assertTrue(r.is_error, r.content)
            self.assertTrue(r.content[0].text.startswith("error[capability_denied]:"), r.content)
            after = len((await self.ok(client, "browser_tabs_list", {}))["tabs"])
            self.assertEqual(before, after)
            # The browser did not act: its tab is where it was, and no tab
            # anywhere reached the fixture server's page.
            tabs = (await self.ok(client, "browser_tabs_list", {}))["tabs"]
            mine = [t for t in tabs if t["targetId"] == blank["targetId"]]
            self.assertEqual([t["url"] for t in mine], [blank["url"]], tabs)
            urls = _browser_tabs(endpoint)
            self.assertFalse([u for u in urls if u.startswith(self.base)], urls)

    def test_deny_tool_tabs_close_with_a_browser(self):
        asyncio.run(self.deny_tool_connected())

    async def deny_tool_connected(self):
        async with Client(self.params("e2e-deny-tool", "--launch", "--headless",
                                      "--deny-tool", "browser.tabs.close"),
                          mode="legacy", read_timeout_seconds=90) as client:
            await self.info(client)
            status = await self.ok(client, "browser_status", {})
            self.world.track(status["connection"].get("browserPid"), "chrom")
            endpoint = status["connection"]["endpoint"]
            names = {t.name for t in (await client.list_tools()).tools}
            self.assertNotIn("browser_tabs_close", names)
            self.assertIn("browser_tabs_open", names)
            opened = await self.ok(client, "browser_tabs_open", {"url": self.base + "form.html"})
            self.assertEqual(opened["title"], "Sign in form")
            r = await client.call_tool("browser_tabs_close", {"targetId": opened["targetId"]})
            self.assertTrue(r.is_error, r.content)
            self.assertTrue(r.content[0].text.startswith("error[capability_denied]:"), r.content)
            # The tab is still open, as the browser itself says.
            self.assertIn(self.base + "form.html", _browser_tabs(endpoint))

    # ---- two sessions -----------------------------------------------------

    def test_two_servers_do_not_see_each_others_tabs(self):
        asyncio.run(self.two())

    async def two(self):
        async with Client(self.params("e2e-one", "--launch", "--headless"), mode="legacy",
                          read_timeout_seconds=90) as one, \
                Client(self.params("e2e-two", "--allow-consequential"), mode="legacy",
                       read_timeout_seconds=90) as two:
            await self.info(one)
            await self.info(two)
            # A session that may call a page's consequential tools gets its
            # page-tool call marked destructive; one that may not, does not.
            hints = [{t.name: t for t in (await c.list_tools()).tools}["browser_page_tools_call"]
                     .annotations.destructive_hint for c in (one, two)]
            self.assertEqual(hints, [False, True])
            status = await self.ok(one, "browser_status", {})
            self.world.track(status["connection"].get("browserPid"), "chrom")
            mine = await self.ok(one, "browser_tabs_open", {"url": self.base + "form.html"})
            theirs = await self.ok(two, "browser_tabs_list", {})
            self.assertNotIn(mine["targetId"], [t["targetId"] for t in theirs["tabs"]
                                                if t["origin"] == "managed"])
            self.assertFalse([t for t in theirs["tabs"] if t["url"].endswith("form.html")], theirs)
            r = await two.call_tool("browser_observe", {"targetId": mine["targetId"]})
            self.assertTrue(r.is_error)
            self.assertIn("error[target_not_owned]", r.content[0].text)

    # ---- SIGTERM and SIGINT -----------------------------------------------

    def test_sigterm_releases_the_workspace(self):
        asyncio.run(self.signalled(signal.SIGTERM, "e2e-sigterm", []))

    def test_sigint_releases_the_workspace_and_closes_its_tab(self):
        asyncio.run(self.signalled(signal.SIGINT, "e2e-sigint", ["--launch", "--headless"]))

    async def signalled(self, sig, name, flags):
        async with Client(self.params(name, *flags), mode="legacy", read_timeout_seconds=90) as client:
            info = await self.info(client)
            if flags:
                status = await self.ok(client, "browser_status", {})
                self.world.track(status["connection"].get("browserPid"), "chrom")
                endpoint = status["connection"]["endpoint"]
                await self.ok(client, "browser_tabs_open", {"url": self.base + "form.html"})
                self.assertTrue([u for u in _browser_tabs(endpoint) if u.endswith("form.html")])
            self.assertEqual(self.workspace_get(name, info)["leases"], [info["leaseId"]])
            os.kill(info["adapterPid"], sig)
            for _ in range(100):
                if not os.path.exists(f"/proc/{info['adapterPid']}"):
                    break
                await asyncio.sleep(0.1)
            else:
                self.fail(f"bp mcp did not exit on {sig.name}")
        gone = self.workspace_get(name, info)
        self.assertEqual(gone["error"]["data"]["code"], "workspace_not_found", gone)
        if flags:
            # The managed tab closed with the session, as the browser itself says.
            self.assertFalse([u for u in _browser_tabs(endpoint) if u.startswith(self.base)])


class BadInput(unittest.TestCase):
    """Raw JSON-RPC lines to `bp mcp`, no SDK: each bad line gets an error
    (or nothing, for a notification) and the server answers the next."""

    def setUp(self):
        self.world = FixtureEnv("bp-mcp-bad-")

    def tearDown(self):
        self.world.close()

    def test_bad_lines_get_errors_and_the_server_keeps_serving(self):
        proc = subprocess.Popen([BP, "mcp", "--client-name", "e2e-raw", "--launch", "--headless"],
                                env=self.world.env,
                                stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True)
        self.world.track(proc.pid, "mcp")
        try:
            def send(msg):
                send_line(proc, msg)

            def reply(want_id):
                return reply_to(self, proc, want_id)
            send(RAW_INITIALIZE)
            self.assertIn("result", reply(1))
            send({"jsonrpc": "2.0", "method": "notifications/initialized"})
            send("{this is not json")
            send({"jsonrpc": "2.0", "id": 2, "method": "tools/call",
                  "params": {"name": "no_such_tool", "arguments": {}}})
            r = reply(2)
            unknown = r.get("error") or r["result"]
            self.assertTrue("error" in r or unknown.get("isError"), r)
            send({"jsonrpc": "2.0", "id": 3, "method": "tools/call",
                  "params": {"name": "browser_observe", "arguments": {"limit": "many"}}})
            r = reply(3)
            self.assertTrue(r["result"]["isError"], r)
            self.assertIn("error[invalid_argument]", r["result"]["content"][0]["text"])
            send({"jsonrpc": "2.0", "id": 4, "method": "tools/call",
                  "params": {"name": "browser_tabs_open", "arguments": {"url": "x" * (4 << 20)}}})
            r = reply(4)
            self.assertTrue("error" in r or r["result"]["isError"], str(r)[:300])
            send({"jsonrpc": "2.0", "id": 5, "method": "no/such/method", "params": {}})
            self.assertIn("error", reply(5))
            send({"jsonrpc": "2.0", "id": 6, "method": "tools/list", "params": {}})
            names = [t["name"] for t in reply(6)["result"]["tools"]]
            self.assertIn("browser_observe", names)
            # A request whose ID cannot be read is answered with `"id": null`,
            # as JSON-RPC 2.0 asks (rmcp alone writes no `id` at all).
            send('{"jsonrpc":"2.0","id":{},"method":"tools/list"}')
            unreadable = json.loads(read_line(self, proc))
            self.assertIn("id", unreadable)
            self.assertIsNone(unreadable["id"])
            self.assertIn("error", unreadable)
            for line in _fuzz_shapes():
                send(line)
            send({"jsonrpc": "2.0", "id": 7, "method": "tools/call",
                  "params": {"name": "bp_session_info", "arguments": {}}})
            self.assertEqual(reply(7)["result"]["structuredContent"]["clientName"], "e2e-raw")
        finally:
            proc.stdin.close()
            proc.wait(timeout=30)
        self.assertEqual(proc.returncode, 0)


class Startup(unittest.TestCase):
    """What holds from the first byte, before the client has listed tools
    or even initialized: the session's `--deny`, and an orderly end on a
    signal. Raw lines, no browser."""

    def setUp(self):
        self.world = FixtureEnv("bp-mcp-start-")

    def tearDown(self):
        self.world.close()

    def start(self, name, *flags):
        proc = subprocess.Popen([BP, "mcp", "--client-name", name, *flags], env=self.world.env,
                                stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                                stderr=subprocess.PIPE, text=True)
        self.world.track(proc.pid, "mcp")
        return proc

    def status(self):
        """broker/status, with the watcher's own connection counted."""
        return self.watch({"jsonrpc": "2.0", "id": 2, "method": "broker/status", "params": {}})

    def watch(self, request):
        replies = bridge(self.world.env, [
            {"jsonrpc": "2.0", "id": 1, "method": "initialize",
             "params": {"client": {"name": "watcher"}, "protocol": {"min": "1.0", "max": "1.1"}}},
            request])
        return replies[2].get("result", replies[2])

    def assert_no_live_workspace(self, broker_pid, what):
        """A stop without --force is refused while any other workspace holds
        a live lease: it succeeding (the broker then ends) shows the
        session's workspace and lease were released."""
        stop = self.watch({"jsonrpc": "2.0", "id": 2, "method": "broker/stop",
                           "params": {"pid": broker_pid}})
        self.assertEqual(stop.get("endedWorkspaces"), 0, f"{what}: {stop}")
        for _ in range(300):
            if not os.path.exists(f"/proc/{broker_pid}"):
                return
            time.sleep(0.1)
        self.fail(f"the broker did not stop after {what}")

    def test_deny_holds_before_the_client_lists_tools(self):
        proc = self.start("e2e-deny-first", "--deny", "navigation",
                          "--deny-tool", "browser.no_such_tool")
        try:
            def call(i, msg):
                send_line(proc, msg)
                return reply_to(self, proc, i)
            self.assertIn("result", call(1, RAW_INITIALIZE))
            send_line(proc, {"jsonrpc": "2.0", "method": "notifications/initialized"})
            # No tools/list first: the denial must hold all the same.
            r = call(2, {"jsonrpc": "2.0", "id": 2, "method": "tools/call", "params": {
                "name": "browser_navigate", "arguments": {"url": self.world.base + "form.html"}}})
            self.assertTrue(r["result"]["isError"], r)
            self.assertTrue(r["result"]["content"][0]["text"].startswith("error[capability_denied]:"), r)
            # A name with underscores of its own reaches its broker tool.
            r = call(3, {"jsonrpc": "2.0", "id": 3, "method": "tools/call", "params": {
                "name": "browser_page_tools_list", "arguments": {}}})
            self.assertNotIn("browser.page.tools.list", json.dumps(r))
            self.assertNotIn("capability_denied", json.dumps(r))
        finally:
            proc.stdin.close()
            proc.wait(timeout=30)
        self.assertEqual(proc.returncode, 0)
        # A --deny-tool naming no tool starts the server, and says so.
        self.assertIn("--deny-tool browser.no_such_tool", proc.stderr.read())

    def test_a_signal_before_initialize_ends_the_server_in_order(self):
        # Before, SIGINT killed the process (its workspace and lease left
        # behind) and SIGTERM waited for an initialize that never came.
        for sig in (signal.SIGINT, signal.SIGTERM):
            proc = self.start(f"e2e-early-{sig.name}")
            for _ in range(300):
                status = self.status()
                if status["connections"] >= 2:
                    break
                time.sleep(0.1)
            else:
                self.fail("bp mcp never reached the broker")
            self.world.track(status["pid"], "broker")
            time.sleep(0.5)  # its session is made right after it connects
            proc.send_signal(sig)
            try:
                proc.wait(timeout=30)
            except subprocess.TimeoutExpired:
                self.fail(f"bp mcp did not end on {sig.name} before initialize")
            self.assertEqual(proc.returncode, 0, f"{sig.name}: {proc.stderr.read()}")
            proc.stdin.close()
            proc.stdout.close()
            proc.stderr.close()
            # Its workspace and lease are released: nothing holds the broker
            # (the next round's `bp mcp` starts a broker of its own).
            self.assertEqual(self.status()["connections"], 1)
            self.assert_no_live_workspace(status["pid"], f"{sig.name} before initialize")


def _browser_tabs(endpoint):
    """The URLs of the page targets the browser itself lists (its /json/list)."""
    hostport = urllib.parse.urlsplit(endpoint if "://" in endpoint else "http://" + endpoint).netloc
    with urllib.request.urlopen(f"http://{hostport}/json/list", timeout=10) as r:
        return [t["url"] for t in json.load(r) if t.get("type") == "page"]


def _payload(event):
    return event.get("payload") or event.get("data") or {}


def _fuzz_shapes():
    """The shapes the broker's fuzzer sends, as MCP lines."""
    yield "[]"
    yield "null"
    yield '{"jsonrpc":"2.0","id":{},"method":"tools/list"}'
    yield '{"jsonrpc":"2.0","id":90,"method":"tools/call","params":[]}'
    yield '{"jsonrpc":"2.0","id":91,"method":"tools/call","params":{"name":7}}'
    yield '{"jsonrpc":"2.0","id":92,"method":"tools/call","params":{"name":"browser_click","arguments":{"ref":-1}}}'
    yield '{"jsonrpc":"1.0","id":93,"method":"ping"}'
    yield '"\\u0000"'


if __name__ == "__main__":
    unittest.main()
