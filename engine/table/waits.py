"""Since when the table waits on each seat (PROTOCOL.md 6.5): the one clock the stall vote reads.

The table waits on a seat from the entry after which that seat owes it something (a protocol
entry, or the move the game awaits). The wait restarts only when what the table waits for moves:
the seat leaves the waited-on seats (its abandon votes are dropped with it), or the seat itself
answers while it is still waited on (an owed protocol entry; a move that changes where play
stands, the game's ``Pending.position``). An entry of the waited-on seat that does not answer (a
chat line, a change by hand, a claim) and any other seat's entry leave its wait as it was, and
hold its stall clock back not at all: a seat that keeps changing its counters is offered to the
stall vote when a silent one would be (table rule ``stall_seconds`` into its wait).

The start of a wait is an entry of the log (its seq and its author's time), so every peer, seat or
spectator, reads the same wait from the same log.
"""

from __future__ import annotations

from collections.abc import Hashable, Iterable
from dataclasses import dataclass, replace

from engine.protocol.log import Entry
from engine.table.vocab import EntryKind

_NOT_ANSWERS = frozenset({EntryKind.CHAT, EntryKind.ABANDON})
"""Entries that never answer what the table waits for."""


@dataclass(frozen=True)
class Wait:
    """The table has waited on a seat since the entry at ``seq``, signed at ``time_ms`` (its
    author's clock, ms since the epoch); ``clock_until``: a time of the game's own for its answer
    runs until then (the game's ``Pending.clock_until``, ms since the epoch; 0: none), and the
    wait counts as a stall only from then; ``at_work_ms``: the signed time of the seat's latest
    move during the wait that answered nothing (a change by hand, a claim: the seat is at work;
    0: none), which screens show the others deciding on a vote, and which never moves the stall
    clock (PROTOCOL.md 6.5)."""

    seq: int
    time_ms: int
    clock_until: int = 0
    at_work_ms: int = 0


class Waits:
    """The wait on each seat the table waits on, updated after every folded entry."""

    def __init__(self) -> None:
        self.since: dict[int, Wait] = {}
        """The wait on each seat the table waits on now, by seat."""
        self.position: Hashable = None

    def after(
        self,
        entry: Entry,
        author: int | None,
        waiting: Iterable[int],
        position: Hashable,
        votes: dict[int, set[int]],
        clock_until: int = 0,
    ) -> None:
        """Fold ``entry`` (by seat ``author``, None for the host) into the waits: ``waiting`` are
        the seats the table waits on after it and ``position`` where play stands after it (the
        game's ``Pending.position``, None during protocol work). ``votes`` (abandon votes by
        target) loses the votes for a seat whose wait ended or restarted. ``clock_until``: the
        game's own time for the answer of the seats it waits on (``Pending.clock_until``)."""
        moved = self.position is None or position is None or position != self.position
        answered = author is not None and (
            EntryKind(entry.kind) not in _NOT_ANSWERS and (entry.kind != EntryKind.MOVE or moved)
        )
        self.position = position
        now = set(waiting)
        for seat in list(self.since):
            if seat not in now or (seat == author and answered):
                del self.since[seat]
                votes.pop(seat, None)
        for seat in now:
            wait = self.since.setdefault(seat, Wait(entry.seq, entry.time, clock_until))
            if wait.clock_until != clock_until:  # the game's own time for its answer began or ended
                wait = self.since[seat] = replace(wait, clock_until=clock_until)
            if seat == author and entry.kind == EntryKind.MOVE and not answered and entry.seq != wait.seq:
                self.since[seat] = replace(wait, at_work_ms=max(wait.at_work_ms, entry.time))  # at work


class WaitClock:
    """How long the table has waited on each seat, read on one peer's clock (PROTOCOL.md 6.5): a
    wait runs from its entry's signed time, but never from later than this peer first saw it, so
    a time signed ahead of the clocks gains nothing, and never from before the host opened the
    table in the run this peer follows, so a table reopened from its log does not count the time
    it was down, and never from before the game's own time for the answer has run
    (:attr:`Wait.clock_until`: a claim lapses by itself meanwhile, nobody stalls). The seat's own
    moves that answer nothing (:attr:`Wait.at_work_ms`) do not move it. Every peer, seat or spectator, reads the same waits from the same log; the
    stall vote, a seat's impulse clock and every screen read them through one of these."""

    def __init__(self) -> None:
        self._seen: dict[tuple[int, int], float] = {}

    def read(self, waits: Waits, now_ms: float, opened_ms: float | None = None) -> dict[int, float]:
        """Seconds the table has waited on each seat it waits on (``waits``: the table's), at
        ``now_ms`` (ms since the epoch, this peer's clock), by seat; ``opened_ms``: when the host
        opened the table in its current run (its welcome's; None: not known), which no wait
        starts before."""
        seen: dict[tuple[int, int], float] = {}
        out: dict[int, float] = {}
        for seat, wait in waits.since.items():
            key = (seat, wait.seq)
            seen[key] = self._seen.get(key, now_ms)
            start = max(min(wait.time_ms, seen[key]), opened_ms or 0, wait.clock_until)
            out[seat] = max(0.0, (now_ms - start) / 1000)
        self._seen = seen
        return out
