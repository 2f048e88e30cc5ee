#!/usr/bin/env python3
"""The kit can fail: run it on the deliberately broken adapters
(conformance/fixtures/broken_adapter.py) and check that exactly the checks
their faults break fail, each with a message that names the fault, that the
summary line counts them, and that the exit status is non-zero.

Usage: python3 conformance/tests/test_broken_adapter.py [-v]   (BP=path/to/bp)
"""
import os
import re
import subprocess
import unittest

REPO = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))

# check -> a fragment of the FAIL message that names the fault
EXPECTED = {
    "broken": {
        "refs.passthrough": "has no observationId",
        "errors.stale_ref": "has no observationId",
        "errors.unknown_outcome": "has no observationId",
        "errors.target_busy": "does not carry the stable code 'target_busy'",
        "errors.capability_denied": "does not carry the stable code 'capability_denied'",
        "page_tools.consequential": "does not carry the stable code 'capability_denied'",
    },
    "broken-lifecycle": {
        "lease.heartbeat": "it does not heartbeat",
        "idempotency.retry": "ran again instead of returning the recorded reply",
        "screenshot.image": "not the bounded preview",
        "release.on_exit": "it was not released",
    },
}


class KitFailsBrokenAdapters(unittest.TestCase):
    @classmethod
    def setUpClass(cls):
        run = subprocess.run([os.path.join(REPO, "scripts", "conformance"), *EXPECTED],
                             capture_output=True, text=True, timeout=600)
        cls.status, cls.out = run.returncode, run.stdout + run.stderr
        cls.lines = {}
        for m in re.finditer(r"^(PASS|FAIL) ([\w-]+)/([\w.]+) \(\d+ ms\): (.*)$", run.stdout, re.M):
            cls.lines[(m[2], m[3])] = (m[1], m[4])

    def test_exit_status_and_summary(self):
        self.assertEqual(self.status, 1, self.out)
        failed = sum(len(v) for v in EXPECTED.values())
        passed = len(self.lines) - failed
        self.assertRegex(self.out, rf"(?m)^{passed} passed, {failed} failed$")

    def test_each_fault_fails_its_check_with_a_clear_message(self):
        for adapter, checks in EXPECTED.items():
            for check, fragment in checks.items():
                with self.subTest(adapter=adapter, check=check):
                    verdict, message = self.lines.get((adapter, check), ("missing", ""))
                    self.assertEqual(verdict, "FAIL", self.out)
                    self.assertIn(fragment, message)

    def test_nothing_else_fails(self):
        for (adapter, check), (verdict, message) in self.lines.items():
            if check not in EXPECTED[adapter]:
                with self.subTest(adapter=adapter, check=check):
                    self.assertEqual(verdict, "PASS", message)


if __name__ == "__main__":
    unittest.main()
