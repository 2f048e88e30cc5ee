"""Test world for the examples' tests: a temporary BROWSER_PILOT_HOME, the
fixture server on a free 127.0.0.1 port, and cleanup, failure or not, of
everything started in it: the broker (`bp broker stop --force`, then its
PID), and every PID noted with `track` (browser, adapter, bridge)."""
import json
import os
import shutil
import signal
import socket
import subprocess
import sys
import tempfile
import time

REPO = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
BP = os.path.abspath(os.environ.get("BP", os.path.join(REPO, "target", "debug", "bp")))


class FixtureEnv:
    def __init__(self, prefix):
        self.home = tempfile.mkdtemp(prefix=prefix)
        self.env = dict(os.environ, BROWSER_PILOT_HOME=self.home)
        with socket.socket() as s:
            s.bind(("127.0.0.1", 0))
            port = s.getsockname()[1]
        self.server = subprocess.Popen([sys.executable, os.path.join(REPO, "fixtures", "server.py"),
                                        str(port)], stdout=subprocess.DEVNULL)
        self.base = f"http://127.0.0.1:{port}/"
        self.pids = {}
        for _ in range(100):
            try:
                socket.create_connection(("127.0.0.1", port), timeout=0.2).close()
                break
            except OSError:
                time.sleep(0.05)

    def url(self, page):
        return self.base + page

    def track(self, pid, expect):
        """Kill `pid` at close if it still runs a command line containing `expect`."""
        if pid:
            self.pids[pid] = expect

    def close(self):
        status = subprocess.run([BP, "broker", "status", "--json"], env=self.env,
                                capture_output=True, text=True, timeout=30)
        if status.returncode == 0:
            self.track(json.loads(status.stdout).get("pid"), "broker")
        subprocess.run([BP, "broker", "stop", "--force"], env=self.env, capture_output=True, timeout=30)
        for pid, expect in self.pids.items():
            _kill(pid, expect)
        self.server.kill()
        self.server.wait()
        # A browser killed with its broker may still flush its profile for a
        # moment: remove until the home stays gone.
        _remove_for_good(self.home)


def _kill(pid, expect):
    try:
        with open(f"/proc/{pid}/cmdline", "rb") as f:
            if expect.encode() not in f.read():
                return  # gone, or the PID now belongs to something else
        os.kill(pid, signal.SIGKILL)
    except (OSError, ProcessLookupError):
        pass


def _remove_for_good(path):
    absent = 0
    for _ in range(50):
        shutil.rmtree(path, ignore_errors=True)
        time.sleep(0.1)
        absent = 0 if os.path.exists(path) else absent + 1
        if absent >= 5:
            return
