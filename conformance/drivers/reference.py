"""Driver for the Python reference adapter (examples/bp_adapter), through its
public Python API: Session.call raises BrowserPilotError(code) on failure and
Session.image turns a screenshot result into image bytes from the file."""
import os
import sys

from ..driver import Result


def _import_adapter(repo):
    path = os.path.join(repo, "examples")
    if path not in sys.path:
        sys.path.insert(0, path)
    import bp_adapter
    return bp_adapter


class ReferenceDriver:
    name = "reference"

    def __init__(self):
        self.s = None

    def make_session(self, bp_adapter, env):
        return bp_adapter.Session(env.bp, client_name=env.client_name,
                                  lease_ttl_ms=env.lease_ttl_ms, env=env.process_env())

    def start(self, env):
        self.mod = _import_adapter(env.repo)
        self.s = self.make_session(self.mod, env).start()

    def session(self):
        return dict(self.s.info(), resumeSecret=self.s.resume_secret)

    def list_tools(self):
        return self.s.tools()

    def call(self, tool, args, command_id=None):
        try:
            r = self.s.call(tool, args, command_id=command_id)
        except self.mod.BrowserPilotError as e:
            return Result(False, error_code=e.code, error_message=e.message,
                          command_id=(e.command or {}).get("commandId"), raw=e)
        except Exception as e:  # anything else is an error without a stable code
            return Result(False, error_message=f"{type(e).__name__}: {e}", raw=e)
        return Result(True, content=dict(r), command_id=getattr(r, "command_id", None), raw=r)

    def observation_id_of(self, result):
        return (result.content or {}).get("observationId")

    def image_of(self, result):
        img = self.s.image(result.raw)
        return (img.mime, img.data)

    def poll_events(self, cursor):
        page = self.s.poll_events(cursor)
        return page["events"], page["nextCursor"], page["hasMore"]

    def relayed_events(self):
        return self.s.relayed_events()

    def stop(self):
        if self.s is not None:
            self.s.close()

    def pids(self):
        bridge = getattr(self.s, "bridge", None)
        return {bridge.pid: "bridge"} if bridge else {}
