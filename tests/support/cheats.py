"""Cheating bot seats for the network tests (no tests here): :class:`Tampered` wraps a seat's duty so
that it signs a changed body, and ``python -m tests.support.cheats PORT CHEAT`` runs one such bot
client in a process of its own against a host on 127.0.0.1:PORT (loopback only): it prints
``seated`` once its duties are tampered with, and exits once its table has stopped on a fault (or
after a time-out)."""

from __future__ import annotations

import asyncio
import sys
from collections.abc import Callable
from typing import Any

from engine.protocol import group

Change = Callable[[Any, dict[str, Any]], dict[str, Any]]
"""``change(seat, body) -> body``: what a cheating seat signs instead of its duty's body."""


def swap_in(seat: Any, body: dict[str, Any]) -> dict[str, Any]:
    """A shuffle whose first card has a card of another deck added: its proof fails."""
    c = body["cards"][0]
    other = group.card_point(seat.table.table_id, "another deck", "Q-0")
    body["cards"] = [[c[0], group.add(c[1], other)], *body["cards"][1:]]
    return body


def copy_previous_proof(seat: Any, body: dict[str, Any]) -> dict[str, Any]:
    """A shuffle carrying, byte for byte, the proof of the shuffle before it in the event (made by
    another seat, under that seat's statement); the seat's own cards. Unchanged when the seat
    shuffles first."""
    t = seat.table
    ev = t.events[body["event"]]
    if ev.shuffles:
        body["proof"] = t.entries[ev.shuffles[-1].seq].body["proof"]
    return body


CHEATS: dict[str, Change] = {"swap-in": swap_in, "copied-proof": copy_previous_proof}


class Tampered:
    """Wraps a seat's ``duty``: every duty of ``kind`` is signed as ``change`` alters it (a duty
    refused as stale is made again, and must be altered again); ``fired`` says it happened."""

    def __init__(self, seat: Any, kind: str, change: Change) -> None:
        self.seat = seat
        self.kind = kind
        self.change = change
        self.fired = False
        self._duty = seat.duty

    def __call__(self) -> Any:
        duty = self._duty()
        if duty is None or duty[0] != self.kind:
            return duty
        self.fired = True
        return duty[0], self.change(self.seat, dict(duty[1]))


async def _run(port: int, cheat: str) -> int:
    from net.local import bot_client
    from tests.support.net import FAST, QUICK_BACKOFF
    from tests.support.poll import eventually

    bot = bot_client(("127.0.0.1", port), "heuristic", name="Cheater", timeouts=FAST, backoff=QUICK_BACKOFF)
    await bot.start()
    try:
        await eventually(lambda: bot.seat is not None and bot.seat.index is not None, 30, "the cheater seated")
        seat = bot.seat
        assert seat is not None
        seat.duty = Tampered(seat, "shuffle", CHEATS[cheat])  # type: ignore[method-assign]
        print("seated", seat.index, flush=True)
        await eventually(lambda: bot.table.fault is not None, 120, "the table to stop")
        print("stopped", bot.table.fault, flush=True)
    finally:
        await bot.stop()
    return 0


if __name__ == "__main__":
    sys.exit(asyncio.run(_run(int(sys.argv[1]), sys.argv[2])))


def second_shufflers_tamper(bots: list[Any], change: Callable[[Any, dict[str, Any]], dict[str, Any]]) -> None:
    """Every bot's seat, whenever it is an event's second shuffler, changes its `shuffle` body with
    ``change(seat, body)`` before signing it (:class:`Tampered`)."""
    for bot in bots:
        seat = bot.seat

        def second_only(seat: Any, body: dict[str, Any], seat_: Any = seat) -> dict[str, Any]:
            ev = seat_.table.events[body["event"]]
            return change(seat, body) if ev.shufflers[1] == seat_.index else body

        seat.duty = Tampered(seat, "shuffle", second_only)


async def second_shuffle_named(host: Any, bots: list[Any]) -> tuple[Any, Any, Any]:
    """Start ``host``'s game and wait until the host and every peer name a cheat; check that all
    name the same fault, at an event's second `shuffle`, whose proof fails, and that no share of
    the game was made. Returns (the fault, its entry, its event)."""
    from tests.support.poll import eventually

    t = host.table
    host.start_game()
    await eventually(lambda: t.fault is not None, 60, "the host to name the cheat")
    await eventually(lambda: all(b.table.fault is not None for b in bots), 30, "every peer to name it")
    fault = t.fault
    entry = t.entries[fault.seq]
    ev = t.events[entry.body["event"]]
    assert entry.kind == "shuffle" and fault.seat == ev.shufflers[1] and "fails its proof" in fault.reason
    assert all(b.table.fault == fault for b in bots)
    assert not any(e.kind == "share" for e in t.entries)
    return fault, entry, ev
