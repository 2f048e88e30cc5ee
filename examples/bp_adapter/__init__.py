"""Reference Browser Pilot adapter (Python).

Embeds Browser Pilot in an agent runtime using only the `bp` executable and
its published bridge protocol (`bp bridge --stdio`, docs/protocol.md): no
Browser Pilot source code. It passes the conformance kit in ../../conformance.

    from bp_adapter import Session, BrowserPilotError
"""
from .errors import BridgeClosed, BrowserPilotError
from .images import ArtifactError, Image, image_from_result
from .session import PROTOCOL, Session, ToolResult, close_all

__all__ = ["ArtifactError", "BridgeClosed", "BrowserPilotError", "Image", "PROTOCOL",
           "Session", "ToolResult", "close_all", "image_from_result"]
