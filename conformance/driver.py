"""The driver interface: the only way the kit touches an adapter.

A driver speaks to one adapter through that adapter's own surface (a Python
API, MCP over stdio, ...) and reports what it saw in the neutral shapes
below. The kit never imports an adapter and never reaches into the broker
beyond its public protocol. To hold another adapter (any language) to the
kit, write a driver for it and register it in drivers/__init__.py.
"""
import os
from dataclasses import dataclass, field
from typing import Any, Optional, Protocol


@dataclass
class KitEnv:
    """What the kit hands a driver at start."""
    bp: str              # absolute path of the `bp` executable
    home: str            # BROWSER_PILOT_HOME (absolute; a broker already serves it)
    base_url: str        # fixture pages, e.g. http://127.0.0.1:PORT/
    client_name: str     # principal the adapter must initialize as
    lease_ttl_ms: int    # lease TTL the adapter must ask for
    repo: str            # repository root

    def url(self, page):
        return self.base_url + page

    def process_env(self):
        return dict(os.environ, BROWSER_PILOT_HOME=self.home)


@dataclass
class Result:
    """One tool call as the adapter surfaced it."""
    ok: bool
    content: Any = None                  # the structured result the adapter exposes
    error_code: Optional[str] = None     # stable code read from the adapter's own error form
    error_message: Optional[str] = None
    command_id: Optional[str] = None     # the command ID the adapter reports back, if any
    raw: Any = field(default=None, repr=False)  # adapter-native object, for diagnostics


class Driver(Protocol):
    name: str

    def start(self, env: KitEnv) -> None:
        """Start the adapter; it must initialize as env.client_name, create a
        workspace and a lease of env.lease_ttl_ms, and not request developer.eval."""

    def session(self) -> dict:
        """{clientName, protocolVersion, workspaceId, leaseId, leaseTtlMs, eventCursor?}
        as the adapter reports them."""

    def list_tools(self) -> list:
        """[{name, description, inputSchema, outputSchema?}] with broker tool names."""

    def call(self, tool: str, args: dict, command_id: Optional[str] = None) -> Result:
        """Call a broker tool by its broker name; `command_id` must reach the broker."""

    def observation_id_of(self, result: Result) -> Optional[str]:
        """The observationId the adapter surfaced for an observe result."""

    def image_of(self, result: Result) -> Optional[tuple]:
        """(mime, bytes) of the native image content of a screenshot result."""

    def poll_events(self, cursor: str) -> tuple:
        """(events, nextCursor, hasMore) from the adapter's event surface."""

    def relayed_events(self) -> Optional[list]:
        """Events the adapter relayed as they happened, or None if it only polls."""

    def stop(self) -> None:
        """Stop the adapter the way its host would (close the session / stdin)."""
