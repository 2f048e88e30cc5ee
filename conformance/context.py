"""What the checks share: the registry, the failure type, and Ctx, the state
of one adapter run with helpers that call through the driver and read
ground truth through the kit's probes."""
import time

from .probe import Probe, ProbeError

CHECKS = []


class Fail(Exception):
    pass


def check(name):
    def register(fn):
        CHECKS.append((name, fn))
        return fn
    return register


class Ctx:
    """State shared by the checks of one adapter run."""

    def __init__(self, env, driver, run_id):
        self.env, self.driver, self.run_id = env, driver, run_id
        self.info = {}
        self.tab = None
        self.other = None  # a second client (another principal)
        self.mine = None   # a read-only probe under the adapter's principal
        self.pids = {}

    def cid(self, label):
        return f"conf-{self.run_id}-{label}"

    def probe_mine(self):
        if self.mine is None:
            self.mine = Probe(self.env, self.info.get("clientName") or self.env.client_name)
            # Each connection is its own principal: the probe watches the
            # adapter's workspace with its resume secret (read-only).
            if self.info.get("resumeSecret"):
                self.mine.request("workspaces/resume", {
                    "workspaceId": self.info["workspaceId"],
                    "resumeSecret": self.info["resumeSecret"], "observe": True})
        return self.mine

    def probe_other(self):
        if self.other is None:
            self.other = Probe(self.env, f"{self.env.client_name}-other")
            self.other.open_workspace()
        return self.other

    def wire_result(self, command_id, tool):
        """What the broker recorded for a call: by the kit's commandId, or, for
        an adapter that dropped it, the latest `tool` call in the journal."""
        probe, ws = self.probe_mine(), self.info["workspaceId"]
        try:
            return probe.command(command_id, ws).get("result") or {}
        except ProbeError:
            ids = [e["payload"]["commandId"] for e in probe.journal(ws)
                   if e["type"] == "command.status" and e["payload"].get("tool") == tool]
            if not ids:
                raise Fail(f"the broker recorded no {tool} call")
            return probe.command(ids[-1], ws).get("result") or {}

    def close(self):
        for p in (self.mine, self.other):
            if p:
                p.close()

    # -- calling through the driver --

    def call(self, tool, args=None, command_id=None):
        return self.driver.call(tool, args or {}, command_id=command_id)

    def ok(self, tool, args=None, command_id=None, why=""):
        r = self.call(tool, args, command_id)
        if not r.ok:
            raise Fail(f"{why or 'setup'}: {tool} failed: code={r.error_code!r} "
                       f"message={r.error_message!r}")
        if not isinstance(r.content, dict):
            raise Fail(f"{tool}: the adapter surfaced no structured result (got {type(r.content).__name__})")
        return r

    def expect_code(self, r, code, tool):
        if r.ok:
            raise Fail(f"{tool} was expected to fail with {code}, but the adapter reported success")
        if r.error_code != code:
            raise Fail(f"{tool} failed, but the adapter's error does not carry the stable code "
                       f"{code!r}: got code={r.error_code!r}, message={r.error_message!r}")

    def ensure_tab(self):
        if self.tab is None:
            r = self.ok("browser.tabs.open", {"url": self.env.url("form.html")})
            self.tab = r.content.get("targetId")
        return self.tab

    def goto(self, page):
        return self.ok("browser.navigate", {"targetId": self.ensure_tab(), "url": self.env.url(page)})

    def observe(self, command_id=None):
        r = self.ok("browser.observe", {"targetId": self.ensure_tab()}, command_id)
        oid = self.driver.observation_id_of(r)
        if not isinstance(oid, str) or not oid:
            raise Fail(f"the observe result has no observationId as the adapter surfaced it "
                       f"(got {oid!r}); refs cannot be used without it")
        return r, oid

    def ref(self, r, role, name):
        for el in r.content.get("elements") or []:
            if el.get("role") == role and el.get("name") == name:
                return el.get("ref")
        raise Fail(f"no {role} {name!r} in the observed elements")


def eventually(fn, timeout=3.0):
    end = time.monotonic() + timeout
    while True:
        out = fn()
        if out or time.monotonic() > end:
            return out
        time.sleep(0.1)
