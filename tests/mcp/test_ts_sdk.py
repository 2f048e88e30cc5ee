#!/usr/bin/env python3
"""`bp mcp` end to end with the official MCP TypeScript SDK client
(`tests/mcp-ts/e2e.mjs`, @modelcontextprotocol/sdk from npm), at the
SDK's current protocol revision and at the one before. This harness gives
each run its own BROWSER_PILOT_HOME and fixture server, and after the
client closed stdin checks, as a separate bridge client, that the
session's workspace and lease are gone and no managed tab is left.

Needs `npm ci --prefix tests/mcp-ts` (`.ci/run` does it).

Usage: python3 tests/mcp/test_ts_sdk.py [-v]   (BP=path/to/bp, default target/debug/bp)
"""
import json
import os
import shutil
import subprocess
import sys
import time
import unittest

HERE = os.path.dirname(os.path.abspath(__file__))
REPO = os.path.dirname(os.path.dirname(HERE))
CLIENT_DIR = os.path.join(REPO, "tests", "mcp-ts")
sys.path.insert(0, os.path.join(REPO, "examples"))
from fixture_env import BP, FixtureEnv  # noqa: E402
from test_bp_mcp import _browser_tabs, bridge  # noqa: E402

# The SDK's newest revision (its LATEST_PROTOCOL_VERSION) and the one before.
REVISIONS = ("2025-11-25", "2025-06-18")


def _sdk_missing():
    if not shutil.which("node"):
        return "node is not installed"
    if not os.path.isdir(os.path.join(CLIENT_DIR, "node_modules", "@modelcontextprotocol", "sdk")):
        return "the TypeScript SDK is not installed: run npm ci --prefix tests/mcp-ts"
    return None


class TypeScriptSdk(unittest.TestCase):
    def setUp(self):
        missing = _sdk_missing()
        # A missing client is a failure, not a skip: CI installs it.
        self.assertIsNone(missing, missing)
        self.world = FixtureEnv("bp-mcp-ts-")

    def tearDown(self):
        self.world.close()

    def run_client(self, revision):
        env = dict(self.world.env, BP=BP, BASE=self.world.base)
        done = subprocess.run(["node", os.path.join(CLIENT_DIR, "e2e.mjs"), revision], env=env,
                              cwd=CLIENT_DIR, capture_output=True, text=True, timeout=240)
        sys.stderr.write(done.stderr[-4000:] if done.returncode else "")
        self.assertEqual(done.returncode, 0, f"the TypeScript client failed at {revision}")
        info = json.loads(done.stdout.strip().splitlines()[-1])
        self.world.track(info["adapterPid"], "mcp")
        self.world.track(info["browserPid"], "chrom")
        return info

    def check_released(self, info):
        # The client closed stdin; the server then releases and exits.
        pid = info["adapterPid"]
        for _ in range(150):
            if not os.path.exists(f"/proc/{pid}"):
                break
            time.sleep(0.1)
        else:
            self.fail("bp mcp did not exit after the client closed stdin")
        ws = info["workspaceId"]
        replies = bridge(self.world.env, [
            {"jsonrpc": "2.0", "id": 1, "method": "initialize",
             "params": {"client": {"name": f"ts-{info['revision']}"}, "protocol": {"min": "1.0", "max": "1.1"}}},
            {"jsonrpc": "2.0", "id": 3, "method": "workspaces/resume",
             "params": {"workspaceId": ws, "resumeSecret": info["resumeSecret"], "observe": True}},
            {"jsonrpc": "2.0", "id": 2, "method": "workspaces/get", "params": {"workspaceId": ws}},
            {"jsonrpc": "2.0", "id": 4, "method": "broker/status", "params": {}}])
        self.assertEqual(replies[2]["error"]["data"]["code"], "workspace_not_found", replies[2])
        # Only this checking bridge is still connected to the broker.
        self.assertEqual(replies[4]["result"]["connections"], 1, replies[4])
        # The browser itself holds no tab the session opened.
        urls = _browser_tabs(info["endpoint"])
        self.assertFalse([u for u in urls if u.startswith(self.world.base)], urls)

    def test_current_revision(self):
        info = self.run_client(REVISIONS[0])
        self.check_released(info)

    def test_previous_revision(self):
        info = self.run_client(REVISIONS[1])
        self.check_released(info)


if __name__ == "__main__":
    unittest.main()
