"""Drivers for the deliberately broken adapters (conformance/fixtures/broken_adapter.py):
the reference driver with a broken session in place of the real one."""
import os
import sys

from .reference import ReferenceDriver


class BrokenDriver(ReferenceDriver):
    """Drops observationId and swallows error codes."""
    name = "broken"
    fault_set = "DEFAULT"

    def make_session(self, bp_adapter, env):
        path = os.path.join(env.repo, "conformance", "fixtures")
        if path not in sys.path:
            sys.path.insert(0, path)
        import broken_adapter
        return broken_adapter.BrokenSession(
            env.bp, client_name=env.client_name, lease_ttl_ms=env.lease_ttl_ms,
            env=env.process_env(), faults=getattr(broken_adapter, self.fault_set))


class BrokenLifecycleDriver(BrokenDriver):
    """No heartbeat, ignores commandIds, full-size images, no release on exit."""
    name = "broken-lifecycle"
    fault_set = "LIFECYCLE"
