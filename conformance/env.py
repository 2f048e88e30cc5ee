"""A private world for one adapter run: a temporary BROWSER_PILOT_HOME, the
fixture server on 127.0.0.1, and a broker serving that home with a policy
that denies `network-modify` (so `capability_denied` can be provoked).

Everything started here is stopped by PID in `close()`, failure or not: the
broker with `bp broker stop --force` (which ends the browser it launched),
then any survivor (broker, browser, fixture server) is killed.
"""
import os
import shutil
import signal
import socket
import subprocess
import sys
import tempfile
import time
import uuid

from .driver import KitEnv

DENIED = "network-modify"


def free_port():
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def _alive(pid):
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    except PermissionError:
        return True
    try:  # a zombie child of ours counts as gone
        with open(f"/proc/{pid}/stat") as f:
            return f.read().rsplit(")", 1)[1].split()[0] != "Z"
    except OSError:
        return False


def _cmdline(pid):
    try:
        with open(f"/proc/{pid}/cmdline", "rb") as f:
            return f.read().replace(b"\0", b" ").decode("utf-8", "replace")
    except OSError:
        return ""


def kill_pid(pid, grace=3.0, expect=None):
    """SIGTERM, then SIGKILL after `grace` s; only this one PID, and only if
    its command line contains `expect` (guards against a reused PID)."""
    if not pid or not _alive(pid):
        return
    if expect and expect not in _cmdline(pid):
        return
    try:
        os.kill(pid, signal.SIGTERM)
    except ProcessLookupError:
        return
    end = time.monotonic() + grace
    while time.monotonic() < end:
        if not _alive(pid):
            return
        time.sleep(0.05)
    try:
        os.kill(pid, signal.SIGKILL)
    except ProcessLookupError:
        pass


class Environment:
    def __init__(self, repo, bp, adapter, lease_ttl_ms=3000):
        self.repo, self.bp, self.adapter = repo, bp, adapter
        self.lease_ttl_ms = lease_ttl_ms
        self.home = tempfile.mkdtemp(prefix=f"bp-conformance-{adapter}-")
        self.server = self.broker = None
        self.extra_pids = {}  # pid -> expected command-line text: the browser, adapter processes

    def start(self):
        port = free_port()
        self.server = subprocess.Popen(
            [sys.executable, os.path.join(self.repo, "fixtures", "server.py"), str(port)],
            stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
        self._wait(lambda: _connects(port), 10, "fixture server did not listen")
        env = dict(os.environ, BROWSER_PILOT_HOME=self.home)
        self.log = open(os.path.join(self.home, "broker-serve.log"), "wb")
        # Page tools of every effect, so the grant (not the level) is what
        # keeps a consequential one from a client without it.
        policy = os.path.join(self.home, "kit-policy.toml")
        with open(policy, "w", encoding="utf-8") as f:
            f.write('page-tools = "all"\n')
        self.broker = subprocess.Popen([self.bp, "broker", "serve", "--deny", DENIED,
                                        "--policy", policy],
                                       env=env, stdout=self.log, stderr=subprocess.STDOUT)
        self._wait(self._broker_ready, 60, "broker did not become ready")
        return KitEnv(bp=self.bp, home=self.home, base_url=f"http://127.0.0.1:{port}/",
                      client_name=f"conformance-{self.adapter}-{uuid.uuid4().hex[:6]}",
                      lease_ttl_ms=self.lease_ttl_ms, repo=self.repo)

    def _broker_ready(self):
        if self.broker.poll() is not None:
            raise RuntimeError(f"`bp broker serve` exited with {self.broker.returncode}; "
                               f"see {self.log.name}")
        return subprocess.run([self.bp, "broker", "status"], env=dict(
            os.environ, BROWSER_PILOT_HOME=self.home), capture_output=True,
            timeout=30).returncode == 0

    @staticmethod
    def _wait(pred, timeout, what):
        end = time.monotonic() + timeout
        while time.monotonic() < end:
            if pred():
                return
            time.sleep(0.1)
        raise RuntimeError(f"{what} within {timeout} s")

    def close(self):
        if self.broker is not None:
            try:
                subprocess.run([self.bp, "broker", "stop", "--force"], timeout=20,
                               env=dict(os.environ, BROWSER_PILOT_HOME=self.home),
                               capture_output=True)
            except subprocess.TimeoutExpired:
                pass
            kill_pid(self.broker.pid)
            self.broker.wait()
            self.log.close()
        for pid, expect in self.extra_pids.items():
            kill_pid(pid, expect=expect)
        if self.server is not None:
            kill_pid(self.server.pid)
            self.server.wait()
        # A browser killed with its broker may still flush its profile for a
        # moment: remove until the home stays gone.
        _remove_for_good(self.home)


def _connects(port):
    try:
        with socket.create_connection(("127.0.0.1", port), timeout=0.5):
            return True
    except OSError:
        return False


def _remove_for_good(path):
    absent = 0
    for _ in range(50):
        shutil.rmtree(path, ignore_errors=True)
        time.sleep(0.1)
        absent = 0 if os.path.exists(path) else absent + 1
        if absent >= 5:
            return
