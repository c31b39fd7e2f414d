"""The errors a client raises to the program above it, the one that stops it for good, and the
host's own."""

from __future__ import annotations

from engine.errors import VampireError


class ClientError(VampireError):
    """A client that cannot do what it was asked: a bad address, a log file of another table, a
    seat it does not hold, an act its own table refuses before sending."""


class HostRefused(VampireError):
    """The host refused an entry this seat found legal (PROTOCOL.md 3). ``code``: the host's code."""

    def __init__(self, code: str, detail: str) -> None:
        super().__init__(f"The host refused it ({code}): {detail}")
        self.code = code
        self.detail = detail


class GiveUp(ClientError):
    """Stop for good: reconnecting cannot help (the host misbehaved, speaks another version, or
    holds another table). The message is the sentence the client stops with."""


class HostError(VampireError):
    """The host cannot go on: its log file cannot be written, or it cannot listen."""
