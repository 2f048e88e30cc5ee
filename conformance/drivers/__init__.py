"""Drivers, one per adapter. DEFAULT lists the repo's adapters, which must all
pass; the `broken*` ones drive the kit's failing fixtures."""
from .broken import BrokenDriver, BrokenLifecycleDriver
from .mcp import McpDriver
from .reference import ReferenceDriver

DRIVERS = {"reference": ReferenceDriver, "mcp": McpDriver, "broken": BrokenDriver,
           "broken-lifecycle": BrokenLifecycleDriver}
DEFAULT = ["reference", "mcp"]
