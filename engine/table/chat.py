"""How much a seat may chat (docs/protocol.md 7.4, "Chat"): a table rule every peer folds the same
way, so that one seat cannot fill everyone's log with chat.

Each seat has two token buckets, refilled by the entries' own times (``time``, milliseconds,
signed by the author): lines and UTF-8 bytes of text. A `chat` over either is refused
(``illegal``); a seat's `chat` whose time is earlier than its previous one is refused too, so a
seat cannot spend the same time twice. The host authors chat without limit (it sequences the
table anyway), and refuses a `chat` whose time is more than :data:`engine.rate.MAX_AHEAD_MS` ahead of its own
clock, so no seat can refill its buckets by claiming a time to come.
"""

from __future__ import annotations

from dataclasses import dataclass, field


@dataclass(frozen=True)
class ChatLimit:
    """The limit of one seat's chat: ``lines`` a minute with ``line_burst`` at once, and ``bytes``
    (UTF-8 bytes of text) a minute with ``byte_burst`` at once. Defaults: 30 lines and 2 KiB a
    minute, 10 lines and 4 KiB at once: a lively table never meets them, and a seat that chats
    all it may writes 120 KiB an hour to every peer's log (rather than 55 MB)."""

    lines: float = 30.0
    line_burst: float = 10.0
    bytes: float = 2048.0
    byte_burst: float = 4096.0


DEFAULT_CHAT_LIMIT = ChatLimit()


@dataclass
class ChatBudget:
    """One seat's chat buckets (:class:`ChatLimit`): ``lines`` and ``bytes`` left, as of ``at``
    (milliseconds, the time of the seat's last `chat`; None before its first)."""

    limit: ChatLimit = field(default_factory=ChatLimit)
    lines: float = -1.0
    bytes: float = -1.0
    at: int | None = None

    def refusal(self, time_ms: int, size: int) -> str | None:
        """Why a `chat` of ``size`` UTF-8 bytes at ``time_ms`` is over the limit (a sentence), or
        None; nothing changes (:meth:`spend` does, once the entry is folded)."""
        lines, nbytes = self._refilled(time_ms)
        if self.at is not None and time_ms < self.at:
            return "a seat's chat lines come in the order of their times"
        if lines < 1:
            return f"a seat chats at most {self.limit.lines:g} lines a minute"
        if nbytes < size:
            return f"a seat chats at most {self.limit.bytes:g} bytes of text a minute"
        return None

    def spend(self, time_ms: int, size: int) -> None:
        """Pay for a `chat` of ``size`` bytes at ``time_ms`` (checked by :meth:`refusal`)."""
        lines, nbytes = self._refilled(time_ms)
        self.lines, self.bytes, self.at = lines - 1, nbytes - size, time_ms

    def _refilled(self, time_ms: int) -> tuple[float, float]:
        limit = self.limit
        if self.at is None:
            return limit.line_burst, limit.byte_burst
        minutes = max(0, time_ms - self.at) / 60_000
        return (
            min(limit.line_burst, self.lines + minutes * limit.lines),
            min(limit.byte_burst, self.bytes + minutes * limit.bytes),
        )
