#!/usr/bin/env python3
"""End-to-end test of the MCP adapter with the official MCP Python client
over stdio, as an MCP host runs it: the server is started with `--launch`,
its bridge starts the broker (default policy) in a temporary
BROWSER_PILOT_HOME, and a real headless Chromium loads the fixture pages.

Flow: list tools, open form.html, observe, type, click, read the result,
screenshot as image content, a stale ref as an isError result. Runs once
with the initialize handshake today's hosts use ("legacy") and once with the
SDK's default negotiation ("auto"). Also: SIGTERM releases the workspace.

Usage: python3 examples/mcp/test_e2e.py [-v]   (BP=path/to/bp, default target/debug/bp)
"""
import asyncio
import base64
import json
import os
import signal
import subprocess
import sys
import unittest

from mcp import Client, StdioServerParameters

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.dirname(HERE))
from fixture_env import BP, FixtureEnv  # noqa: E402


class McpEndToEnd(unittest.TestCase):
    def setUp(self):
        self.world = FixtureEnv("bp-mcp-e2e-")
        self.env, self.base = self.world.env, self.world.base

    def tearDown(self):
        self.world.close()

    def track(self, info):
        self.world.track(info["adapterPid"], "server.py")
        self.world.track(info["bridgePid"], "bridge")

    def test_legacy_handshake(self):
        asyncio.run(self.flow("legacy"))

    def test_default_negotiation(self):
        asyncio.run(self.flow("auto"))

    async def flow(self, mode):
        params = StdioServerParameters(
            command=sys.executable, env=self.env,
            args=[os.path.join(HERE, "server.py"), "--bp", BP, "--launch", "--client-name", f"e2e-{mode}"])
        async with Client(params, mode=mode, read_timeout_seconds=90) as client:
            self.track((await client.call_tool("bp_session_info", {})).structured_content)
            status = await self.ok(client, "browser_status", {})
            self.world.track(status["connection"].get("browserPid"), "chrom")

            tools = {t.name: t for t in (await client.list_tools()).tools}
            for name in ("browser_tabs_open", "browser_observe", "browser_type", "browser_click",
                         "browser_read", "browser_screenshot", "bp_events_poll"):
                self.assertIn(name, tools)
            schema = tools["browser_click"].input_schema
            self.assertEqual(schema["type"], "object")
            self.assertEqual(sorted(schema["required"]), ["observationId", "ref"])
            self.assertTrue(tools["browser_observe"].annotations.read_only_hint)

            opened = await self.ok(client, "browser_tabs_open", {"url": self.base + "form.html"})
            self.assertEqual(opened["title"], "Sign in form")
            obs = await self.ok(client, "browser_observe", {})
            self.assertTrue(obs["observationId"].startswith("obs_"))
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
            self.assertEqual(len(data), shot.structured_content["artifact"]["bytes"])
            text = [b.text for b in shot.content if b.type == "text"][0]
            self.assertNotIn(images[0].data[:64], text, "image data must not be in the text")

            await self.ok(client, "browser_navigate", {"url": self.base + "next.html"})
            stale = await client.call_tool("browser_click", {
                "observationId": obs["observationId"], "ref": ref[("button", "Sign in")]})
            self.assertTrue(stale.is_error)
            self.assertTrue(stale.content[0].text.startswith("error[stale_ref]:"), stale.content[0].text)
            self.assertEqual(stale.structured_content["error"]["code"], "stale_ref")

    def test_sigterm_releases_the_workspace(self):
        asyncio.run(self.sigterm())

    async def sigterm(self):
        params = StdioServerParameters(command=sys.executable, env=self.env, args=[
            os.path.join(HERE, "server.py"), "--bp", BP, "--client-name", "e2e-sigterm",
            "--expose-resume-secret"])
        async with Client(params, mode="legacy", read_timeout_seconds=90) as client:
            info = (await client.call_tool("bp_session_info", {})).structured_content
            self.track(info)
            self.assertEqual(self.workspace_get("e2e-sigterm", info)["leases"],
                             [info["leaseId"]])
            os.kill(info["adapterPid"], signal.SIGTERM)
            for _ in range(100):
                if not os.path.exists(f"/proc/{info['adapterPid']}"):
                    break
                await asyncio.sleep(0.1)
            else:
                self.fail("the MCP server did not exit on SIGTERM")
        gone = self.workspace_get("e2e-sigterm", info)
        self.assertEqual(gone["error"]["data"]["code"], "workspace_not_found", gone)

    def workspace_get(self, principal, info):
        """workspaces/get through a bridge of our own, watching the adapter's
        workspace with its resume secret."""
        ws = info["workspaceId"]
        lines = [{"jsonrpc": "2.0", "id": 1, "method": "initialize",
                  "params": {"client": {"name": principal}, "protocol": {"min": "1.0", "max": "1.1"}}},
                 {"jsonrpc": "2.0", "id": 3, "method": "workspaces/resume",
                  "params": {"workspaceId": ws, "resumeSecret": info["resumeSecret"], "observe": True}},
                 {"jsonrpc": "2.0", "id": 2, "method": "workspaces/get",
                  "params": {"workspaceId": ws}}]
        out = subprocess.run([BP, "bridge", "--stdio"], env=self.env, capture_output=True, text=True,
                             input="".join(json.dumps(m) + "\n" for m in lines), timeout=30).stdout
        reply = [m for m in map(json.loads, out.splitlines()) if m.get("id") == 2][0]
        return reply.get("result", reply)

    async def ok(self, client, name, args):
        r = await client.call_tool(name, args)
        self.assertFalse(r.is_error, f"{name}: {r.content}")
        self.assertEqual(json.loads(r.content[-1].text), r.structured_content)
        return r.structured_content


if __name__ == "__main__":
    unittest.main()
