"""One `bp bridge --stdio` child process speaking newline-delimited JSON-RPC 2.0.

Thread-safe: any thread may send a request; a reader thread routes each
reply to its waiter by `id` (replies do not come back in request order) and
hands `events/event` notifications to `on_event`.
"""
import json
import subprocess
import threading

from .errors import BridgeClosed, BrowserPilotError


class _Pending:
    __slots__ = ("done", "reply")

    def __init__(self):
        self.done = threading.Event()
        self.reply = None


class Bridge:
    def __init__(self, bp="bp", *, env=None, on_event=None):
        self.proc = subprocess.Popen([bp, "bridge", "--stdio"], stdin=subprocess.PIPE,
                                     stdout=subprocess.PIPE, env=env, text=True,
                                     encoding="utf-8")
        self.on_event = on_event
        self._lock = threading.Lock()    # guards _pending, _next_id, _closed
        self._wlock = threading.Lock()   # one writer at a time on stdin
        self._pending = {}
        self._next_id = 0
        self._closed = None  # reason, once stdout ended
        self._reader = threading.Thread(target=self._read, name="bp-bridge-reader", daemon=True)
        self._reader.start()

    @property
    def pid(self):
        return self.proc.pid

    def _read(self):
        try:
            for line in self.proc.stdout:
                if not line.strip():
                    continue
                try:
                    msg = json.loads(line)
                except json.JSONDecodeError:
                    continue  # the bridge writes only JSON; ignore anything else
                if "id" not in msg:
                    if msg.get("method") == "events/event" and self.on_event:
                        try:
                            self.on_event(msg.get("params") or {})
                        except Exception:  # a callback bug must not kill the reader
                            pass
                    continue
                with self._lock:
                    slot = self._pending.pop(msg["id"], None)
                if slot:
                    slot.reply = msg
                    slot.done.set()
        finally:
            with self._lock:
                self._closed = f"bridge closed its stdout (exit status {self.proc.poll()})"
                pending, self._pending = self._pending, {}
            for slot in pending.values():
                slot.done.set()

    def request(self, method, params=None, *, timeout=60.0):
        """Send one request and wait for its reply; returns `result` or raises
        BrowserPilotError with the broker's stable code."""
        slot = _Pending()
        with self._lock:
            if self._closed:
                raise BridgeClosed(f"{method}: {self._closed}")
            self._next_id += 1
            rid = self._next_id
            self._pending[rid] = slot
        line = json.dumps({"jsonrpc": "2.0", "id": rid, "method": method,
                           "params": params or {}}) + "\n"
        try:
            with self._wlock:
                self.proc.stdin.write(line)
                self.proc.stdin.flush()
        except (OSError, ValueError) as e:
            with self._lock:
                self._pending.pop(rid, None)
            raise BridgeClosed(f"{method}: cannot write to the bridge: {e}")
        if not slot.done.wait(timeout):
            with self._lock:
                self._pending.pop(rid, None)
            raise BridgeClosed(f"{method}: no reply within {timeout:g} s")
        msg = slot.reply
        if msg is None:
            raise BridgeClosed(f"{method}: {self._closed}")
        if "error" in msg:
            err = msg["error"] or {}
            data = err.get("data") if isinstance(err.get("data"), dict) else {
                "code": "internal_error", "message": err.get("message", "JSON-RPC error")}
            raise BrowserPilotError.from_wire(data)
        return msg.get("result")

    def close(self, timeout=10.0):
        """Close stdin (the bridge then finishes and exits); kill if it lingers."""
        try:
            with self._wlock:
                self.proc.stdin.close()
        except (OSError, ValueError):
            pass
        try:
            self.proc.wait(timeout)
        except subprocess.TimeoutExpired:
            self.proc.kill()
            self.proc.wait()
        self._release_pipes()

    def kill(self):
        if self.proc.poll() is None:
            self.proc.kill()
            self.proc.wait()
        self._release_pipes()

    def _release_pipes(self):
        self._reader.join(5)  # it ends at EOF, which the exit brings
        for stream in (self.proc.stdin, self.proc.stdout):
            try:
                with self._wlock:
                    stream.close()
            except (OSError, ValueError):
                pass
