#!/usr/bin/env python3
"""Without the MCP Python SDK, the kit says in one line what to install and
exits non-zero, before it starts anything (issue 41).

The SDK is hidden from the kit's interpreter, whether or not it is
installed here: `sys.modules['mcp'] = None` makes every `import mcp` fail.

Usage: python3 conformance/tests/test_missing_sdk.py [-v]   (BP=path/to/bp)
"""
import os
import subprocess
import sys
import unittest

REPO = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
WITHOUT_SDK = ("import runpy, sys; sys.modules['mcp'] = None; "
               "sys.argv = ['conformance'] + sys.argv[1:]; "
               "runpy.run_module('conformance', run_name='__main__')")


class KitWithoutSdk(unittest.TestCase):
    def run_kit(self, *adapters):
        return subprocess.run([sys.executable, "-c", WITHOUT_SDK, *adapters], cwd=REPO,
                              capture_output=True, text=True, timeout=300)

    def test_one_line_and_a_failing_status(self):
        run = self.run_kit("mcp")
        lines = (run.stdout + run.stderr).strip().splitlines()
        self.assertNotEqual(run.returncode, 0, lines)
        self.assertEqual(len(lines), 1, lines)
        self.assertIn("pip install -r tests/mcp/requirements.txt", lines[0])
        self.assertIn("mcp", lines[0])

    def test_the_default_set_stops_before_any_adapter_runs(self):
        run = self.run_kit()
        self.assertNotEqual(run.returncode, 0)
        self.assertNotIn("== reference ==", run.stdout)
        self.assertIn("pip install", run.stderr)


if __name__ == "__main__":
    unittest.main()
