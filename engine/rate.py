"""Token buckets refilled by the entries' own signed times (docs/protocol.md 7.4, "Chat"; a game's
bound on changes by hand): how much one seat may write in a while, folded the same way by every
peer, since every peer reads the same times.

A bucket holds ``burst`` tokens at most and gains ``per_minute`` tokens a minute of entry time. An
entry that costs more than the bucket holds is refused; a paid one leaves the bucket at its
time. Tokens are counted in thousandths (ints), so a frozen game state can hold a bucket and every
peer computes the same numbers. A time before the bucket's last one refills nothing: a seat gains
nothing by dating an entry in the past, and the host refuses one dated in the future
(:data:`MAX_AHEAD_MS`).

A deviation from PROTOCOL.md 2, which calls an entry's ``time`` informational, never read by the
engine: these buckets (chat's, and a game's) and a game's waits (a change by hand that waits
for its answer) read it. Why: a bound on what a seat writes a minute, and a wait that every
player sees run out at the same entry, need a time every peer agrees on, and the only such
time is the one signed in the log. What the rule protects still holds: the engine reads no clock
of its own, so one log folds to one state on every peer, in the audit, and replayed at any moment
(each game's audit tests). A time is only its author's word, and it can only
hold its author back: one dated ahead is refused by the host past :data:`MAX_AHEAD_MS`, one dated
back refills nothing and makes nothing due sooner on a screen (a screen counts a claim's wait from
when it showed the claim).
"""

from __future__ import annotations

from dataclasses import dataclass

MAX_AHEAD_MS = 60_000
"""How far ahead of the host's clock an entry's time may be (milliseconds): the host refuses a
`chat` or a `move` dated later, so no seat refills its buckets with a time to come."""

MILLI = 1000
"""Thousandths of a token in one token."""


@dataclass(frozen=True)
class Rate:
    """``per_minute`` tokens a minute, ``burst`` at most at once."""

    per_minute: int
    burst: int


@dataclass(frozen=True)
class Bucket:
    """One seat's tokens: ``left`` (thousandths of a token) as of ``at`` (ms, the time of the
    last entry paid for; -1 before the first, when the bucket is full)."""

    left: int = 0
    at: int = -1

    def held(self, rate: Rate, time_ms: int) -> int:
        """Thousandths of a token the bucket holds at ``time_ms``."""
        if self.at < 0:
            return rate.burst * MILLI
        gained = max(0, time_ms - self.at) * rate.per_minute * MILLI // 60_000
        return min(rate.burst * MILLI, self.left + gained)

    def can_pay(self, rate: Rate, time_ms: int, cost: int = 1) -> bool:
        """Whether ``cost`` tokens are there at ``time_ms``."""
        return self.held(rate, time_ms) >= cost * MILLI

    def paid(self, rate: Rate, time_ms: int, cost: int = 1) -> Bucket:
        """The bucket after paying ``cost`` tokens at ``time_ms`` (checked by :meth:`can_pay`)."""
        return Bucket(self.held(rate, time_ms) - cost * MILLI, max(time_ms, self.at))
