#!/usr/bin/env python3
"""Reference adapter behaviour the conformance kit cannot reach through its
driver: surviving the loss of the bridge process. The bridge holds no state,
so the session starts a new one under the same principal and keeps its
workspace, lease and tab; a retried call keeps its commandId and returns the
recorded reply instead of running again.

Uses a temporary BROWSER_PILOT_HOME (the bridge starts the broker), real
headless Chromium and the fixture pages.
Usage: python3 examples/bp_adapter/test_session.py [-v]   (BP=path/to/bp)
"""
import os
import signal
import sys
import time
import unittest

sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.abspath(__file__))))

from bp_adapter import Session  # noqa: E402
from fixture_env import BP, FixtureEnv  # noqa: E402


class BridgeLoss(unittest.TestCase):
    def setUp(self):
        self.world = FixtureEnv("bp-adapter-test-")
        self.session = None

    def tearDown(self):
        if self.session:
            self.session.close()
        self.world.close()

    def test_a_lost_bridge_is_replaced_and_a_retry_runs_once(self):
        w = self.world
        s = self.session = Session(BP, client_name="adapter-test", lease_ttl_ms=3000, env=w.env).start()
        w.track(s.bridge.pid, "bridge")
        conn = s.call("browser.connect", {"launch": {"headless": True}})["connection"]
        w.track(conn.get("browserPid"), "chrom")
        tab = s.call("browser.tabs.open", {"url": w.url("navigate.html")})["targetId"]
        first = s.call("browser.navigate", {"targetId": tab, "url": w.url("form.html")},
                       command_id="nav-once")
        workspace, lease, old = s.workspace_id, s.lease_id, s.bridge.proc

        os.kill(old.pid, signal.SIGKILL)
        old.wait()
        time.sleep(4)  # longer than the lease TTL: the heartbeat must reconnect too
        again = s.call("browser.navigate", {"targetId": tab, "url": w.url("next.html")},
                       command_id="nav-once")
        w.track(s.bridge.pid, "bridge")
        self.assertIsNot(s.bridge.proc, old)
        self.assertEqual((s.workspace_id, s.lease_id), (workspace, lease))
        self.assertEqual(dict(again), dict(first))
        self.assertEqual(again.command_id, "nav-once")
        self.assertIn("Sign in", s.call("browser.read", {"targetId": tab})["text"])


if __name__ == "__main__":
    unittest.main()
