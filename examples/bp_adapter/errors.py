"""The adapter's own error form: one exception class carrying the broker's
stable error code.

Branch on `code` (never on `message`). Broker codes are listed in
docs/protocol.md ("Stable error codes"). The adapter adds exactly one code of
its own, `bridge_closed`, for a bridge process that went away.
"""


class BrowserPilotError(Exception):
    """A failed request or tool call.

    code       stable code, e.g. "stale_ref", "target_busy", "capability_denied"
    message    prose for people
    retryable  the broker's hint
    context    structured detail from the broker (dict or None)
    command    the command record of a failed tool call ({commandId, state, ...}),
               None for JSON-RPC level errors
    """

    def __init__(self, code, message, *, retryable=False, context=None, command=None):
        super().__init__(f"error[{code}]: {message}")
        self.code = code
        self.message = message
        self.retryable = bool(retryable)
        self.context = context
        self.command = command

    @classmethod
    def from_wire(cls, obj, command=None):
        """From the broker's error object {code, message, retryable, context?}."""
        obj = obj if isinstance(obj, dict) else {}
        return cls(obj.get("code") or "internal_error", obj.get("message") or "(no message)",
                   retryable=obj.get("retryable", False), context=obj.get("context"),
                   command=command)

    def to_dict(self):
        out = {"code": self.code, "message": self.message, "retryable": self.retryable}
        if self.context is not None:
            out["context"] = self.context
        if self.command is not None:
            out["command"] = self.command
        return out


class BridgeClosed(BrowserPilotError):
    """The `bp bridge --stdio` process exited or stopped answering."""

    def __init__(self, message):
        super().__init__("bridge_closed", message)
