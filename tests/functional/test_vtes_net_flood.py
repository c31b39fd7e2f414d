"""A flood of changes by hand to one's own things, over loopback TCP, from a client that skips its
own check (as a raw-wire client would): the host refuses what is over the seat's bound
(docs/vtes-by-hand.md), so the log grows at most at the bound, and the other seat's entries keep
their pace: each of them goes in while at most a burst of the flooder's does."""

from __future__ import annotations

import asyncio

from engine.games.vtes.claims import BY_HAND_RATE
from net.errors import HostRefused
from tests.support.vtes_net import move as _move
from tests.support.vtes_net import state as _state
from tests.support.vtes_net import two_people

FLOOD = 120
"""Acts the flooder sends back to back."""
STEADY = 8
"""Acts the other seat makes meanwhile, one after the other."""


async def test_a_flood_of_changes_by_hand_is_bounded_and_never_delays_another_seat(tmp_path) -> None:
    async with two_people(tmp_path) as t:
        flooder, steady = t.by_seat[t.first], t.by_seat[t.second]
        assert flooder.seat is not None
        flooder.seat.check_move = lambda act: None  # type: ignore[method-assign]  # a client that checks nothing
        sent = [_move(flooder, {"do": "pool", "delta": 1 if i % 2 else -1, "cause": "flood"}) for i in range(FLOOD)]
        flood = asyncio.gather(*sent, return_exceptions=True)
        for _ in range(STEADY):
            await _move(steady, {"do": "pool", "delta": 1, "cause": "steady"})
        answers = await flood
        refused = [a for a in answers if isinstance(a, HostRefused)]
        assert refused and all("changes by hand a minute" in str(a) for a in refused), refused[:3]
        entries = [e for e in t.host.table.entries if e.kind == "move"]
        seat_of = t.host.table.seat_of
        floods = [e for e in entries if seat_of(e.author) == t.first and e.body["act"].get("cause") == "flood"]
        steadies = [e for e in entries if seat_of(e.author) == t.second and e.body["act"].get("cause") == "steady"]
        assert len(steadies) == STEADY
        # The log grows at most at the bound: a burst, then the rate by the entries' own times.
        span_ms = floods[-1].time - floods[0].time
        assert len(floods) <= BY_HAND_RATE.burst + span_ms * BY_HAND_RATE.per_minute // 60_000 + 1
        # Counted in entries: between two of the steady seat's, at most a burst of the flooder's.
        seqs = [e.seq for e in steadies]
        for a, b in zip(seqs, seqs[1:], strict=False):
            between = [e for e in floods if a < e.seq < b]
            assert len(between) <= BY_HAND_RATE.burst
        assert _state(steady).players[t.second].pool == 30 + STEADY
