"""One adapter session: one bridge connection, one workspace, one heartbeated lease.

    with Session(bp="bp", client_name="my-agent") as s:
        s.call("browser.connect", {"launch": {"headless": True}})
        s.call("browser.tabs.open", {"url": "http://127.0.0.1:8731/form.html"})
        obs = s.call("browser.observe")
        s.call("browser.click", {"observationId": obs["observationId"], "ref": 4})

What the adapter guarantees (and the conformance kit checks):
- `observationId` and refs go to the broker and come back exactly as given;
- every call has a `commandId` (the caller's, or a generated one) and a retry
  after a lost bridge resends the same `commandId`, so it never runs twice;
- failures raise BrowserPilotError carrying the broker's stable code;
- the lease is heartbeated at a third of its TTL while the session lives;
- events are relayed (pushed ones, deduplicated by `seq`) and can be polled
  from the journal with cursors;
- the lease and workspace are released on close (also at interpreter exit).
"""
import atexit
import collections
import threading
import time
import uuid
import weakref

from . import images
from .bridge import Bridge
from .errors import BridgeClosed, BrowserPilotError

PROTOCOL = {"min": "1.0", "max": "1.1"}
TERMINAL = {"completed", "failed", "unknown_outcome", "cancelled", "expired"}
_LIVE = weakref.WeakSet()


@atexit.register
def close_all():
    """Close every live session (release its lease and workspace). Runs at
    interpreter exit; call it yourself from a signal handler."""
    for session in list(_LIVE):
        session.close()


class ToolResult(dict):
    """A tool's result object, exactly as the broker returned it, plus the
    command record (`commandId`, `idempotencyKey`, `state`, `tool`)."""

    def __init__(self, result, command):
        super().__init__(result or {})
        self.command = command or {}

    @property
    def command_id(self):
        return self.command.get("commandId")


class Session:
    def __init__(self, bp="bp", *, client_name="bp-adapter", client_version="1.0",
                 lease_ttl_ms=60000, capabilities=(), env=None, workspace_key=None,
                 label=None, call_timeout_s=120.0, command_prefix=None):
        self.bp, self.env = bp, env
        self.client_name, self.client_version = client_name, client_version
        self.lease_ttl_ms = int(lease_ttl_ms)
        self.capabilities = list(capabilities)
        self.workspace_key, self.label = workspace_key, label
        self.call_timeout_s = call_timeout_s
        self.command_prefix = command_prefix or f"ad-{uuid.uuid4().hex[:8]}"
        self.bridge = None
        self.protocol_version = self.granted = self.limits = None
        self.workspace_id = self.lease_id = self.initial_cursor = None
        # Proves this session to the broker on a new connection (each
        # connection is its own principal); never shown to the model.
        self.resume_secret = None
        self._seq = 0
        self._lock = threading.Lock()       # events, counters, closed flag
        self._conn_lock = threading.Lock()  # one reconnect at a time
        self._events = collections.deque(maxlen=1024)
        self._event_seqs = set()
        self._listeners = []
        self._stop = threading.Event()
        self._heartbeat = None
        self._closed = False

    # ---- lifecycle -------------------------------------------------------

    def start(self):
        try:
            self._connect()
            ws = self.bridge.request("workspaces/create", _drop_none(
                {"key": self.workspace_key, "label": self.label}))
            self.workspace_id, self.initial_cursor = ws["workspaceId"], ws["eventCursor"]
            self.resume_secret = ws["resumeSecret"]
            self._create_lease()
        except BaseException:
            self.close()  # releases what was created; ends the bridge
            raise
        self._heartbeat = threading.Thread(target=self._beat, name="bp-lease-heartbeat", daemon=True)
        self._heartbeat.start()
        _LIVE.add(self)
        return self

    def _connect(self):
        """Spawn the bridge and `initialize`. Workspaces and leases live in
        the broker, so a reconnect takes the workspace back with its secret."""
        self.bridge = Bridge(self.bp, env=self.env, on_event=self._on_event)
        init = self.bridge.request("initialize", {
            "client": {"name": self.client_name, "version": self.client_version},
            "protocol": PROTOCOL, "capabilities": self.capabilities})
        self.protocol_version = init["protocolVersion"]
        self.granted = init.get("capabilities", {}).get("granted", [])
        self.limits = init.get("limits")
        if self.workspace_id and self.resume_secret:
            self.bridge.request("workspaces/resume", {"workspaceId": self.workspace_id,
                                                      "resumeSecret": self.resume_secret})
        return init

    def _create_lease(self):
        lease = self.bridge.request("leases/create", {
            "workspaceId": self.workspace_id, "ttlMs": self.lease_ttl_ms, "key": self.command_prefix})
        self.lease_id, self.lease_ttl_ms = lease["leaseId"], lease["ttlMs"]

    def _beat(self):
        interval = max(0.2, self.lease_ttl_ms / 3000.0)
        while not self._stop.wait(interval):
            try:
                self._request("leases/heartbeat", {"leaseId": self.lease_id}, timeout=10)
            except BridgeClosed:
                continue  # reconnects on the next beat or call
            except BrowserPilotError as e:
                if e.code == "lease_expired" and not self._stop.is_set():
                    try:  # lost it (e.g. a suspended machine): take a new one
                        self._create_lease()
                    except BrowserPilotError:
                        pass

    def close(self):
        """Release the lease and the workspace (its tabs and artifacts), then
        shut the bridge down. Safe to call twice."""
        with self._lock:
            if self._closed:
                return
            self._closed = True
        self._stop.set()
        if self._heartbeat:
            self._heartbeat.join(timeout=15)
        if self.bridge and self.workspace_id and self.bridge.proc.poll() is not None:
            try:  # the bridge died: the workspace lives on in the broker, so reconnect to release it
                self.bridge.kill()
                self._connect()
            except (BrowserPilotError, OSError):
                pass
        if self.bridge:
            for method, params in (("leases/release", {"leaseId": self.lease_id}),
                                   ("workspaces/release", {"workspaceId": self.workspace_id}),
                                   ("shutdown", {})):
                if None in params.values():
                    continue
                try:
                    self.bridge.request(method, params, timeout=15)
                except BrowserPilotError:
                    pass
            self.bridge.close()
        _LIVE.discard(self)

    def __enter__(self):
        return self.start()

    def __exit__(self, *exc):
        self.close()

    # ---- tools -----------------------------------------------------------

    def tools(self):
        """The broker's tool list, entries unchanged (name, inputSchema, ...)."""
        return self._request("tools/list", {})["tools"]

    def new_command_id(self):
        with self._lock:
            self._seq += 1
            return f"{self.command_prefix}-{self._seq}"

    def call(self, name, arguments=None, *, command_id=None, idempotency_key=None,
             deadline_ms=None, timeout=None):
        """Run one tool. Returns a ToolResult; raises BrowserPilotError with the
        broker's stable code. `arguments` are sent exactly as given."""
        params = _drop_none({
            "name": name, "arguments": arguments or {}, "workspaceId": self.workspace_id,
            "leaseId": self.lease_id, "commandId": command_id or self.new_command_id(),
            "idempotencyKey": idempotency_key, "deadlineMs": deadline_ms})
        reply = self._request("tools/call", params, timeout=timeout or self.call_timeout_s,
                              resend=True)
        if reply.get("duplicate"):  # a retry of a call still in flight
            reply = self._wait_command(reply["command"]["commandId"],
                                       timeout or self.call_timeout_s)
        command = reply.get("command")
        if "error" in reply:
            raise BrowserPilotError.from_wire(reply["error"], command=command)
        return ToolResult(reply.get("result"), command)

    def _wait_command(self, command_id, timeout):
        end = time.monotonic() + timeout
        while True:
            rec = self._request("commands/get", {"commandId": command_id,
                                                 "workspaceId": self.workspace_id})
            if rec.get("command", {}).get("state") in TERMINAL:
                return rec
            if time.monotonic() > end:
                raise BrowserPilotError("command_expired",
                                        f"command {command_id} still running after {timeout:g} s",
                                        command=rec.get("command"))
            time.sleep(0.1)

    def _request(self, method, params, *, timeout=60.0, resend=False):
        """A request; if the bridge has died, reconnect (same principal) first.
        With `resend`, a request lost with the bridge is sent once more: tool
        calls always carry a commandId, so the broker runs them at most once."""
        bridge = self.bridge
        if bridge.proc.poll() is not None:
            bridge = self._reconnect(bridge)
        try:
            return bridge.request(method, params, timeout=timeout)
        except BridgeClosed:
            if not resend or self._closed:
                raise
            return self._reconnect(bridge).request(method, params, timeout=timeout)

    def _reconnect(self, dead):
        with self._conn_lock:
            if self._closed:
                raise BridgeClosed("the session is closed")
            if self.bridge is dead:  # else another thread already reconnected
                dead.kill()
                self._connect()
            return self.bridge

    # ---- screenshots -----------------------------------------------------

    def image(self, result, *, prefer_preview=True, release=False):
        """The screenshot in `result` as an Image read from its artifact file
        (the bounded preview by default). With `release`, free both artifacts."""
        img = images.image_from_result(result, prefer_preview)
        if release:
            for key in ("artifact", "preview"):
                desc = result.get(key)
                if isinstance(desc, dict):
                    try:
                        self._request("artifacts/release", {"artifactId": desc["artifactId"]})
                    except BrowserPilotError:
                        pass
        return img

    # ---- events ----------------------------------------------------------

    def _on_event(self, event):
        if event.get("workspaceId") != self.workspace_id:
            return  # pushes cover every workspace of the principal
        with self._lock:
            seq = event.get("seq")
            if seq in self._event_seqs:
                return
            if len(self._events) == self._events.maxlen:
                self._event_seqs.discard(self._events[0].get("seq"))
            self._events.append(event)
            self._event_seqs.add(seq)
            listeners = list(self._listeners)
        for fn in listeners:
            try:
                fn(event)
            except Exception:
                pass

    def subscribe(self, fn):
        """Call `fn(event)` for each pushed event of this workspace (from the
        bridge's reader thread; keep it quick). Pushes are best effort."""
        with self._lock:
            self._listeners.append(fn)

    def relayed_events(self):
        """Pushed events of this workspace received so far, by `seq`."""
        with self._lock:
            return sorted(self._events, key=lambda e: e.get("seq", 0))

    def poll_events(self, cursor=None, limit=100):
        """Events after `cursor` from the workspace journal (the source of
        truth): {events, nextCursor, hasMore}. Default cursor: the session start."""
        return self._request("events/poll", {
            "workspaceId": self.workspace_id,
            "cursor": self.initial_cursor if cursor is None else cursor, "limit": limit})

    def info(self):
        return {"clientName": self.client_name, "protocolVersion": self.protocol_version,
                "workspaceId": self.workspace_id, "leaseId": self.lease_id,
                "leaseTtlMs": self.lease_ttl_ms, "eventCursor": self.initial_cursor,
                "granted": self.granted, "bridgePid": self.bridge.pid if self.bridge else None}


def _drop_none(d):
    return {k: v for k, v in d.items() if v is not None}
