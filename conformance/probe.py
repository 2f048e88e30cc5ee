"""The kit's own bridge client: its out-of-band view of the broker, through
the public protocol only (`bp bridge --stdio`).

A probe initialized under the adapter's principal can read that principal's
workspaces, command records and event journal (read-only use); a probe under
another principal plays a second client (it holds a tab for target_busy).
"""
import json
import subprocess
import threading


class ProbeError(Exception):
    def __init__(self, code, message):
        super().__init__(f"{code}: {message}")
        self.code = code


class Probe:
    def __init__(self, env, client_name, capabilities=()):
        self.proc = subprocess.Popen([env.bp, "bridge", "--stdio"], stdin=subprocess.PIPE,
                                     stdout=subprocess.PIPE, env=env.process_env(),
                                     text=True, encoding="utf-8")
        self._replies, self._cond, self._next = {}, threading.Condition(), 0
        threading.Thread(target=self._read, daemon=True).start()
        self.request("initialize", {"client": {"name": client_name},
                                    "protocol": {"min": "1.0", "max": "1.1"},
                                    "capabilities": list(capabilities)})
        self.ws = self.lease = None

    def _read(self):
        for line in self.proc.stdout:
            msg = json.loads(line) if line.strip() else {}
            if "id" in msg:  # notifications are ignored: the kit polls the journal
                with self._cond:
                    self._replies[msg["id"]] = msg
                    self._cond.notify_all()
        with self._cond:
            self._replies[None] = "eof"
            self._cond.notify_all()

    def request(self, method, params=None, timeout=60):
        with self._cond:
            self._next += 1
            rid = self._next
        self.proc.stdin.write(json.dumps({"jsonrpc": "2.0", "id": rid, "method": method,
                                          "params": params or {}}) + "\n")
        self.proc.stdin.flush()
        with self._cond:
            if not self._cond.wait_for(lambda: rid in self._replies or None in self._replies,
                                       timeout):
                raise ProbeError("timeout", f"{method}: no reply within {timeout} s")
            if rid not in self._replies:
                raise ProbeError("bridge_closed", f"{method}: probe bridge closed")
            msg = self._replies.pop(rid)
        if "error" in msg:
            data = msg["error"].get("data") or {}
            raise ProbeError(data.get("code", "?"), data.get("message", msg["error"].get("message")))
        return msg["result"]

    def open_workspace(self, ttl_ms=120000):
        self.ws = self.request("workspaces/create", {})["workspaceId"]
        self.lease = self.request("leases/create", {"workspaceId": self.ws, "ttlMs": ttl_ms})["leaseId"]

    def tool(self, name, arguments=None):
        """A tool call in the probe's own workspace; returns the envelope."""
        return self.request("tools/call", {"name": name, "arguments": arguments or {},
                                           "workspaceId": self.ws, "leaseId": self.lease})

    def command(self, command_id, workspace_id):
        return self.request("commands/get", {"commandId": command_id, "workspaceId": workspace_id})

    def journal(self, workspace_id, cursor="0"):
        """Every event of a workspace after `cursor` (all pages)."""
        out = []
        while True:
            page = self.request("events/poll", {"workspaceId": workspace_id, "cursor": cursor,
                                                "limit": 500})
            out += page["events"]
            cursor = page["nextCursor"]
            if not page["hasMore"]:
                return out

    def close(self):
        if self.ws:
            try:
                self.request("workspaces/release", {"workspaceId": self.ws}, timeout=10)
            except ProbeError:
                pass
        try:
            self.proc.stdin.close()
        except OSError:
            pass
        try:
            self.proc.wait(10)
        except subprocess.TimeoutExpired:
            self.proc.kill()
            self.proc.wait()
